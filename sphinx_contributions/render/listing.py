"""Listings rendered at write time from the domain's records (:func:`entry`): with the templates on site builders (one
raw node), as docutils nodes elsewhere (:class:`Renderer`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes
from markupsafe import Markup

from .. import nodes as cn
from ..collect.domain import get_domain, holds_own_nodes
from ..i18n import _
from ..keys import slugify
from ..queries import select
from ..records import Contribution
from .header import TAG_CLASSES, Stat, Tag, badge, link_node, row_node, stat, state, table_node, tag_links
from .links import Links
from .summary import inline_html, inline_nodes
from .templates import render_html, templates_of

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.jinja2glue import BuiltinTemplateLoader


#: the template of a listing; it includes ``listing_<layout>.html``
LISTING_TEMPLATE = "contributions/listing.html"
#: a filterable listing below ``contributions_filter_min``: controls only when the address asks (``?tag=…``)
FILTER_QUIET = "contrib-filter-quiet"


def table_headings() -> tuple[str, ...]:
    """The column headings of a listing table, translated."""
    return (_("Project"), _("PR"), _("Contribution"), _("Impact"), _("State"), _("Key metric"))


@dataclass(frozen=True)
class Entry:
    """What a listing shows of one record, links relative to the page (``#``: itself; ``None``: not written)."""

    record: Contribution
    url: str | None
    project_url: str | None
    tags: tuple[Tag, ...]
    classes: str
    state: str  # the state's label; "" when not stated
    state_classes: str
    brief: str  # the first figure in brief; "" when there is none
    figure: Stat | None  # the headline figure as a stat (a ``proof`` listing shows it); None when none
    #: the headline figure's change in words where it says more than the values (``≈54,000× lower``)
    figure_change: str = ""

    @property
    def summary_html(self) -> Markup:
        """The summary's inline markup as HTML (``record.summary`` is its plain text)."""
        return inline_html(self.record.summary_inline)

    @property
    def impact_html(self) -> Markup:
        """The impact sentence's inline markup as HTML; empty when the write-up gives none."""
        return inline_html(self.record.impact_inline)

    @property
    def description_html(self) -> Markup:
        """What a card or a table's row says of the write-up: its impact sentence, else its summary."""
        return inline_html(self.record.description_inline)


def entry(record: Contribution, links: Links) -> Entry:
    shown = state(record.status)
    figure = stat(record.headline) if record.headline else None
    url = links.document(record.docname)
    return Entry(
        record=record,
        url="#" if url == "" else url,  # "": the page itself
        project_url=links.project_href(record.project_page, record.display_project),
        tags=tag_links(record, links),
        # facet data for the filter script, as classes (no markup of our own needed)
        classes=" ".join(
            [
                "contrib-item",
                f"contrib-project--{slugify(record.display_project)}",
                f"contrib-status--{record.status or 'unstated'}",
                *(f"contrib-tag--{slug}" for slug in record.tag_slugs),
            ]
        ),
        state=shown.label if shown else "",
        state_classes=shown.classes if shown else "",
        brief=figure.brief if figure else "",
        figure=figure,
        figure_change=figure.telling if figure else "",  # worked out once, in the stat
    )


def listing_context(
    records: list[Contribution], links: Links, layout: str, filterable: bool, filter_quiet: bool = False
) -> dict[str, Any]:
    """What ``contributions/listing.html`` gets (and the tag and project pages, which include it)."""
    return {
        "entries": [entry(record, links) for record in records],
        "layout": layout,
        "filterable": filterable,
        "filter_quiet": filter_quiet,
        "headings": table_headings(),
        "tag_badge_classes": TAG_CLASSES,
        "tr": _,
    }


def render_listing_html(
    templates: BuiltinTemplateLoader, records: list[Contribution], links: Links, options: dict[str, object]
) -> str:
    layout = str(options.get("layout", "table"))
    filterable, quiet = bool(options.get("filter")), bool(options.get("filter_quiet"))
    return render_html(templates, LISTING_TEMPLATE, listing_context(records, links, layout, filterable, quiet))


class Renderer:
    """Writes a listing's entries as nodes for one page of a builder without the HTML templates."""

    def __init__(self, builder: Builder, fromdoc: str) -> None:
        self.links = Links(builder, fromdoc)

    def entries(self, records: Iterable[Contribution]) -> list[Entry]:
        return [entry(record, self.links) for record in records]

    def title_link(self, shown: Entry) -> nodes.Element:
        # in a book too: a reference to the write-up's chapter
        return link_node(shown.record.title, shown.url, classes=["contrib-title-link"])

    def pr_link(self, shown: Entry) -> nodes.Element:
        record = shown.record
        return link_node(f"#{record.pr}", record.pr_url, classes=["contrib-pr-link"], internal=False)

    def project_link(self, shown: Entry) -> nodes.Element:
        return link_node(shown.record.display_project, shown.project_url, classes=["contrib-project"])

    def state_badge(self, shown: Entry) -> nodes.Element:
        return badge(shown.state, shown.state_classes)

    def tags(self, shown: Entry) -> nodes.paragraph:
        paragraph = nodes.paragraph(classes=["contrib-tags"])
        for i, tag in enumerate(shown.tags):
            if i:
                paragraph += nodes.Text(" ")
            classes = [f"contrib-facet-tag-{tag.slug}"]
            if tag.url is None:
                paragraph += nodes.inline("", "", badge(tag.name, TAG_CLASSES), classes=classes)
            else:
                link = nodes.reference("", "", badge(tag.name, TAG_CLASSES), internal=True, refuri=tag.url)
                link["classes"] = classes
                paragraph += link
        return paragraph

    def table(self, shown: list[Entry]) -> nodes.table:
        head = row_node([[nodes.paragraph(text=heading)] for heading in table_headings()])
        rows = []
        for item in shown:
            cells: list[list[nodes.Node]] = [
                [nodes.paragraph("", "", self.project_link(item))],
                [nodes.paragraph("", "", self.pr_link(item))],
                [nodes.paragraph("", "", self.title_link(item))],
                [nodes.paragraph("", "", *inline_nodes(item.record.description_inline))],
                [nodes.paragraph("", "", self.state_badge(item))] if item.state else [],
                [nodes.paragraph(text=item.brief)] if item.brief else [],
            ]
            rows.append(row_node(cells, item.classes.split()))
        return table_node(["contrib-table"], (10, 8, 22, 36, 8, 16), rows, head)

    def cards(self, shown: list[Entry]) -> nodes.Node:
        grid = nodes.container(classes=["contrib-cards"])
        for item in shown:
            card = nodes.container(classes=["contrib-card", *item.classes.split()])
            body = nodes.container(classes=["contrib-card-body"])
            # the title a bold paragraph of its own in every output (a class alone is nothing in LaTeX or text)
            title = nodes.container(classes=["contrib-card-title"])
            title += nodes.paragraph("", "", nodes.strong("", "", self.title_link(item)))
            body += title
            meta = nodes.paragraph(classes=["contrib-header-meta"])
            meta += self.project_link(item)
            meta += nodes.Text(" · ")
            meta += self.pr_link(item)
            if item.state:
                meta += nodes.Text(" ")
                meta += self.state_badge(item)
            body += meta
            body += nodes.paragraph("", "", *inline_nodes(item.record.description_inline), classes=["contrib-summary"])
            if item.brief:
                body += nodes.paragraph(text=item.brief, classes=["contrib-key-metric"])
            if item.tags:
                body += self.tags(item)
            card += body
            grid += card
        return grid

    def lines(self, shown: list[Entry]) -> nodes.bullet_list:
        """One line per record: its title (the link to the write-up) and its pull request."""
        items = nodes.bullet_list(classes=["contrib-lines"])
        for item in shown:
            line = nodes.paragraph()
            line += self.title_link(item)
            line += nodes.Text(" · ")
            line += self.pr_link(item)
            items += nodes.list_item("", line, classes=item.classes.split())
        return items

    def proof(self, shown: list[Entry]) -> nodes.bullet_list:
        """One line per record: its project, pull request, state, title, impact and headline figure."""
        items = nodes.bullet_list(classes=["contrib-proof"])
        for item in shown:
            line = nodes.paragraph()
            line += self.project_link(item)
            line += nodes.Text(" ")
            line += self.pr_link(item)
            if item.state:
                line += nodes.Text(f" ({item.state})")
            line += nodes.Text(": ")
            line += self.title_link(item)
            line += nodes.Text(". ")
            line += inline_nodes(item.record.description_inline)
            if item.figure is not None:
                figure = item.figure
                change = f" ({item.figure_change})" if item.figure_change else ""
                line += nodes.Text(f" ({figure.label}: {figure.values}{change})")
            items += nodes.list_item("", line, classes=item.classes.split())
        return items

    def render(self, records: list[Contribution], options: dict[str, object]) -> nodes.Node:
        if not records:
            return nodes.paragraph(text=_("No contributions match."), classes=["contrib-empty"])
        layout = options.get("layout")
        shown = self.entries(records)
        writers = {"cards": self.cards, "proof": self.proof}
        built = writers.get(str(layout), self.table)(shown)
        container = nodes.container(classes=["contrib-listing"])
        if options.get("filter"):
            container["classes"].append("contrib-filterable")
            if options.get("filter_quiet"):
                container["classes"].append(FILTER_QUIET)
        container += built
        return container


_OPTIONS = ("layout", "project", "tag", "status", "sort", "limit", "filter")


def resolve_listings(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: replace each ``contribution_list`` with its table or cards."""
    if not holds_own_nodes(app, docname):  # a page without the extension's nodes: nothing to do
        return
    nodes_found = list(doctree.findall(cn.contribution_list))
    if not nodes_found:
        return
    records = get_domain(app.env).published()
    templates = templates_of(app.builder)
    links = Links(app.builder, docname)
    renderer = Renderer(app.builder, docname)
    for node in nodes_found:
        options: dict[str, object] = {name: node[name] for name in _OPTIONS if name in node.attributes}
        chosen = select(records, options)
        # fewer write-ups than contributions_filter_min: no controls, but an address's ?tag=… applies
        least = node.get("filter_min", app.config.contributions_filter_min)
        options["filter_quiet"] = len(chosen) < least
        if templates is not None:
            html = render_listing_html(templates, chosen, links, options)
            node.replace_self(nodes.raw("", html, format="html"))
        else:
            node.replace_self(renderer.render(chosen, options))
