"""The extension's stylesheet and script, only on the pages that show what they style (:func:`add_page_assets`), copied
only for a site that has one; ``contributions_assets_everywhere`` puts them on every page."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes

from .. import nodes as cn
from ..builders import is_site_builder, writes_html
from ..collect.domain import get_domain, holds_own_nodes, site_shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
STATIC_FILES = ("contributions.css", "contributions.js", "contributions-search.js")
#: on the search page of a site with write-ups: a write-up found by its key is its page's hit
SEARCH_JS = "contributions-search.js"
#: the class of the write-ups' list in furo's sidebar (:mod:`..write.sidebar`), on every page it is on
SIDEBAR_CLASS = 'class="contrib-nav"'
#: the extension's nodes that show something styled (a link or an export link alone does not)
_SHOWN = (cn.contribution_header, cn.contribution_list, cn.contribution_projects, cn.metric)


def everywhere(app: Sphinx) -> bool:
    return bool(app.config.contributions_assets_everywhere)


def add_static_path(app: Sphinx, config: Config) -> None:
    """``config-inited``: the ``static/`` folder, before Sphinx compares settings (assets everywhere)."""
    if everywhere(app) and str(STATIC_DIR) not in config.html_static_path:
        config.html_static_path.append(str(STATIC_DIR))


def add_static_files(app: Sphinx) -> None:
    """``builder-inited`` (``contributions_assets_everywhere``): the CSS and script on every page of HTML builders."""
    if not everywhere(app) or not writes_html(app.builder):
        return
    app.add_css_file("contributions.css")
    if is_site_builder(app.builder):  # the filter script works on a site's listing pages
        from .filter import add_filter_script  # here: the filter's module loads the listings' words

        add_filter_script(app)


def note_page_assets(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``, before the extension's nodes are rendered: whether the page shows any."""
    if not writes_html(app.builder):
        return
    domain = get_domain(app.env)
    if docname in domain.contributions or docname in domain.listings or doctree.get("contrib_rejected"):
        shown = True  # a write-up, a listing, or a page meant as a write-up whose header was rejected
    elif not holds_own_nodes(app, docname):
        return  # none of the extension's nodes (noted when the page was read): nothing shown
    else:
        # a page without a record or a listing holds a figure or callout at most (checked once, here)
        shown = next(doctree.findall(_shows_something), None) is not None
    if shown:
        doctree[cn.USES_ASSETS] = True


def _shows_something(node: nodes.Node) -> bool:
    return isinstance(node, _SHOWN) or (isinstance(node, nodes.container) and "contrib-limits" in node["classes"])


def add_page_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """``html-page-context``: the files on this page only, where it shows the extension's work; the search script."""
    if pagename == "search" and is_site_builder(app.builder) and get_domain(app.env).published():
        app.add_js_file(SEARCH_JS, loading_method="defer")
    if everywhere(app) or not writes_html(app.builder):
        return
    listed = SIDEBAR_CLASS in str(context.get("furo_navigation_tree") or "")  # write-ups in furo's sidebar
    if doctree is not None:
        if not (doctree.get(cn.USES_ASSETS) or listed):
            return
    elif not listed and pagename not in get_domain(app.env).generated_pages():
        return
    app.add_css_file("contributions.css")
    if is_site_builder(app.builder):
        from .filter import add_filter_script

        add_filter_script(app)


def used_static_files(app: Sphinx, builder: Builder) -> list[Path]:
    """The extension's files for this output's ``_static``: where pages are HTML, the site shows its work, and they are
    not on every page already."""
    if everywhere(app) or not writes_html(builder) or not site_shows_work(app):
        return []
    return [STATIC_DIR / name for name in STATIC_FILES]


def copy_used_assets(app: Sphinx, builder: Builder) -> None:
    """``write-started``, before Sphinx copies static files: :func:`used_static_files` into ``_static``."""
    files = used_static_files(app, builder)
    if not files:
        return
    static = Path(builder.outdir, "_static")
    static.mkdir(parents=True, exist_ok=True)
    for source in files:
        shutil.copyfile(source, static / source.name)
