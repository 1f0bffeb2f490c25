"""The extension's wiring: what it registers with Sphinx, and every event handler in one table.

Read :data:`HANDLERS` from the top to follow a build's life: the settings are checked, the builder starts,
Sphinx picks the pages to read, reads them (each page's records are collected by the ``contrib`` domain,
:mod:`.collect.domain`), picks the pages to write, resolves and renders them, writes the site's own pages
and files, and finishes. Within one event the rows stand in the order Sphinx runs them: by priority (its
default is 500; lower runs first), then by place in the table. Every ``app.connect`` of the package is in
:func:`setup`, from this table; every setting is in :mod:`.settings`.

The extension emits events of its own where another extension may hook in (as ``sphinx.ext.todo`` emits
``todo-defined``): :data:`EVENTS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .builders import page_context as builder_page_context
from .collect.domain import ContributionsDomain, settle_labels, warn_missing_contrib
from .collect.drafts import check_no_draft_left, leave_out_drafts
from .collect.lock_facts import load_lock, report_coverage
from .collect.own_nodes import setup_own_nodes
from .collect.short_names import add_short_names
from .collect.titles import set_page_metadata, title_as_text
from .i18n import load_catalogs, say_labels_stay_english, setup_i18n
from .read.myst_settings import check_myst_settings, setup_myst_settings
from .read.roles import setup_roles
from .read.sources import note_source
from .render.assets import (
    add_page_assets,
    add_static_files,
    add_static_path,
    copy_used_assets,
    hold_design_assets,
    note_page_assets,
)
from .render.design_guest import setup_design_guest
from .render.header import render_headers, setup_header
from .render.links import _resolved as links_resolved
from .render.links import resolve_page_links, setup_links
from .render.listing import resolve_listings, setup_listing_render
from .render.metric import metrics_to_text, setup_metric_render
from .render.projects import resolve_projects, setup_projects_render
from .render.templates import add_templates_path
from .render.theme_breadcrumbs import drop_theme_breadcrumbs
from .settings import check_html_baseurl, check_settings, register_settings
from .themes import check_theme
from .version import __version__
from .write.books import check_epub_version, listings_once, setup_books, unique_writeup_ids
from .write.canonical import drop_relative_og_url, report_left_out, silence_sitemap
from .write.exports import page_context as exports_page_context
from .write.exports import write_exports
from .write.fixes.design_latex import add_card_styles
from .write.fixes.doc_titles import setup_doc_titles
from .write.fixes.empty_index import drop_empty_index, no_index_link
from .write.fixes.epub_bookkeeping import drop_buildinfo_backup, exclude_memory
from .write.fixes.epub_svg import fix_epub
from .write.fixes.lasting_warnings import (
    install_before_reading,
    install_in_reader,
    read_again,
    setup_lasting_warnings,
    uninstall_when_done,
)
from .write.fixes.navigation import navigation_changed
from .write.fixes.notfound_paths import restore_helpers, save_helpers
from .write.fixes.opengraph_fields import check_opengraph, name_the_page, opengraph_fields
from .write.fixes.opengraph_print import report_missing_matplotlib
from .write.fixes.search_index import prune_search_index
from .write.fixes.search_objects import index_keys
from .write.fixes.settled_settings import add_late_static_dirs, drop_second_copy, set_file_priorities, set_up_theme
from .write.fixes.singlehtml_anchors import fix_double_anchors, fix_navigation
from .write.fixes.sitemap import check_sitemap_url, disconnect_sphinx_sitemap, write_sitemap
from .write.fixes.stale_outputs import remove_stale_files
from .write.generated import check_folders, collect_pages, intros_changed
from .write.incremental import setup_incremental
from .write.manifest import commit, forget_before_writing
from .write.redirects import write_redirects
from .write.report import setup_report, write_report
from .write.robots import add_noindex
from .write.sidebar import page_context as sidebar_page_context
from .write.sidebar import sidebar_changed
from .write.social_cards import add_card, check_base_url, remove_stale_cards, setup_cards
from .write.title_page import drop_repeated_lines, set_title_page

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


@dataclass(frozen=True)
class Handler:
    """One row of the wiring table."""

    event: str
    callback: Callable[..., Any]
    priority: int
    why: str


#: the events the extension emits, with their arguments after ``app``
EVENTS: dict[str, str] = {
    # emitted by the domain for each write-up it collects (:mod:`.collect.domain`), in the reading process;
    # a handler may warn about the record or note data of its own; it must not change the record
    "contributions-record": "docname, record",
}

#: after every other handler of an event (Sphinx's default priority is 500)
LAST = 1_000_000

#: every event handler of the package, in the order of a build's life (see the module's text)
HANDLERS: tuple[Handler, ...] = (
    # -- the settings, once read ------------------------------------------------------------------
    Handler("config-inited", check_settings, 50, "every contributions_* setting typed and spelt right, first"),
    Handler("config-inited", check_html_baseurl, 60, "html_baseurl an http(s):// URL ending in '/', or none"),
    Handler("config-inited", check_theme, 100, "a theme not installed: one warning, alabaster instead"),
    Handler("config-inited", load_catalogs, 100, "the extension's words in the site's language, before use"),
    Handler("config-inited", check_myst_settings, 500, "MyST is on, with the colon fence write-ups use"),
    Handler("config-inited", add_templates_path, 500, "the extension's templates, after the site's own"),
    Handler("config-inited", add_static_path, 500, "the stylesheet's folder, before the env compares settings"),
    Handler(
        "config-inited", hold_design_assets, 500, "sphinx-design's files only on pages that use them, unless listed"
    ),
    Handler("config-inited", set_up_theme, 500, "a theme package's settings (furo's) there before the env compares"),
    Handler("config-inited", add_late_static_dirs, 500, "sphinx-design's, copybutton's folders, for the same reason"),
    Handler("config-inited", check_folders, 500, "the generated pages' folders are folders inside the site"),
    Handler("config-inited", set_title_page, 500, "the PDF's title page from the site's settings"),
    Handler("config-inited", add_card_styles, 500, "sphinx-design's card titles a bold line of their own in the PDF"),
    Handler("config-inited", report_missing_matplotlib, 500, "opengraph's matplotlib line said once, or not"),
    Handler("config-inited", silence_sitemap, 500, "no sitemap warning for a site without a canonical URL"),
    Handler("config-inited", disconnect_sphinx_sitemap, 500, "the sitemap is written by .write.fixes.sitemap"),
    Handler("config-inited", exclude_memory, 500, "ePub: the output's memory file is no part of the book"),
    Handler("config-inited", set_file_priorities, 900, "after Sphinx's (800): the builder's default priority, now"),
    # -- the builder starts -----------------------------------------------------------------------
    Handler("builder-inited", check_epub_version, 400, "an EPUB 2 build is refused before Sphinx's own check"),
    Handler("builder-inited", check_base_url, 500, "social cards need a canonical URL: said once"),
    Handler("builder-inited", report_left_out, 500, "what a site without a canonical URL leaves out"),
    Handler("builder-inited", check_sitemap_url, 500, "the sitemap's URL scheme is one the sitemap can hold"),
    Handler("builder-inited", check_opengraph, 500, "sphinxext-opengraph's settings the extension relies on"),
    Handler("builder-inited", add_static_files, 500, "everywhere (a setting): the stylesheet and script, HTML only"),
    Handler("builder-inited", drop_second_copy, 900, "after sphinx-design's, copybutton's: each folder once"),
    Handler("builder-inited", add_short_names, LAST, "bare {pr}, {fix} …: only names no one else took, extlinks' too"),
    # -- the pages to read ------------------------------------------------------------------------
    Handler("env-get-outdated", leave_out_drafts, 100, "drafts out of the build first, as if not there"),
    Handler("env-get-outdated", read_again, 500, "pages that warned last time are read again (warn again)"),
    Handler("env-get-outdated", load_lock, 500, "the lock's facts; pages whose entry changed are read again"),
    Handler("env-before-read-docs", install_before_reading, 500, "warnings noted per page while reading"),
    # -- each page read ---------------------------------------------------------------------------
    Handler("source-read", install_in_reader, 500, "the same in a parallel reader"),
    Handler("source-read", note_source, LAST, "the page's text as its parser gets it, for the checks"),
    Handler("doctree-read", title_as_text, 400, "a write-up's title as plain text, before Sphinx's collector"),
    Handler("doctree-read", set_page_metadata, 500, "a write-up's page metadata from its record"),
    # -- all pages read ---------------------------------------------------------------------------
    Handler("env-updated", settle_labels, 500, "each {ref} label owned by one page, as in a clean build"),
    Handler("env-updated", drop_empty_index, 500, "no index entry on any page: no empty Index page"),
    Handler("env-get-updated", navigation_changed, 500, "every page again when a title in the navigation changed"),
    Handler("env-get-updated", intros_changed, 900, "project pages whose intro changed"),
    Handler("env-get-updated", sidebar_changed, 900, "pages whose sidebar of write-ups changed"),
    Handler("env-check-consistency", check_no_draft_left, 500, "no published page lists a draft"),
    Handler("env-check-consistency", report_coverage, 500, "lock entries without a page, pages without one"),
    # -- writing: each page resolved and rendered -------------------------------------------------
    Handler("write-started", remove_stale_files, 400, "files the output held and this build does not: gone"),
    Handler("write-started", drop_buildinfo_backup, 500, "ePub: Sphinx's .buildinfo.bak neither packed nor warned"),
    Handler("write-started", forget_before_writing, 500, "what this build rewrites is unknown until written"),
    Handler("write-started", say_labels_stay_english, 500, "a language without a catalog: one line, labels in English"),
    Handler("write-started", copy_used_assets, 500, "the stylesheet and scripts into _static, where a page uses them"),
    Handler("doctree-resolved", note_page_assets, 390, "whether the page shows the extension's work: its files"),
    Handler("doctree-resolved", render_headers, 400, "a write-up's header, per builder"),
    Handler("doctree-resolved", listings_once, 400, "books: each write-up once, before the listings"),
    Handler("doctree-resolved", metrics_to_text, 500, "figures as text where a builder draws none"),
    Handler("doctree-resolved", resolve_listings, 500, "listings from every record of the build"),
    Handler("doctree-resolved", resolve_projects, 500, "the projects overview from the records"),
    Handler("doctree-resolved", resolve_page_links, 500, "links to generated pages and exports, per builder"),
    Handler("doctree-resolved", drop_repeated_lines, 500, "PDF: no line the title block shows already"),
    Handler("doctree-resolved", links_resolved, 900, "after the listings: their links resolved too"),
    Handler("doctree-resolved", unique_writeup_ids, 940, "books: ids unique across chapters"),
    Handler("doctree-resolved", fix_double_anchors, 950, "singlehtml: one '#' in a link to another page"),
    Handler("warn-missing-reference", warn_missing_contrib, 500, "a {contrib} to a draft or unknown key, in our words"),
    # -- writing: the site's own pages and files --------------------------------------------------
    Handler("html-collect-pages", collect_pages, 500, "the generated tag and project pages"),
    Handler("html-collect-pages", write_exports, 500, "contributions.json, its schema and the feed"),
    Handler("html-collect-pages", write_redirects, 500, "a renamed write-up's old address leads to it"),
    Handler("html-collect-pages", prune_search_index, 500, "words no page holds leave the search index"),
    Handler("html-collect-pages", index_keys, 500, "write-ups found in the search by their key"),
    Handler("html-page-context", save_helpers, 390, "404 page: the theme's link helpers kept"),
    Handler("html-page-context", exports_page_context, 400, "JSON-LD and description, before opengraph's"),
    Handler("html-page-context", add_card, 400, "the social card, before opengraph's (500)"),
    Handler("html-page-context", builder_page_context, 400, "what each builder gets, before the theme's"),
    Handler("html-page-context", opengraph_fields, 400, "the text opengraph writes, escaped once"),
    Handler("html-page-context", name_the_page, 400, "json, pickle: the page's name opengraph reads"),
    Handler("html-page-context", fix_navigation, 400, "singlehtml: the navigation's links"),
    Handler("html-page-context", no_index_link, 400, "no link to an Index page that is not written"),
    Handler("html-page-context", restore_helpers, 410, "404 page: the link helpers back"),
    Handler("html-page-context", add_noindex, 500, "a preview build tells search engines not to index"),
    Handler("html-page-context", sidebar_page_context, 600, "where a page sits, after furo builds its tree"),
    Handler("html-page-context", drop_relative_og_url, 600, "no og:url without a canonical URL"),
    Handler("html-page-context", drop_theme_breadcrumbs, 600, "pydata, rtd: one breadcrumb, the extension's"),
    Handler("html-page-context", add_page_assets, 700, "the stylesheet and scripts where shown, sidebar's too"),
    # -- the build finished -----------------------------------------------------------------------
    Handler("build-finished", remove_stale_cards, 500, "cards of pages that are gone"),
    Handler("build-finished", fix_epub, 500, "ePub: the svg property EPUB 3 asks for"),
    Handler("build-finished", write_sitemap, 600, "the sitemap, after sphinx-sitemap's (500)"),
    Handler("build-finished", commit, 800, "what every output now holds, once all was written"),
    Handler("build-finished", write_report, 900, "the build's report, after those whose warnings it holds"),
    Handler("build-finished", uninstall_when_done, 950, "the page-warnings handler leaves with the build"),
)

#: what the extension registers besides handlers: nodes, directives, roles, transforms and collectors,
#: one function per component (as sphinx-design's ``setup_<component>``)
COMPONENTS: tuple[Callable[[Sphinx], None], ...] = (
    setup_i18n,
    setup_roles,
    setup_myst_settings,
    setup_header,
    setup_metric_render,
    setup_listing_render,
    setup_projects_render,
    setup_links,
    setup_books,
    setup_cards,
    setup_incremental,
    setup_doc_titles,
    setup_own_nodes,
    setup_design_guest,
)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx_design")
    # the report and the warnings that stay until fixed first: they see every warning of the build
    setup_report(app)
    setup_lasting_warnings(app)
    register_settings(app)
    for event in EVENTS:
        app.add_event(event)
    app.add_domain(ContributionsDomain)
    for component in COMPONENTS:
        component(app)
    for handler in HANDLERS:
        app.connect(handler.event, handler.callback, priority=handler.priority)
    return {
        "version": __version__,
        "env_version": 11,  # 4: lock facts; 5: summaries keep their markup; 6: tag/project folders; 7: og:type;
        # 8: no og:description stored (write/fixes/opengraph_fields.py); 9: impact sentences; 10: the pages
        # that hold the extension's nodes (collect/own_nodes.py); 11: and those holding sphinx-design's
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
