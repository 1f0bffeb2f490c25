"""Links that leave the site carry ``rel="noopener noreferrer"``: the linked page gets neither a
handle on this window nor the address it was reached from.

Sphinx's HTML writer writes a reference's ``rel`` attribute; a late ``doctree-resolved`` handler sets it
on every external http(s) reference of a page, after the listings and page links are resolved (MyST
links, ``{pr}``/``{issue}``, the header's and the listings' GitHub links). Generated tag and project
pages are rendered outside that event, so :mod:`.pages` calls :func:`mark_external_links` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

EXTERNAL_REL = "noopener noreferrer"


def mark_external_links(tree: nodes.Node) -> None:
    for node in tree.findall(nodes.reference):
        if node.get("internal") or "refuri" not in node:
            continue
        if urlsplit(node["refuri"]).scheme in {"http", "https"}:
            node["rel"] = EXTERNAL_REL


def _resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format == "html":
        mark_external_links(doctree)


def setup_links(app: Sphinx) -> None:
    app.connect("doctree-resolved", _resolved, priority=900)  # after the listings (default 500)
