"""The guide's own links work in the manual: ``AUTHORING.md`` links its parts by their headings' anchors
(``[Facts from the forge](#facts-from-the-forge)``), as GitHub and any Markdown viewer read it; in the
manual each part is a page of its own (an ``{include}`` of it), so the anchor is on another page. Each
heading's anchor (MyST's slug, ``myst_heading_anchors``) is made a label of the site here, so MyST resolves
``#facts-from-the-forge`` across pages, as it resolves any label. A slug that is already a label, or that
two pages share, stays as it is (the first page in name order keeps it); a link to it is MyST's to resolve
on its own page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def add_heading_labels(app: Sphinx, doctree: nodes.document) -> None:
    std = app.env.domains.standard_domain
    for section in doctree.findall(nodes.section):
        slug = section.get("slug")
        if not slug or not section["ids"] or slug in std.labels or slug in std.anonlabels:
            continue
        title = section.next_node(nodes.title)
        std.anonlabels[slug] = (app.env.docname, section["ids"][0])
        std.labels[slug] = (app.env.docname, section["ids"][0], title.astext() if title else slug)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-read", add_heading_labels)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
