"""Sphinx extension for an engineering portfolio of upstream contributions.

Each pull request is a MyST page with a ``contribution`` header, the sections ``problem``,
``root-cause``, ``fix`` and ``verification``, and ``metric`` figures; ``contributions`` listings, tag
and project pages, ``contributions.json``, an Atom feed, ``objects.inv`` entries and ``{ref}`` labels
(for each write-up and each of its sections) all follow from those pages. See ``AUTHORING.md`` for the
format.

Layers: source → nodes (:mod:`.directives`, :mod:`.metric`, :mod:`.listing`, :mod:`.roles`); nodes →
records (:mod:`.domain`, data only, with :mod:`.model`'s pure rules); records → output at write time
(:mod:`.render`, :mod:`.exports`); dependency tracking (:mod:`.incremental`) and fixes for what other
packages leave stale (:mod:`.fixes`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils.nodes import inline

from .books import setup_books
from .builders import is_site_builder, setup_builders, writes_html
from .canonical import setup_canonical
from .directives import setup_directives
from .domain import LAST, ContribRole, ContributionsDomain, note_source, settle_labels, warn_missing_contrib
from .drafts import setup_drafts
from .exports import setup_exports
from .fixes.doc_titles import setup_doc_titles
from .fixes.empty_index import setup_empty_index
from .fixes.epub_svg import setup_epub_svg
from .fixes.lasting_warnings import setup_lasting_warnings
from .fixes.navigation import setup_navigation
from .fixes.notfound_paths import setup_notfound_paths
from .fixes.opengraph_fields import setup_opengraph_fields
from .fixes.search_index import setup_search_index
from .fixes.search_objects import setup_search_objects
from .fixes.singlehtml_anchors import setup_singlehtml_anchors
from .fixes.sitemap import setup_sitemap
from .fixes.stale_outputs import setup_stale_outputs
from .forge_check import setup_forge_check
from .i18n import setup_i18n
from .incremental import setup_incremental
from .limits import setup_limits
from .listing import setup_listing
from .metric import setup_metric
from .myst_settings import setup_myst_settings
from .page_metadata import setup_page_metadata
from .projects import setup_projects
from .render.cards import setup_cards
from .render.filter import add_filter_script
from .render.header import setup_header
from .render.links import setup_links
from .render.listing import setup_listing_render
from .render.metric import setup_metric_render
from .render.navigation import setup_navigation_render
from .render.pages import setup_pages
from .render.projects import setup_projects_render
from .render.templates import setup_templates
from .report import setup_report
from .robots import setup_robots
from .roles import setup_roles
from .title_page import setup_title_page
from .written import setup_written

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__version__ = "0.1.0"

STATIC_FILES = ("contributions.css", "contributions.js")


def _add_static_files(app: Sphinx) -> None:
    """``builder-inited``: the extension's CSS and script, for HTML builders only."""
    if not writes_html(app.builder):
        return
    app.config.html_static_path.append(str(Path(__file__).parent / "static"))
    app.add_css_file("contributions.css")
    if is_site_builder(app.builder):  # the filter script works on a site's listing pages
        add_filter_script(app)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx_design")
    app.add_config_value("contributions_index", "contributions/index", "env", types=frozenset({str}))
    # the build's report and warnings that stay until fixed: first, to see every warning of the build
    setup_report(app)
    setup_lasting_warnings(app)
    setup_myst_settings(app)
    app.add_domain(ContributionsDomain)
    app.connect("source-read", note_source, priority=LAST)
    app.connect("env-updated", settle_labels)
    app.add_role("contrib", ContribRole(innernodeclass=inline))
    app.connect("warn-missing-reference", warn_missing_contrib)
    setup_i18n(app)
    # source → nodes → records
    setup_roles(app)
    setup_directives(app)
    setup_metric(app)
    setup_listing(app)
    setup_limits(app)
    setup_projects(app)
    setup_page_metadata(app)
    setup_drafts(app)
    setup_forge_check(app)
    # records → output, at write time
    setup_templates(app)
    setup_header(app)
    setup_metric_render(app)
    setup_listing_render(app)
    setup_projects_render(app)
    setup_links(app)
    setup_pages(app)
    setup_navigation_render(app)
    setup_exports(app)
    setup_books(app)
    setup_title_page(app)
    setup_cards(app)
    setup_canonical(app)
    setup_robots(app)
    setup_builders(app)
    # incremental builds
    setup_incremental(app)
    setup_written(app)
    setup_doc_titles(app)
    setup_navigation(app)
    setup_search_index(app)
    setup_search_objects(app)
    setup_sitemap(app)
    setup_opengraph_fields(app)
    setup_notfound_paths(app)
    setup_singlehtml_anchors(app)
    setup_epub_svg(app)
    setup_stale_outputs(app)
    setup_empty_index(app)
    app.connect("builder-inited", _add_static_files)
    return {
        "version": __version__,
        "env_version": 9,  # 4: lock facts; 5: summaries keep their markup; 6: tag/project folders; 7: og:type;
        # 8: no og:description stored (fixes/opengraph_fields.py); 9: impact sentences
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
