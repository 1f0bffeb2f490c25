"""One breadcrumb, the extension's, on its pages: pydata-sphinx-theme loses ``breadcrumbs`` from
``article_header_start``, sphinx_rtd_theme's template reads :data:`FLAG`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

#: the option's context name, and the theme's breadcrumb item in it (as given, or as the theme expands it)
OPTION = "theme_article_header_start"
THEIRS = "breadcrumbs"
#: the context flag the extension's ``breadcrumbs.html`` reads: the page shows the extension's breadcrumb
FLAG = "contrib_breadcrumb"


def has_our_breadcrumb(context: dict[str, Any]) -> bool:
    """A write-up (its header, in the body) or a generated tag or project page (its template)."""
    return "contrib-breadcrumb" in str(context.get("body") or "") or context.get("contrib_page") is not None


def drop_theme_breadcrumbs(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    if not has_our_breadcrumb(context):
        return
    context[FLAG] = True
    items = context.get(OPTION)
    if not items:
        return
    listed = [item.strip() for item in items.split(",")] if isinstance(items, str) else items
    if not isinstance(listed, list):
        return
    kept = [item for item in listed if not (isinstance(item, str) and item.removesuffix(".html") == THEIRS)]
    if len(kept) != len(listed):
        context[OPTION] = kept
