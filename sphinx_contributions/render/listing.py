"""Listings rendered at write time: each ``contributions`` node becomes a table or cards, from the
domain's records, so it always reflects every page of the current build (:mod:`..incremental`
rewrites listing pages when those records change)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx_design.shared import create_component

from .. import nodes as cn
from ..builders import is_site_builder
from ..domain import get_domain
from ..model import Contribution, select, slugify, tag_page
from .header import metric_brief, state_badge, tag_badge

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.builders import Builder


class Renderer:
    """Builds listing nodes for one page of one builder; links are relative to that page."""

    def __init__(self, builder: Builder, fromdoc: str) -> None:
        self.builder = builder
        self.fromdoc = fromdoc
        self.linked = is_site_builder(builder)

    def uri(self, target: str, anchor: str = "") -> str:
        uri = self.builder.get_relative_uri(self.fromdoc, target)
        return f"{uri}#{anchor}" if anchor else uri

    def link(self, target: str, *children: nodes.Node, anchor: str = "", classes: Iterable[str] = ()) -> nodes.Node:
        if not self.linked:
            return nodes.inline("", "", *children, classes=list(classes))
        return nodes.reference("", "", *children, internal=True, refuri=self.uri(target, anchor), classes=list(classes))

    def title_link(self, record: Contribution) -> nodes.Node:
        return self.link(record.docname, nodes.Text(record.title), classes=["contrib-title-link"])

    def pr_link(self, record: Contribution) -> nodes.reference:
        return nodes.reference("", f"#{record.pr}", refuri=record.pr_url, classes=["contrib-pr-link"])

    def project_link(self, record: Contribution) -> nodes.Node:
        return self.link(record.project_page, nodes.Text(record.display_project), classes=["contrib-project"])

    def tags(self, record: Contribution) -> nodes.paragraph:
        paragraph = nodes.paragraph(classes=["contrib-tags"])
        for i, tag in enumerate(record.tags):
            if i:
                paragraph += nodes.Text(" ")
            paragraph += self.link(tag_page(tag), tag_badge(tag), classes=[f"contrib-facet-tag-{slugify(tag)}"])
        return paragraph

    def item_classes(self, record: Contribution) -> list[str]:
        """Facet data for the filter script, as classes (no markup of our own needed)."""
        return [
            "contrib-item",
            f"contrib-project--{slugify(record.display_project)}",
            f"contrib-status--{record.status or 'unstated'}",
            *(f"contrib-tag--{slug}" for slug in record.tag_slugs),
        ]

    def table(self, records: list[Contribution]) -> nodes.table:
        headings = ("Project", "PR", "Contribution", "Impact", "State", "Key metric")
        widths = (10, 8, 22, 36, 8, 16)
        table = nodes.table(classes=["contrib-table"])
        group = nodes.tgroup(cols=len(headings))
        table += group
        for width in widths:
            group += nodes.colspec(colwidth=width)
        head_row = nodes.row()
        for heading in headings:
            head_row += nodes.entry("", nodes.paragraph(text=heading))
        group += nodes.thead("", head_row)
        tbody = nodes.tbody()
        for record in records:
            row = nodes.row(classes=self.item_classes(record))
            cells: list[list[nodes.Node]] = [
                [nodes.paragraph("", "", self.project_link(record))],
                [nodes.paragraph("", "", self.pr_link(record))],
                [nodes.paragraph("", "", self.title_link(record))],
                [nodes.paragraph(text=record.summary)],
                [nodes.paragraph("", "", state_badge(record.status))] if record.status else [],
                [nodes.paragraph(text=metric_brief(record.headline))] if record.headline else [],
            ]
            for cell in cells:
                row += nodes.entry("", *cell)
            tbody += row
        group += tbody
        return table

    def cards(self, records: list[Contribution]) -> nodes.Node:
        grid = create_component("grid-container", ["sd-container-fluid", "sd-sphinx-override", "contrib-cards"])
        row = create_component("grid-row", ["sd-row", "sd-row-cols-1", "sd-row-cols-md-2", "sd-g-3"])
        grid += row
        for record in records:
            item = create_component("grid-item", ["sd-col", "sd-d-flex-row", *self.item_classes(record)])
            card = create_component(
                "card", ["sd-card", "sd-sphinx-override", "sd-w-100", "sd-shadow-sm", "contrib-card"]
            )
            body = create_component("card-body", ["sd-card-body"])
            title = create_component("card-title", ["sd-card-title", "sd-font-weight-bold"])
            title += nodes.paragraph("", "", self.title_link(record))
            body += title
            meta = nodes.paragraph(classes=["contrib-header-meta"])
            meta += self.project_link(record)
            meta += nodes.Text(" · ")
            meta += self.pr_link(record)
            if record.status:
                meta += nodes.Text(" ")
                meta += state_badge(record.status)
            body += meta
            body += nodes.paragraph(text=record.summary, classes=["contrib-summary"])
            if record.headline:
                body += nodes.paragraph(text=metric_brief(record.headline), classes=["contrib-key-metric"])
            if record.tags:
                body += self.tags(record)
            card += body
            item += card
            row += item
        return grid

    def render(self, records: list[Contribution], options: dict[str, object]) -> nodes.Node:
        if not records:
            return nodes.paragraph(text="No contributions match.", classes=["contrib-empty"])
        built = self.cards(records) if options.get("layout") == "cards" else self.table(records)
        container = nodes.container(classes=["contrib-listing"])
        if options.get("filter"):
            container["classes"].append("contrib-filterable")
        container += built
        return container


def _node_options(node: cn.contribution_list) -> dict[str, object]:
    names = ("layout", "project", "tag", "status", "sort", "limit", "filter")
    return {name: node[name] for name in names if name in node.attributes}


def resolve_listings(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: replace each ``contribution_list`` with its table or cards."""
    nodes_found = list(doctree.findall(cn.contribution_list))
    if not nodes_found:
        return
    domain = get_domain(app.env)
    renderer = Renderer(app.builder, docname)
    records = domain.published()
    for node in nodes_found:
        options = _node_options(node)
        node.replace_self(renderer.render(select(records, options), options))


def setup_listing_render(app: Sphinx) -> None:
    app.add_node(cn.contribution_list)
    app.connect("doctree-resolved", resolve_listings)
