"""A write-up's page metadata and title, set once the page is read (after the domain has its record):

- ``orphan``: write-ups are reached through listings, not one sidebar entry per write-up (furo puts
  the whole navigation on every page, so N entries would make every page O(N)); a page whose header was
  rejected (and reported) is an orphan too, so Sphinx does not add a misleading "not included in any
  toctree";
- ``og:type``: ``article`` (the summary becomes ``og:description`` at write time, escaped once for the
  sphinxext-opengraph releases that escape only ``"``: :mod:`.fixes.opengraph_fields`; nothing escaped is
  stored);
- the title as text: raw HTML in a write-up's title (``# Fix <b>this</b>``) is shown as the text it is,
  in the ``<h1>`` as in the listings, the feed, the JSON and the ``<title>``, which all show the record's
  title as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from .. import nodes as cn
from .domain import get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def set_page_metadata(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read`` (runs after the domain's ``process_doc``)."""
    docname = app.env.current_document.docname
    metadata = app.env.metadata[docname]
    record = get_domain(app.env).contributions.get(docname)
    if record is None:
        if doctree.get("contrib_rejected"):
            metadata["orphan"] = True
        return
    metadata["orphan"] = True
    metadata["og:type"] = "article"  # a write-up (sphinxext-opengraph: "website" for every other page)


def title_as_text(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``, before Sphinx's title collector copies the title (for the ``<title>``, the
    navigation and ``{doc}`` links): raw HTML in a write-up's title becomes its text."""
    if not cn.made_here(app.env) or next(doctree.findall(cn.contribution_header), None) is None:
        return
    section = next(  # the page's title, as the domain takes it: its first heading, not a write-up section
        (node for node in doctree.children if isinstance(node, nodes.section) and not node.get("contrib_section")),
        None,
    )
    if section is None or not section.children or not isinstance(section[0], nodes.title):
        return
    for raw in list(section[0].findall(nodes.raw)):
        raw.replace_self(nodes.Text(raw.astext()))
