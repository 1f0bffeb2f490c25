"""One breadcrumb on a page that has the extension's (a write-up's "Contributions › numpy", a tag or
project page's): pydata-sphinx-theme puts its own breadcrumb (home › the page's title) at the top of every
article, through its documented ``article_header_start`` option (default ``breadcrumbs``), so such a page
showed two, one above the other. On those pages the theme's ``breadcrumbs`` item is left out of that
option; every other item, and every other page, keeps the theme's. Themes without the option (furo,
alabaster …) are untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

#: the option's context name, and the theme's breadcrumb item in it (as given, or as the theme expands it)
OPTION = "theme_article_header_start"
THEIRS = "breadcrumbs"


def has_our_breadcrumb(context: dict[str, Any]) -> bool:
    """A write-up (its header, in the body) or a generated tag or project page (its template)."""
    return "contrib-breadcrumb" in str(context.get("body") or "") or context.get("contrib_page") is not None


def drop_theme_breadcrumbs(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    items = context.get(OPTION)
    if not items or not has_our_breadcrumb(context):
        return
    listed = [item.strip() for item in items.split(",")] if isinstance(items, str) else items
    if not isinstance(listed, list):
        return
    kept = [item for item in listed if not (isinstance(item, str) and item.removesuffix(".html") == THEIRS)]
    if len(kept) != len(listed):
        context[OPTION] = kept
