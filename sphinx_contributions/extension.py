"""The extension's wiring: every event handler in one table, :data:`HANDLERS`, in the order of a build's life and,
within an event, in the order Sphinx runs them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import builders, i18n, nodes, settings, themes
from .collect import domain, drafts, lock_facts, short_names, titles
from .read import myst_settings, names, roles, sources
from .render import assets, header, links, listing, metric, projects, templates, theme_breadcrumbs
from .version import __version__
from .write import (
    books,
    canonical,
    exports,
    generated,
    manifest,
    redirects,
    report,
    robots,
    sidebar,
    social_cards,
    title_page,
)
from .write.fixes import (
    design_latex,
    empty_index,
    epub_bookkeeping,
    epub_svg,
    lasting_warnings,
    opengraph_fields,
    search_index,
    search_objects,
    singlehtml_anchors,
    sitemap,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils.nodes import Element
    from sphinx.application import Sphinx
    from sphinx.transforms import SphinxTransform
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
    # emitted by the domain for each write-up it collects; a handler may warn, not change the record
    "contributions-record": "docname, record",
}

#: after every other handler of an event (Sphinx's default priority is 500)
LAST = 1_000_000

#: every event handler of the package, in the order of a build's life (see the module's text)
HANDLERS: tuple[Handler, ...] = (
    # -- the settings, once read ------------------------------------------------------------------
    Handler("config-inited", settings.check_settings, 50, "every contributions_* setting typed and spelt right, first"),
    Handler("config-inited", settings.check_html_baseurl, 60, "html_baseurl an http(s):// URL ending in '/', or none"),
    Handler("config-inited", themes.check_theme, 100, "a theme not installed: one warning, alabaster instead"),
    Handler("config-inited", i18n.load_catalogs, 100, "the extension's words in the site's language, before use"),
    Handler("config-inited", myst_settings.check_myst_settings, 500, "MyST is on, with the colon fence write-ups use"),
    Handler("config-inited", templates.add_templates_path, 500, "the extension's templates, after the site's own"),
    Handler("config-inited", assets.add_static_path, 500, "the stylesheet's folder, before the env compares settings"),
    Handler("config-inited", settings.check_folders, 500, "the generated pages' folders are folders inside the site"),
    Handler("config-inited", title_page.set_title_page, 500, "the PDF's title page from the site's settings"),
    Handler("config-inited", design_latex.add_card_styles, 500, "PDF: sphinx-design's card titles bold"),
    Handler("config-inited", canonical.silence_sitemap, 500, "no sitemap warning for a site without a canonical URL"),
    Handler("config-inited", sitemap.disconnect_sphinx_sitemap, 500, "the sitemap is written by .write.fixes.sitemap"),
    Handler("config-inited", epub_bookkeeping.exclude_memory, 500, "ePub: the memory file not packed"),
    # -- the builder starts -----------------------------------------------------------------------
    Handler("builder-inited", books.check_epub_version, 400, "an EPUB 2 build is refused before Sphinx's own check"),
    Handler("builder-inited", social_cards.check_base_url, 500, "social cards need a canonical URL: said once"),
    Handler("builder-inited", sitemap.check_sitemap_url, 500, "the sitemap's URL scheme is one the sitemap can hold"),
    Handler("builder-inited", assets.add_static_files, 500, "the stylesheet and script, HTML only"),
    Handler("builder-inited", names.install_typo_filter, 500, "our warning, not MyST's, for a typo"),
    Handler("builder-inited", short_names.add_short_names, LAST, "bare {pr}, {fix} …: names none took"),
    # -- the pages to read ------------------------------------------------------------------------
    Handler("env-get-outdated", drafts.leave_out_drafts, 100, "drafts out of the build first, as if not there"),
    Handler("env-get-outdated", lasting_warnings.read_again, 500, "pages that warned are read again"),
    Handler("env-get-outdated", lock_facts.load_lock, 500, "the lock; changed entries read again"),
    Handler("env-before-read-docs", lasting_warnings.install, 500, "warnings noted per page"),
    # -- each page read ---------------------------------------------------------------------------
    Handler("source-read", lasting_warnings.install, 500, "the same in a parallel reader"),
    Handler("source-read", sources.note_source, LAST, "the page's text as its parser gets it, for the checks"),
    Handler("doctree-read", titles.title_as_text, 400, "a write-up's title as plain text, before Sphinx's collector"),
    Handler("doctree-read", titles.set_page_metadata, 500, "a write-up's page metadata from its record"),
    # -- all pages read ---------------------------------------------------------------------------
    Handler("env-updated", domain.settle_labels, 500, "each {ref} label owned by one page, as in a clean build"),
    Handler("env-updated", empty_index.drop_empty_index, 500, "no index entry on any page: no empty Index page"),
    Handler("env-get-updated", manifest.updated, 500, "every page again when what pages show of each other changed"),
    Handler("env-check-consistency", drafts.check_no_draft_left, 500, "no published page lists a draft"),
    Handler("env-check-consistency", lock_facts.report_coverage, 500, "lock entries without a page, pages without one"),
    # -- writing: each page resolved and rendered -------------------------------------------------
    Handler("write-started", manifest.start_writing, 400, "files the output held and this build does not: gone"),
    Handler("write-started", epub_bookkeeping.drop_buildinfo_backup, 500, "ePub: no .buildinfo.bak packed"),
    Handler("write-started", i18n.say_labels_stay_english, 500, "no catalog: one line, English labels"),
    Handler("write-started", canonical.report_left_out, 500, "what no canonical URL leaves out"),
    Handler("write-started", assets.copy_used_assets, 500, "our static files, where used"),
    Handler("doctree-resolved", assets.note_page_assets, 390, "whether the page shows the extension's work: its files"),
    Handler("doctree-resolved", header.render_headers, 400, "a write-up's header, per builder"),
    Handler("doctree-resolved", books.listings_once, 400, "books: each write-up once, before the listings"),
    Handler("doctree-resolved", metric.metrics_to_text, 500, "figures as text where a builder draws none"),
    Handler("doctree-resolved", listing.resolve_listings, 500, "listings from every record of the build"),
    Handler("doctree-resolved", projects.resolve_projects, 500, "the projects overview from the records"),
    Handler("doctree-resolved", links.resolve_page_links, 500, "links to generated pages and exports, per builder"),
    Handler("doctree-resolved", title_page.drop_repeated_lines, 500, "PDF: no line the title block shows already"),
    Handler("doctree-resolved", links.mark_outbound_links, 900, "after the listings: their links resolved too"),
    Handler("doctree-resolved", books.unique_writeup_ids, 940, "books: ids unique across chapters"),
    Handler("doctree-resolved", singlehtml_anchors.fix_double_anchors, 950, "singlehtml: one '#' in a link"),
    Handler("warn-missing-reference", drafts.warn_missing_contrib, 500, "{contrib} to a draft or unknown key"),
    # -- writing: the site's own pages and files --------------------------------------------------
    Handler("html-collect-pages", generated.collect_pages, 500, "the generated tag and project pages"),
    Handler("html-collect-pages", exports.write_exports, 500, "contributions.json, its schema and the feed"),
    Handler("html-collect-pages", redirects.write_redirects, 500, "a renamed write-up's old address leads to it"),
    Handler("html-collect-pages", search_index.prune_search_index, 500, "words no page holds leave the search index"),
    Handler("html-collect-pages", search_objects.index_keys, 500, "write-ups found in the search by their key"),
    Handler("html-page-context", exports.page_context, 400, "JSON-LD and description, before opengraph's"),
    Handler("html-page-context", social_cards.add_card, 400, "the social card, before opengraph's (500)"),
    Handler("html-page-context", builders.page_context, 400, "what each builder gets, before the theme's"),
    Handler("html-page-context", opengraph_fields.opengraph_fields, 400, "the text opengraph writes, escaped once"),
    Handler("html-page-context", opengraph_fields.name_the_page, 400, "json, pickle: the page's name opengraph reads"),
    Handler("html-page-context", singlehtml_anchors.fix_navigation, 400, "singlehtml: the navigation's links"),
    Handler("html-page-context", empty_index.no_index_link, 400, "no link to an Index page that is not written"),
    Handler("html-page-context", robots.add_noindex, 500, "a preview build tells search engines not to index"),
    Handler("html-page-context", sidebar.page_context, 600, "where a page sits, after furo builds its tree"),
    Handler("html-page-context", canonical.drop_relative_og_url, 600, "no og:url without a canonical URL"),
    Handler("html-page-context", theme_breadcrumbs.drop_theme_breadcrumbs, 600, "pydata, rtd: one breadcrumb"),
    Handler("html-page-context", assets.add_page_assets, 700, "the stylesheet and scripts where shown, sidebar's too"),
    # -- the build finished -----------------------------------------------------------------------
    Handler("build-finished", social_cards.remove_stale_cards, 500, "cards of pages that are gone"),
    Handler("build-finished", epub_svg.fix_epub, 500, "ePub: the svg property EPUB 3 asks for"),
    Handler("build-finished", sitemap.write_sitemap, 600, "the sitemap, after sphinx-sitemap's (500)"),
    Handler("build-finished", manifest.commit, 800, "what every output now holds, once all was written"),
    Handler("build-finished", report.write_report, 900, "the build's report, after those whose warnings it holds"),
    Handler("build-finished", lasting_warnings.uninstall_when_done, 950, "the warnings handler leaves"),
)

#: set up first: the report and the lasting warnings see every warning, the settings are there for all
FIRST: tuple[Callable[[Sphinx], None], ...] = (
    report.setup_report,
    lasting_warnings.install,
    settings.register_settings,
)

#: every node (:mod:`.nodes`) with its visitors per format; one without is resolved away before writing
NODES: tuple[tuple[type[Element], dict[str, tuple[Callable[..., None], Callable[..., None] | None]]], ...] = (
    (nodes.option_text, {}),
    (nodes.pending_github_link, {}),
    (
        nodes.contribution_header,
        {
            "html": (header.visit_header_html, header.depart_header_html),
            "latex": (header.visit_header_latex, header.depart_header_latex),
            "texinfo": (header.visit_header_texinfo, header.pass_header),
            "text": (header.pass_header, header.pass_header),
            "man": (header.pass_header, header.pass_header),
        },
    ),
    # the formats of render.metric.VISITORS
    (nodes.metric, {"html": (metric.visit_metric_html, None), "latex": (metric.visit_metric_latex, None)}),
    (nodes.contribution_list, {}),
    (nodes.contribution_projects, {}),
    (nodes.project_intro, {}),
    (nodes.page_link, {}),
    (nodes.export_link, {}),
)

#: the transforms of a page being read (each returns at once on a page the extension did not run on)
TRANSFORMS: tuple[type[SphinxTransform], ...] = (
    myst_settings.UnreadWriteUps,
    roles.ResolveShortLinks,
    i18n.TranslatedOptions,
)

#: what the extension sets up besides, one function per part (as sphinx-design's ``setup_<component>``)
COMPONENTS: tuple[Callable[[Sphinx], None], ...] = (books.setup_books, links.setup_links)


def setup(app: Sphinx) -> ExtensionMetadata:
    for first in FIRST:
        first(app)
    for event in EVENTS:
        app.add_event(event)
    app.add_domain(domain.ContributionsDomain)
    for node, visitors in NODES:
        app.add_node(node, **visitors)  # type: ignore[arg-type]
    for transform in TRANSFORMS:
        app.add_transform(transform)
    for component in COMPONENTS:
        component(app)
    for handler in HANDLERS:
        app.connect(handler.event, handler.callback, priority=handler.priority)
    return {
        "version": __version__,
        "env_version": 14,  # raised whenever what the environment keeps changes shape
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
