"""Where a write-up sits. Write-ups are orphans (reached through listings, so the navigation does not
grow with their number), which leaves a theme nothing to mark: on a write-up page this marks the list
of contributions as current in the site navigation (furo's sidebar, which is also its phone menu) and
sets the page's previous/next links to the neighbouring write-ups, in the order of that list; the
first write-up's previous link leads back to the list. Site builders only."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any

from ..builders import is_site_builder
from ..domain import get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..model import Contribution


def _mark_current(tree: str, uri: str) -> str:
    """The navigation tree's HTML with the top-level entry linking to ``uri`` marked current, as
    Sphinx marks the ancestors of the current page."""
    entry = re.compile(
        r'<li class="toctree-l1">(<a class=")(reference internal" href="' + re.escape(escape(uri)) + r'")'
    )
    marked, count = entry.subn(r'<li class="toctree-l1 current">\1current \2', tree, count=1)
    return marked.replace("<ul>", '<ul class="current">', 1) if count else tree


def _link(app: Sphinx, pagename: str, target: str, title: str) -> dict[str, str]:
    return {"link": app.builder.get_relative_uri(pagename, target), "title": escape(title)}


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``, after the theme's: on a write-up, the current entry and previous/next."""
    domain = get_domain(app.env)
    record = domain.contributions.get(pagename)
    if record is None or not is_site_builder(app.builder):
        return
    index = app.config.contributions_index
    has_index = index in app.env.found_docs
    if has_index and isinstance(context.get("furo_navigation_tree"), str):
        uri = app.builder.get_relative_uri(pagename, index)
        context["furo_navigation_tree"] = _mark_current(context["furo_navigation_tree"], uri)
    before, after = domain.neighbours(index, pagename)
    index_title = app.env.titles[index].astext() if has_index else ""
    context["prev"] = _neighbour(app, pagename, before) or (
        _link(app, pagename, index, index_title) if has_index else None
    )
    context["next"] = _neighbour(app, pagename, after)


def _neighbour(app: Sphinx, pagename: str, record: Contribution | None) -> dict[str, str] | None:
    return _link(app, pagename, record.docname, record.title) if record is not None else None


def setup_navigation_render(app: Sphinx) -> None:
    app.connect("html-page-context", page_context, priority=600)  # after furo's (500) builds the tree
