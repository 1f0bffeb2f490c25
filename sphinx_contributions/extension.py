"""The extension's wiring: what it registers with Sphinx, and every event handler in one table.

Read :data:`HANDLERS` from the top to follow a build's life: the settings are checked, the builder starts,
Sphinx picks the pages to read, reads them (each page's records are collected by the ``contrib`` domain,
:mod:`.collect.domain`), picks the pages to write, resolves and renders them, writes the site's own pages
and files, and finishes. Within one event the rows stand in the order Sphinx runs them: by priority (its
default is 500; lower runs first), then by place in the table. Every ``app.connect`` of the package is in
:func:`setup`, from this table; every setting is in :mod:`.settings`.

The wiring names what it registers by reference (``".module:name"``) and imports each on first use
(:mod:`.lazy`): a site that lists the extension and holds no write-up loads its light modules only (the
settings, the domain, the checks of a page read) and builds at about the cost of the site without it. A
row's ``when`` (:mod:`.write.gates`) is asked before its handler's module is imported.

The extension emits events of its own where another extension may hook in (as ``sphinx.ext.todo`` emits
``todo-defined``): :data:`EVENTS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from . import nodes
from .lazy import function, resolve, transform
from .version import __version__

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


@dataclass(frozen=True)
class Handler:
    """One row of the wiring table: the handler is named by reference (``".module:function"``, relative to
    the package) and imported when its event first comes (:mod:`.lazy`)."""

    event: str
    callback: str
    priority: int
    why: str
    #: where the handler may have nothing to do: a predicate of the event's arguments (:mod:`.write.gates`),
    #: asked first; where it says no, the handler's module is not imported
    when: str | None = None

    def target(self) -> Callable[..., Any]:
        """The handler itself, imported now."""
        found: Callable[..., Any] = resolve(self.callback)
        return found


#: the events the extension emits, with their arguments after ``app``
EVENTS: dict[str, str] = {
    # emitted by the domain for each write-up it collects (:mod:`.collect.domain`), in the reading process;
    # a handler may warn about the record or note data of its own; it must not change the record
    "contributions-record": "docname, record",
}

#: what a handler of these events returns where its gate says it has nothing to do (Sphinx iterates it)
NOTHING: dict[str, Any] = {"env-get-outdated": list, "env-get-updated": list, "html-collect-pages": list}

#: the gates of :mod:`.write.gates`
WORK = ".write.gates:shows_work"

#: after every other handler of an event (Sphinx's default priority is 500)
LAST = 1_000_000

#: every event handler of the package, in the order of a build's life (see the module's text)
HANDLERS: tuple[Handler, ...] = (
    # -- the settings, once read ------------------------------------------------------------------
    Handler(
        "config-inited", ".settings:check_settings", 50, "every contributions_* setting typed and spelt right, first"
    ),
    Handler(
        "config-inited", ".settings:check_html_baseurl", 60, "html_baseurl an http(s):// URL ending in '/', or none"
    ),
    Handler("config-inited", ".themes:check_theme", 100, "a theme not installed: one warning, alabaster instead"),
    Handler("config-inited", ".i18n:load_catalogs", 100, "the extension's words in the site's language, before use"),
    Handler(
        "config-inited",
        ".read.myst_settings:check_myst_settings",
        500,
        "MyST is on, with the colon fence write-ups use",
    ),
    Handler(
        "config-inited", ".render.templates:add_templates_path", 500, "the extension's templates, after the site's own"
    ),
    Handler(
        "config-inited",
        ".render.assets:add_static_path",
        500,
        "the stylesheet's folder, before the env compares settings",
    ),
    Handler(
        "config-inited",
        ".render.assets:hold_design_assets",
        500,
        "sphinx-design's files only on pages that use them, unless listed",
    ),
    Handler(
        "config-inited",
        ".write.fixes.settled_settings:set_up_theme",
        500,
        "a theme package's settings (furo's) there before the env compares",
    ),
    Handler(
        "config-inited",
        ".write.fixes.settled_settings:add_late_static_dirs",
        500,
        "sphinx-design's, copybutton's folders, for the same reason",
    ),
    Handler(
        "config-inited",
        ".settings:check_folders",
        500,
        "the generated pages' folders are folders inside the site",
    ),
    Handler("config-inited", ".write.title_page:set_title_page", 500, "the PDF's title page from the site's settings"),
    Handler(
        "config-inited",
        ".write.fixes.design_latex:add_card_styles",
        500,
        "sphinx-design's card titles a bold line of their own in the PDF",
    ),
    Handler(
        "config-inited",
        ".write.fixes.opengraph_print:report_missing_matplotlib",
        500,
        "opengraph's matplotlib line said once, or not",
    ),
    Handler(
        "config-inited",
        ".write.canonical:silence_sitemap",
        500,
        "no sitemap warning for a site without a canonical URL",
    ),
    Handler(
        "config-inited",
        ".write.fixes.sitemap:disconnect_sphinx_sitemap",
        500,
        "the sitemap is written by .write.fixes.sitemap",
    ),
    Handler(
        "config-inited",
        ".write.fixes.epub_bookkeeping:exclude_memory",
        500,
        "ePub: the output's memory file is no part of the book",
    ),
    Handler(
        "config-inited",
        ".write.fixes.settled_settings:set_file_priorities",
        900,
        "after Sphinx's (800): the builder's default priority, now",
    ),
    # -- the builder starts -----------------------------------------------------------------------
    Handler(
        "builder-inited",
        ".write.books:check_epub_version",
        400,
        "an EPUB 2 build is refused before Sphinx's own check",
        when=".write.gates:epub_without_version",
    ),
    Handler(
        "builder-inited",
        ".write.social_cards:check_base_url",
        500,
        "social cards need a canonical URL: said once",
        when=".write.gates:cards_on",
    ),
    Handler(
        "builder-inited", ".write.canonical:report_left_out", 500, "what a site without a canonical URL leaves out"
    ),
    Handler(
        "builder-inited",
        ".write.fixes.sitemap:check_sitemap_url",
        500,
        "the sitemap's URL scheme is one the sitemap can hold",
    ),
    Handler(
        "builder-inited",
        ".write.fixes.opengraph_fields:check_opengraph",
        500,
        "sphinxext-opengraph's settings the extension relies on",
    ),
    Handler(
        "builder-inited",
        ".render.assets:add_static_files",
        500,
        "everywhere (a setting): the stylesheet and script, HTML only",
    ),
    Handler(
        "builder-inited",
        ".write.fixes.settled_settings:drop_second_copy",
        900,
        "after sphinx-design's, copybutton's: each folder once",
    ),
    Handler(
        "builder-inited",
        ".collect.short_names:add_short_names",
        LAST,
        "bare {pr}, {fix} …: only names no one else took, extlinks' too",
    ),
    # -- the pages to read ------------------------------------------------------------------------
    Handler(
        "env-get-outdated", ".collect.drafts:leave_out_drafts", 100, "drafts out of the build first, as if not there"
    ),
    Handler(
        "env-get-outdated",
        ".write.fixes.lasting_warnings:read_again",
        500,
        "pages that warned last time are read again (warn again)",
    ),
    Handler(
        "env-get-outdated",
        ".collect.lock_facts:load_lock",
        500,
        "the lock's facts; pages whose entry changed are read again",
    ),
    Handler(
        "env-before-read-docs",
        ".write.fixes.lasting_warnings:install_before_reading",
        500,
        "warnings noted per page while reading",
    ),
    # -- each page read ---------------------------------------------------------------------------
    Handler("source-read", ".write.fixes.lasting_warnings:install_in_reader", 500, "the same in a parallel reader"),
    Handler("source-read", ".read.sources:note_source", LAST, "the page's text as its parser gets it, for the checks"),
    Handler(
        "doctree-read",
        ".collect.titles:title_as_text",
        400,
        "a write-up's title as plain text, before Sphinx's collector",
    ),
    Handler("doctree-read", ".collect.titles:set_page_metadata", 500, "a write-up's page metadata from its record"),
    # -- all pages read ---------------------------------------------------------------------------
    Handler(
        "env-updated",
        ".collect.domain:settle_labels",
        500,
        "each {ref} label owned by one page, as in a clean build",
        when=WORK,
    ),
    Handler(
        "env-updated",
        ".write.fixes.empty_index:drop_empty_index",
        500,
        "no index entry on any page: no empty Index page",
    ),
    Handler(
        "env-get-updated",
        ".write.manifest:updated",
        500,
        "every page again when what pages show of each other changed",
        when=WORK,
    ),
    Handler(
        "env-check-consistency",
        ".collect.drafts:check_no_draft_left",
        500,
        "no published page lists a draft",
        when=WORK,
    ),
    Handler(
        "env-check-consistency",
        ".collect.lock_facts:report_coverage",
        500,
        "lock entries without a page, pages without one",
    ),
    # -- writing: each page resolved and rendered -------------------------------------------------
    Handler(
        "write-started",
        ".render.design_guest:load_design",
        300,
        "sphinx-design for the cards a page shows, after the env is saved",
        when=".write.gates:shows_cards",
    ),
    Handler(
        "write-started",
        ".write.manifest:start_writing",
        400,
        "files the output held and this build does not: gone",
        when=WORK,
    ),
    Handler(
        "write-started",
        ".write.fixes.epub_bookkeeping:drop_buildinfo_backup",
        500,
        "ePub: Sphinx's .buildinfo.bak neither packed nor warned",
    ),
    Handler(
        "write-started",
        ".i18n:say_labels_stay_english",
        500,
        "a language without a catalog: one line, labels in English",
    ),
    Handler(
        "write-started",
        ".render.assets:copy_used_assets",
        500,
        "the stylesheet and scripts into _static, where a page uses them",
        when=WORK,
    ),
    Handler(
        "doctree-resolved",
        ".render.assets:note_page_assets",
        390,
        "whether the page shows the extension's work: its files",
        when=WORK,
    ),
    Handler("doctree-resolved", ".render.header:render_headers", 400, "a write-up's header, per builder", when=WORK),
    Handler(
        "doctree-resolved",
        ".write.books:listings_once",
        400,
        "books: each write-up once, before the listings",
        when=WORK,
    ),
    Handler(
        "doctree-resolved",
        ".render.metric:metrics_to_text",
        500,
        "figures as text where a builder draws none",
        when=WORK,
    ),
    Handler(
        "doctree-resolved",
        ".render.listing:resolve_listings",
        500,
        "listings from every record of the build",
        when=WORK,
    ),
    Handler(
        "doctree-resolved",
        ".render.projects:resolve_projects",
        500,
        "the projects overview from the records",
        when=WORK,
    ),
    Handler(
        "doctree-resolved",
        ".render.links:resolve_page_links",
        500,
        "links to generated pages and exports, per builder",
        when=WORK,
    ),
    Handler(
        "doctree-resolved", ".write.title_page:drop_repeated_lines", 500, "PDF: no line the title block shows already"
    ),
    Handler(
        "doctree-resolved",
        ".render.links:_resolved",
        900,
        "after the listings: their links resolved too",
        when=".write.gates:marks_links",
    ),
    Handler("doctree-resolved", ".write.books:unique_writeup_ids", 940, "books: ids unique across chapters", when=WORK),
    Handler(
        "doctree-resolved",
        ".write.fixes.singlehtml_anchors:fix_double_anchors",
        950,
        "singlehtml: one '#' in a link to another page",
    ),
    Handler(
        "warn-missing-reference",
        ".collect.domain:warn_missing_contrib",
        500,
        "a {contrib} to a draft or unknown key, in our words",
    ),
    # -- writing: the site's own pages and files --------------------------------------------------
    Handler(
        "html-collect-pages", ".write.generated:collect_pages", 500, "the generated tag and project pages", when=WORK
    ),
    Handler(
        "html-collect-pages",
        ".write.exports:write_exports",
        500,
        "contributions.json, its schema and the feed",
        when=WORK,
    ),
    Handler(
        "html-collect-pages",
        ".write.redirects:write_redirects",
        500,
        "a renamed write-up's old address leads to it",
        when=WORK,
    ),
    Handler(
        "html-collect-pages",
        ".write.fixes.search_index:prune_search_index",
        500,
        "words no page holds leave the search index",
        when=WORK,
    ),
    Handler(
        "html-collect-pages",
        ".write.fixes.search_objects:index_keys",
        500,
        "write-ups found in the search by their key",
        when=WORK,
    ),
    Handler(
        "html-page-context", ".write.fixes.notfound_paths:save_helpers", 390, "404 page: the theme's link helpers kept"
    ),
    Handler(
        "html-page-context",
        ".write.exports:page_context",
        400,
        "JSON-LD and description, before opengraph's",
        when=WORK,
    ),
    Handler(
        "html-page-context",
        ".write.social_cards:add_card",
        400,
        "the social card, before opengraph's (500)",
        when=".write.gates:cards_on",
    ),
    Handler("html-page-context", ".builders:page_context", 400, "what each builder gets, before the theme's"),
    Handler(
        "html-page-context",
        ".write.fixes.opengraph_fields:opengraph_fields",
        400,
        "the text opengraph writes, escaped once",
    ),
    Handler(
        "html-page-context",
        ".write.fixes.opengraph_fields:name_the_page",
        400,
        "json, pickle: the page's name opengraph reads",
    ),
    Handler(
        "html-page-context", ".write.fixes.singlehtml_anchors:fix_navigation", 400, "singlehtml: the navigation's links"
    ),
    Handler(
        "html-page-context",
        ".write.fixes.empty_index:no_index_link",
        400,
        "no link to an Index page that is not written",
    ),
    Handler("html-page-context", ".write.fixes.notfound_paths:restore_helpers", 410, "404 page: the link helpers back"),
    Handler("html-page-context", ".write.robots:add_noindex", 500, "a preview build tells search engines not to index"),
    Handler(
        "html-page-context",
        ".write.sidebar:page_context",
        600,
        "where a page sits, after furo builds its tree",
        when=WORK,
    ),
    Handler("html-page-context", ".write.canonical:drop_relative_og_url", 600, "no og:url without a canonical URL"),
    Handler(
        "html-page-context",
        ".render.theme_breadcrumbs:drop_theme_breadcrumbs",
        600,
        "pydata, rtd: one breadcrumb, the extension's",
    ),
    Handler(
        "html-page-context",
        ".render.assets:add_page_assets",
        700,
        "the stylesheet and scripts where shown, sidebar's too",
        when=WORK,
    ),
    # -- the build finished -----------------------------------------------------------------------
    Handler("build-finished", ".write.social_cards:remove_stale_cards", 500, "cards of pages that are gone", when=WORK),
    Handler(
        "build-finished", ".write.fixes.epub_svg:fix_epub", 500, "ePub: the svg property EPUB 3 asks for", when=WORK
    ),
    Handler("build-finished", ".write.fixes.sitemap:write_sitemap", 600, "the sitemap, after sphinx-sitemap's (500)"),
    Handler("build-finished", ".write.manifest:commit", 800, "what every output now holds, once all was written"),
    Handler(
        "build-finished", ".write.report:write_report", 900, "the build's report, after those whose warnings it holds"
    ),
    Handler(
        "build-finished",
        ".write.fixes.lasting_warnings:uninstall_when_done",
        950,
        "the page-warnings handler leaves with the build",
    ),
)

#: set up before anything else: the report and the warnings that stay until fixed see every warning of the
#: build, and the settings are there for every other part
FIRST: tuple[str, ...] = (
    ".write.report:setup_report",
    ".write.fixes.lasting_warnings:setup_lasting_warnings",
    ".settings:register_settings",
)

#: the ``contrib`` domain: the extension's directives, roles, records and ``objects.inv`` entries
DOMAIN = ".collect.domain:ContributionsDomain"

#: every node of the extension (:mod:`.nodes`), with its visitors per output format, by reference; a node
#: without visitors never reaches a writer (it is resolved away before, :mod:`.render`)
NODES: tuple[tuple[str, dict[str, tuple[str, str | None]]], ...] = (
    ("option_text", {}),
    ("pending_github_link", {}),
    (
        "contribution_header",
        {
            "html": (".render.header:visit_header_html", ".render.header:depart_header_html"),
            "latex": (".render.header:visit_header_latex", ".render.header:depart_header_latex"),
            "texinfo": (".render.header:visit_header_texinfo", ".render.header:pass_header"),
            "text": (".render.header:pass_header", ".render.header:pass_header"),
            "man": (".render.header:pass_header", ".render.header:pass_header"),
        },
    ),
    # the formats of render.metric.VISITORS
    (
        "metric",
        {"html": (".render.metric:visit_metric_html", None), "latex": (".render.metric:visit_metric_latex", None)},
    ),
    ("contribution_list", {}),
    ("contribution_projects", {}),
    ("project_intro", {}),
    ("page_link", {}),
    ("export_link", {}),
)

#: the transforms of a page being read, and after it is resolved (``post``): (class, priority, kind, when
#: it may have work: a predicate of the transform). Each is a stand-in (:func:`.lazy.transform`) that
#: imports the class where the predicate says yes; the priority is the class's own (a test checks)
TRANSFORMS: tuple[tuple[str, int, str, str | None], ...] = (
    (".read.myst_settings:UnreadWriteUps", 400, "read", None),
    (".read.roles:ResolveShortLinks", 500, "read", ".read.marks:ran_here"),
    (".i18n:TranslatedOptions", 510, "read", ".read.marks:ran_here"),
    (".write.books:WriteupChapters", 5, "post", ".collect.own_nodes:site_ran_here"),
    (".render.links:LinksToCheck", 790, "post", ".collect.own_nodes:site_ran_here"),
)

#: what the extension sets up besides: environment collectors and other extensions' steps, one function
#: per part (as sphinx-design's ``setup_<component>``)
COMPONENTS: tuple[str, ...] = (
    ".write.fixes.opengraph_print:setup_opengraph_print",
    ".collect.own_nodes:setup_own_nodes",
    ".render.design_guest:setup_design_guest",
)


def setup(app: Sphinx) -> ExtensionMetadata:
    for first in FIRST:
        resolve(first)(app)
    for event in EVENTS:
        app.add_event(event)
    app.add_domain(resolve(DOMAIN))
    for name, visitors in NODES:
        stand_ins = {
            fmt: (function(visit), function(depart) if depart else None) for fmt, (visit, depart) in visitors.items()
        }
        app.add_node(getattr(nodes, name), **stand_ins)  # type: ignore[arg-type]
    for ref, priority, kind, when in TRANSFORMS:
        if kind == "read":
            app.add_transform(transform(ref, SphinxTransform, priority, when))
        else:  # the books' chapters need the application: a post transform is handed the environment only
            app.add_post_transform(transform(ref, SphinxPostTransform, priority, when, application=app))
    for component in COMPONENTS:
        resolve(component)(app)
    for handler in HANDLERS:
        stand_in = function(handler.callback, handler.when, NOTHING.get(handler.event))
        app.connect(handler.event, stand_in, priority=handler.priority)
    return {
        "version": __version__,
        "env_version": 12,  # 4: lock facts; 5: summaries keep their markup; 6: tag/project folders; 7: og:type;
        # 8: no og:description stored (write/fixes/opengraph_fields.py); 9: impact sentences; 10: the pages
        # that hold the extension's nodes (collect/own_nodes.py); 11: and those holding sphinx-design's; 12: and every
        # page its directives or roles ran on
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
