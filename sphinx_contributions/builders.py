"""One place decides what each builder gets (as ablog's ``builder_support``).

A *site* builder writes one HTML file per page into a folder served as a website (``html``,
``dirhtml``): only it gets the extension's exports (``contributions.json``, the feed), head tags,
generated tag and project pages, static files and the fixes for incremental HTML output. A *book*
builder makes one document of the whole site (``singlehtml``, ``epub``, ``latex``, ``texinfo``,
``man``, ``text``…): it gets the write-ups themselves, with links to site-only pages turned into text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.builders import Builder

#: HTML builders that do not write a website of separate pages
_NOT_SITES = frozenset({"singlehtml", "epub", "epub3"})


def is_site_builder(builder: Builder) -> bool:
    """Whether ``builder`` writes a website: one HTML file per page, with the extension's extra pages."""
    return builder.format == "html" and builder.name not in _NOT_SITES


def writes_html(builder: Builder) -> bool:
    """Whether ``builder`` writes HTML (the site builders, ``singlehtml``, ``epub``)."""
    return builder.format == "html"
