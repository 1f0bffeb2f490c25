"""A write-up's page metadata, set once the page is read (after the domain has its record):

- ``orphan``: write-ups are reached through listings, not one sidebar entry per write-up (furo puts
  the whole navigation on every page, so N entries would make every page O(N));
- ``og:description``: the summary, for sphinxext-opengraph (which escapes only ``"`` in what it writes
  into the attribute, so the rest is escaped here).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from .domain import get_domain

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx


def set_page_metadata(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read`` (runs after the domain's ``process_doc``)."""
    docname = app.env.current_document.docname
    record = get_domain(app.env).contributions.get(docname)
    if record is None:
        return
    metadata = app.env.metadata[docname]
    metadata["orphan"] = True
    metadata["og:description"] = html.escape(record.summary, quote=False)


def setup_page_metadata(app: Sphinx) -> None:
    app.connect("doctree-read", set_page_metadata)
