"""One breadcrumb on a page that has the extension's (a write-up's "Contributions › numpy", a tag or
project page's), where the theme draws its own (home › the page's title) at the top of every page, so such
a page showed two, one above the other:

- pydata-sphinx-theme (and sphinx-book-theme, built on it) puts it in the article's header through its
  documented ``article_header_start`` option (default ``breadcrumbs``): on those pages the theme's
  ``breadcrumbs`` item is left out of that option; every other item keeps the theme's;
- sphinx_rtd_theme draws it in its ``breadcrumbs.html`` template, which has no option: on those pages
  :data:`FLAG` is set, and the extension's ``templates/themes/sphinx_rtd_theme/breadcrumbs.html``
  (extending the theme's, searched under that theme only, :mod:`.templates`) leaves out the block of the
  trail, keeping the source and edit links beside it.

Every other page keeps the theme's breadcrumb. Themes without one (furo, alabaster …) are untouched.
"""

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
