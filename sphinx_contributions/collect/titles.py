"""A write-up's page metadata once read: ``orphan`` (reached through listings, not a sidebar entry each; also a
rejected page, which was reported), ``og:type`` ``article``, and its title as text (raw HTML shown as text)."""

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
    metadata["og:type"] = "article"


def title_as_text(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``, before Sphinx's title collector copies it: raw HTML in a write-up's title becomes text."""
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
