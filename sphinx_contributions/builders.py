"""What each builder gets, from one table (as ablog's ``builder_support``): *site* builders get the site's extras,
*book* builders the write-ups with site-only links as text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes

from .nodes import USES_ASSETS
from .settings import canonical_url

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder


@dataclass(frozen=True)
class Output:
    """What a kind of builder writes, as far as the extension cares."""

    #: a website of separate HTML pages: exports, feed, sitemap, generated pages, head tags
    site: bool = False
    #: its pages are made by Sphinx's HTML translator (the site, ``singlehtml``, ``epub``, ``json`` …)
    html: bool = False
    #: one file per document (what a deleted page leaves behind), also ``text`` and ``xml``
    pages: bool = False
    #: the whole site as one HTML page (``singlehtml``): every document's ids share one page
    one_page: bool = False
    #: a book: it holds every write-up (:mod:`.books` adds those the root's toctrees do not reach)
    book: bool = False
    #: it writes the root and what its toctrees reach into one document (latex, texinfo, man, singlehtml)
    inlines: bool = False
    #: a link to a write-up is a link in its output (text and man have no links)
    links: bool = False
    #: an ePub (its package file declares the SVG images, :mod:`.fixes.epub_svg`)
    epub: bool = False
    #: message catalogs (``gettext``): the translatable text of the nodes, as written
    catalogs: bool = False


SITE = Output(site=True, html=True, pages=True, links=True)
#: HTML pages of a kind that is no website: ``json``/``pickle`` (page bodies as data), help bundles
HTML_PAGES = Output(html=True, pages=True, links=True)
ONE_PAGE = Output(html=True, one_page=True, book=True, inlines=True, links=True)
EPUB = Output(html=True, pages=True, book=True, links=True, epub=True)
DOCUMENT = Output(book=True, inlines=True, links=True)
MANUAL = Output(book=True, inlines=True)
CATALOGS = Output(catalogs=True)
#: anything else (``text``, ``dummy``, ``linkcheck``, ``gettext``, ``xml`` …): the pages as written
OTHER = Output()

#: builder name → what it writes; a builder of another name is known by its class (:func:`output_of`)
OUTPUTS: dict[str, Output] = {
    "html": SITE,
    "dirhtml": SITE,
    "singlehtml": ONE_PAGE,
    "json": HTML_PAGES,
    "pickle": HTML_PAGES,
    "htmlhelp": HTML_PAGES,
    "qthelp": HTML_PAGES,
    "devhelp": HTML_PAGES,
    "applehelp": HTML_PAGES,
    "epub": EPUB,
    "latex": DOCUMENT,
    "texinfo": DOCUMENT,
    "man": MANUAL,
    "gettext": CATALOGS,
}


def output_of(builder: Builder) -> Output:
    """What ``builder`` writes: by its name in :data:`OUTPUTS`, else by the Sphinx builder it extends."""
    known = OUTPUTS.get(builder.name)
    if known is not None:
        return known
    # imported here, for a builder of another name only: gettext's builder imports uuid (40 ms)
    from sphinx.builders.gettext import MessageCatalogBuilder
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.builders.singlehtml import SingleFileHTMLBuilder

    if isinstance(builder, SingleFileHTMLBuilder):
        return ONE_PAGE
    if isinstance(builder, MessageCatalogBuilder):
        return CATALOGS
    if isinstance(builder, StandaloneHTMLBuilder):
        serializes = getattr(builder, "implementation", None) is not None  # sphinxcontrib-serializinghtml's
        return HTML_PAGES if serializes else SITE
    return OTHER


def is_site_builder(builder: Builder) -> bool:
    """Whether ``builder`` writes a website: one HTML file per page, with the extension's extra pages."""
    return output_of(builder).site


def writes_html(builder: Builder) -> bool:
    """Whether ``builder``'s pages are made by Sphinx's HTML translator."""
    return output_of(builder).html


def links_inside(builder: Builder) -> bool:
    """Whether a link to a write-up is a link in ``builder``'s output."""
    return output_of(builder).links


def writes_one_page(builder: Builder) -> bool:
    """Whether ``builder`` writes the whole site as one HTML page (``singlehtml``)."""
    return output_of(builder).one_page


#: pages a site builder writes besides the documents, which ``singlehtml`` does not write
_NOT_WRITTEN_BY_ONE_PAGE = frozenset({"genindex", "search"})


def book_fixes_apply(app: Sphinx, doctree: object) -> bool:
    """Whether the one-page fixes apply: ``contributions_book_fixes``, or the book shows the extension's work."""
    shows_ours = isinstance(doctree, nodes.document) and bool(doctree.get(USES_ASSETS))
    return shows_ours or bool(app.config.contributions_book_fixes)


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``: on ``singlehtml`` no link to the index or search pages it does not write."""
    if not writes_one_page(app.builder) or not book_fixes_apply(app, doctree):
        return
    hasdoc = context["hasdoc"]
    context["hasdoc"] = lambda name: name not in _NOT_WRITTEN_BY_ONE_PAGE and hasdoc(name)
    context["sidebars"] = [name for name in context.get("sidebars", ()) if "search" not in name]


#: the exports: files the extension writes beside a site's pages, which ``{export}`` links to
JSON_NAME = "contributions.json"
SCHEMA_NAME = "contributions.schema.json"
FEED_NAME = "contributions.atom"
EXPORT_NAMES = (JSON_NAME, SCHEMA_NAME, FEED_NAME)


def written_exports(app: Sphinx, published: bool) -> tuple[str, ...]:
    """The exports a site build writes: none without a published write-up, the feed only with a canonical URL."""
    if not published:
        return ()
    return EXPORT_NAMES if canonical_url(app.config) else tuple(name for name in EXPORT_NAMES if name != FEED_NAME)
