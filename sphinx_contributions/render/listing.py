"""Listings rendered at write time: each ``contributions`` node becomes a table or cards, from the
domain's records, so it always reflects every page of the current build (:mod:`..incremental`
rewrites listing pages when those records change).

Site builders (``html``, ``dirhtml``) render a listing with the templates under
``templates/contributions/`` (a site overrides them from its ``templates_path``): one raw HTML node
instead of thousands of docutils nodes, so a long listing costs a template render, not a tree walk per
Sphinx transform. Every other builder (``singlehtml``, ``epub``, LaTeX, text, man, texinfo…) gets the
same listing as docutils nodes (:class:`Renderer`), which its own transforms and writers handle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx_design.shared import create_component

from .. import nodes as cn
from ..domain import get_domain
from ..i18n import _
from ..model import Contribution, select, slugify
from .header import (
    Stat,
    Tag,
    metric_brief,
    stat,
    state_badge,
    state_classes,
    state_label,
    tag_badge,
    tag_classes,
    tag_links,
)
from .links import Links
from .summary import summary_html, summary_nodes
from .templates import render_html, templates_of

if TYPE_CHECKING:
    from collections.abc import Iterable

    from markupsafe import Markup
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.jinja2glue import BuiltinTemplateLoader


#: the template of a listing; it includes ``listing_<layout>.html``
LISTING_TEMPLATE = "contributions/listing.html"


def table_headings() -> tuple[str, ...]:
    """The column headings of a listing table, translated."""
    return (_("Project"), _("PR"), _("Contribution"), _("Impact"), _("State"), _("Key metric"))


def empty_text() -> str:
    return _("No contributions match.")


def item_classes(record: Contribution) -> list[str]:
    """Facet data for the filter script, as classes (no markup of our own needed)."""
    return [
        "contrib-item",
        f"contrib-project--{slugify(record.display_project)}",
        f"contrib-status--{record.status or 'unstated'}",
        *(f"contrib-tag--{slug}" for slug in record.tag_slugs),
    ]


@dataclass(frozen=True)
class Entry:
    """What a listing template gets for one record, its links relative to the page being written
    (``#`` for a link to that page itself)."""

    record: Contribution
    url: str
    project_url: str
    tags: tuple[Tag, ...]
    classes: str
    state: str  # the state's label; "" when not stated
    state_classes: str
    brief: str  # the first figure in brief; "" when there is none
    summary_html: Markup  # the summary's inline markup as HTML (``record.summary`` is its plain text)
    figure: Stat | None  # the headline figure as a stat (a ``proof`` listing shows it); None when none


def entries(records: Iterable[Contribution], links: Links) -> list[Entry]:
    result = []
    states: dict[str, str] = {}
    for record in records:
        status = record.status
        if status and status not in states:
            states[status] = " ".join(state_classes(status))
        result.append(
            Entry(
                record=record,
                url=links.href(record.docname),
                project_url=links.href(record.project_page),
                tags=tag_links(record, links),
                classes=" ".join(item_classes(record)),
                state=state_label(status) if status else "",
                state_classes=states[status] if status else "",
                brief=metric_brief(record.headline) if record.headline else "",
                summary_html=summary_html(record),
                figure=stat(record.headline) if record.headline else None,
            )
        )
    return result


def listing_context(records: list[Contribution], links: Links, layout: str, filterable: bool) -> dict[str, Any]:
    """What ``contributions/listing.html`` gets (and the tag and project pages, which include it)."""
    return {
        "entries": entries(records, links),
        "layout": layout,
        "filterable": filterable,
        "headings": table_headings(),
        "tag_badge_classes": " ".join(tag_classes()),
        "tr": _,
    }


def render_listing_html(
    templates: BuiltinTemplateLoader, records: list[Contribution], links: Links, options: dict[str, object]
) -> str:
    layout = str(options.get("layout", "table"))
    return render_html(
        templates, LISTING_TEMPLATE, listing_context(records, links, layout, bool(options.get("filter")))
    )


class Renderer:
    """Builds listing nodes for one page of one builder (those without HTML templates); links are
    relative to that page."""

    def __init__(self, builder: Builder, fromdoc: str) -> None:
        self.links = Links(builder, fromdoc)

    def link(self, target: str, *children: nodes.Node, classes: Iterable[str] = ()) -> nodes.Node:
        uri = self.links.page(target)
        if uri is None:
            return nodes.inline("", "", *children, classes=list(classes))
        return nodes.reference("", "", *children, internal=True, refuri=uri, classes=list(classes))

    def title_link(self, record: Contribution) -> nodes.Node:
        uri = self.links.document(record.docname)  # in a book too: a reference to the write-up's chapter
        if uri is None:
            return nodes.inline("", "", nodes.Text(record.title), classes=["contrib-title-link"])
        return nodes.reference(
            "", "", nodes.Text(record.title), internal=True, refuri=uri, classes=["contrib-title-link"]
        )

    def pr_link(self, record: Contribution) -> nodes.reference:
        return nodes.reference("", f"#{record.pr}", refuri=record.pr_url, classes=["contrib-pr-link"])

    def project_link(self, record: Contribution) -> nodes.Node:
        return self.link(record.project_page, nodes.Text(record.display_project), classes=["contrib-project"])

    def tags(self, record: Contribution) -> nodes.paragraph:
        paragraph = nodes.paragraph(classes=["contrib-tags"])
        for i, tag in enumerate(record.tags):
            if i:
                paragraph += nodes.Text(" ")
            paragraph += self.link(record.tag_page(tag), tag_badge(tag), classes=[f"contrib-facet-tag-{slugify(tag)}"])
        return paragraph

    def table(self, records: list[Contribution]) -> nodes.table:
        headings = table_headings()
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
            row = nodes.row(classes=item_classes(record))
            cells: list[list[nodes.Node]] = [
                [nodes.paragraph("", "", self.project_link(record))],
                [nodes.paragraph("", "", self.pr_link(record))],
                [nodes.paragraph("", "", self.title_link(record))],
                [nodes.paragraph("", "", *summary_nodes(record))],
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
            item = create_component("grid-item", ["sd-col", "sd-d-flex-row", *item_classes(record)])
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
            body += nodes.paragraph("", "", *summary_nodes(record), classes=["contrib-summary"])
            if record.headline:
                body += nodes.paragraph(text=metric_brief(record.headline), classes=["contrib-key-metric"])
            if record.tags:
                body += self.tags(record)
            card += body
            item += card
            row += item
        return grid

    def proof(self, records: list[Contribution]) -> nodes.bullet_list:
        """One line per record: its project, pull request, state and headline figure (or its title)."""
        items = nodes.bullet_list(classes=["contrib-proof"])
        for record in records:
            line = nodes.paragraph()
            line += self.project_link(record)
            line += nodes.Text(" ")
            line += self.pr_link(record)
            if record.status:
                line += nodes.Text(f" ({state_label(record.status)})")
            line += nodes.Text(": ")
            if record.headline is not None:
                shown = stat(record.headline)
                line += nodes.Text(f"{shown.label}, {shown.values} ({shown.change}) · ")
            line += self.title_link(record)
            items += nodes.list_item("", line, classes=item_classes(record))
        return items

    def render(self, records: list[Contribution], options: dict[str, object]) -> nodes.Node:
        if not records:
            return nodes.paragraph(text=empty_text(), classes=["contrib-empty"])
        layout = options.get("layout")
        built = (
            self.cards(records)
            if layout == "cards"
            else self.proof(records)
            if layout == "proof"
            else self.table(records)
        )
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
    records = get_domain(app.env).published()
    templates = templates_of(app.builder)
    links = Links(app.builder, docname)
    renderer = Renderer(app.builder, docname)
    for node in nodes_found:
        options = _node_options(node)
        chosen = select(records, options)
        if templates is not None:
            html = render_listing_html(templates, chosen, links, options)
            node.replace_self(nodes.raw("", html, format="html"))
        else:
            node.replace_self(renderer.render(chosen, options))


def setup_listing_render(app: Sphinx) -> None:
    app.add_node(cn.contribution_list)
    app.connect("doctree-resolved", resolve_listings)
