"""The header block at the top of a write-up, built at write time from the page's record, per builder.

It shows the project, the PR and issue links, the state badge (only when a state is stated), the
summary, the tags and the page's metrics in brief. Site builders render it from the template
``contributions/header.html`` (a site overrides it from its ``templates_path``); singlehtml and the ePub
get it as a card of sphinx-design nodes; the builders that write no HTML get the same facts as a field
list, which LaTeX frames (``sphinxShadowBox``) and text, man and Texinfo write as text. Links to the
generated project and tag pages are :class:`~sphinx_contributions.nodes.page_link` nodes, resolved for
the builder at write time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx_design.badges_buttons import create_bdg_classes, sd_badge
from sphinx_design.shared import create_component

from .. import nodes as cn
from ..builders import is_site_builder, writes_html
from ..domain import get_domain
from ..i18n import _
from ..model import Contribution, Metric
from .links import Links
from .summary import summary_html, summary_nodes
from .templates import render_html, templates_of

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.latex import LaTeXTranslator
    from sphinx.writers.texinfo import TexinfoTranslator

#: the template of the header on site builders
HEADER_TEMPLATE = "contributions/header.html"
#: the template of the end of a write-up on site builders (its actions again, the way back to the list)
END_TEMPLATE = "contributions/end.html"

#: sphinx-design colour of each state's badge; the site's CSS refines them (merged in violet …)
STATE_COLOURS = {"merged": "primary", "open": "warning", "closed": "secondary", "draft": "danger"}


def state_label(status: str) -> str:
    """The state as shown on a badge (its class keeps the English keyword)."""
    labels = {"merged": _("merged"), "open": _("open"), "closed": _("closed"), "draft": _("draft")}
    return labels[status]


def state_classes(status: str) -> list[str]:
    """The classes of a state's badge (sphinx-design's colour, then the site's own)."""
    return [*create_bdg_classes(STATE_COLOURS[status], outline=False), "contrib-state", f"contrib-state-{status}"]


def tag_classes() -> list[str]:
    """The classes of a tag's badge."""
    return [*create_bdg_classes("secondary", outline=True), "contrib-tag"]


def state_badge(status: str) -> sd_badge:
    label = state_label(status)
    return sd_badge(label, label, classes=state_classes(status))


def tag_badge(tag: str) -> sd_badge:
    return sd_badge(tag, tag, classes=tag_classes())


def metric_brief(metric: Metric) -> str:
    unit = f" {metric.unit}" if metric.unit else ""
    return f"{metric.label}: {metric.before_text}{unit} → {metric.after_text}{unit} ({metric.change_words(_)})"


def forge_words(record: Contribution) -> list[str]:
    """What the lock (``contributions sync``) adds to the header: "merged on DATE", "first shipped in vX"."""
    found = record.forge
    words = []
    if found is not None and found.state == "merged" and found.merged_on:
        words.append(_("merged on %(date)s") % {"date": found.merged_on})
    if found is not None and found.first_release:
        words.append(_("first shipped in %(release)s") % {"release": found.first_release[0]})
    return words


@dataclass(frozen=True)
class Stat:
    """A figure as a stat shows it (the header's stat row, a ``proof`` listing): the values in large type,
    the label and the change in words beside them."""

    label: str
    before: str  # the value as written, with its unit
    after: str
    change: str
    verdict: str  # better, worse, same, held, not-held (a class of the stat)

    @property
    def values(self) -> str:
        return f"{self.before} → {self.after}"


def stat(metric: Metric) -> Stat:
    unit = f" {metric.unit}" if metric.unit else ""
    return Stat(
        label=metric.label,
        before=metric.before_text + unit,
        after=metric.after_text + unit,
        change=metric.change_words(_),
        verdict=metric.verdict,
    )


def _link(url: str, *children: nodes.Node, classes: list[str]) -> nodes.reference:
    return nodes.reference("", "", *children, refuri=url, classes=classes)


def build_header(record: Contribution) -> list[nodes.Node]:
    body = create_component("card-body", ["sd-card-body"])
    meta = nodes.paragraph(classes=["contrib-header-meta"])
    meta += cn.page_link("", record.display_project, target=record.project_page, classes=["contrib-project"])
    meta += nodes.Text(" · ")
    meta += _link(record.pr_url, nodes.Text(_("PR #%(number)s") % {"number": record.pr}), classes=["contrib-pr-link"])
    if record.issues:
        meta += nodes.Text(" · " + (_("issue") if len(record.issues) == 1 else _("issues")) + " ")
        for i, (number, url) in enumerate(zip(record.issues, record.issue_urls, strict=True)):
            if i:
                meta += nodes.Text(", ")
            meta += _link(url, nodes.Text(f"#{number}"), classes=["contrib-issue-link"])
    if record.status:
        meta += nodes.Text(" ")
        meta += state_badge(record.status)
    if record.date:
        meta += nodes.Text(" · ")
        meta += nodes.inline(record.date, record.date, classes=["contrib-date"])
    body += meta
    if forge_words(record):
        text = " · ".join(forge_words(record))
        body += nodes.paragraph(text, text, classes=["contrib-forge-facts"])
    body += nodes.paragraph(record.summary, "", *summary_nodes(record), classes=["contrib-summary"])
    if record.tags:
        tags = nodes.paragraph(classes=["contrib-tags"])
        label = _("Tags:")
        tags += nodes.inline(label, label, classes=["contrib-tags-label"])
        for tag in record.tags:
            tags += nodes.Text(" ")
            tags += cn.page_link("", "", tag_badge(tag), target=record.tag_page(tag))
        body += tags
    if record.metrics:
        brief = nodes.bullet_list(classes=["contrib-metrics-brief"])
        for metric in record.metrics:
            brief += nodes.list_item("", nodes.paragraph(text=metric_brief(metric)))
        body += brief
    card = create_component("card", ["sd-card", "sd-sphinx-override", "sd-mb-3", "sd-shadow-sm", "contrib-header-card"])
    card += body
    return [*draft_banner(record), card]


def draft_banner(record: Contribution) -> list[nodes.Node]:
    """The banner above a draft's header (none on other pages)."""
    if record.status != "draft":
        return []
    banner = nodes.admonition(classes=["contrib-draft-banner", "warning"])
    banner += nodes.title(_("Draft"), _("Draft"))
    banner += nodes.paragraph(
        text=_("This write-up is a draft: it is built for preview and left out of the published site.")
    )
    return [banner]


@dataclass(frozen=True)
class Tag:
    """A tag as a template shows it: its name, slug (class names) and the link to its page."""

    name: str
    slug: str
    url: str


def tag_links(record: Contribution, links: Links) -> tuple[Tag, ...]:
    pairs = zip(record.tags, record.tag_slugs, strict=True)
    return tuple(Tag(tag, slug, links.href(record.tag_page(tag))) for tag, slug in pairs)


def actions(record: Contribution) -> list[dict[str, object]]:
    """The write-up's links to its forge as actions: the pull request, then each issue."""
    found: list[dict[str, object]] = [
        {"text": _("Pull request #%(number)s") % {"number": record.pr}, "url": record.pr_url, "primary": True}
    ]
    for number, url in zip(record.issues, record.issue_urls, strict=True):
        found.append({"text": _("Issue #%(number)s") % {"number": number}, "url": url, "primary": False})
    return found


def header_context(record: Contribution, links: Links) -> dict[str, Any]:
    """What ``contributions/header.html`` gets (see the template's first comment)."""
    status = record.status
    return {
        "record": record,
        "summary_html": summary_html(record),
        "project_url": links.href(record.project_page),
        "actions": actions(record),
        "state": state_label(status) if status else "",
        "state_classes": " ".join(state_classes(status)) if status else "",
        "tags": tag_links(record, links),
        "tags_label": _("Tags:"),
        "tag_badge_classes": " ".join(tag_classes()),
        "stats": [stat(metric) for metric in record.metrics],
        "forge_facts": forge_words(record),
        "stats_label": _("Figures"),
        "tr": _,
    }


def end_context(app: Sphinx, docname: str, record: Contribution) -> dict[str, Any]:
    """What ``contributions/end.html`` gets (see the template's first comment)."""
    index = app.config.contributions_index
    has_index = index in app.env.found_docs
    return {
        "actions": actions(record),
        "index_url": app.builder.get_relative_uri(docname, index) if has_index else None,
        "index_text": _("All contributions"),
        "end_label": _("After this write-up"),
        "tr": _,
    }


def _field(name: str, *body: nodes.Node) -> nodes.field:
    content = [nodes.paragraph("", "", *body)] if all(isinstance(n, (nodes.Text, nodes.Inline)) for n in body) else body
    return nodes.field("", nodes.field_name(name, name), nodes.field_body("", *content))


def build_book_header(record: Contribution) -> list[nodes.Node]:
    """The header's facts for builders that write no HTML, as a field list: the project, repository,
    pull request, issues, state, date, tags, summary and the figures in brief."""
    facts = nodes.field_list(classes=["contrib-header-facts"])
    facts += _field(
        _("Project"), cn.page_link("", record.display_project, target=record.project_page, classes=["contrib-project"])
    )
    facts += _field(_("Repository"), _link(record.repo_url, nodes.Text(record.repo), classes=["contrib-repo-link"]))
    facts += _field(_("Pull request"), _link(record.pr_url, nodes.Text(f"#{record.pr}"), classes=["contrib-pr-link"]))
    if record.issues:
        links: list[nodes.Node] = []
        for number, url in zip(record.issues, record.issue_urls, strict=True):
            if links:
                links.append(nodes.Text(", "))
            links.append(_link(url, nodes.Text(f"#{number}"), classes=["contrib-issue-link"]))
        facts += _field(_("Issue") if len(record.issues) == 1 else _("Issues"), *links)
    if record.status:
        facts += _field(_("State"), nodes.Text(state_label(record.status)))
    if record.date:
        facts += _field(_("Date"), nodes.Text(record.date))
    if forge_words(record):
        facts += _field(_("Upstream"), nodes.Text(", ".join(forge_words(record))))
    if record.tags:
        facts += _field(_("Tags"), nodes.Text(", ".join(record.tags)))
    facts += _field(_("Summary"), *summary_nodes(record))
    if record.metrics:
        brief = nodes.bullet_list(classes=["contrib-metrics-brief"])
        for metric in record.metrics:
            brief += nodes.list_item("", nodes.paragraph(text=metric_brief(metric)))
        facts += _field(_("Figures"), brief)
    return [*draft_banner(record), facts]


def render_headers(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: fill each ``contribution_header`` with its block, from the page's record:
    on site builders from the template ``contributions/header.html`` (one raw HTML node), with the
    breadcrumb above the page's title and ``contributions/end.html`` after the last section; elsewhere
    as nodes (before :mod:`.links` resolves their links to tag and project pages)."""
    domain = get_domain(app.env)
    templates = templates_of(app.builder)
    links = Links(app.builder, docname)
    for node in list(doctree.findall(cn.contribution_header)):
        record = domain.contributions.get(node["docname"])
        if record is None or node.children:
            continue
        if templates is None:
            node.extend(build_header(record) if writes_html(app.builder) else build_book_header(record))
            if is_site_builder(app.builder):
                node.insert(0, breadcrumb(app, docname, record))
            continue
        html = render_html(templates, HEADER_TEMPLATE, header_context(record, links))
        node.extend([*draft_banner(record), nodes.raw("", html, format="html")])
        # the page's top: a link to #contribution lands with the title in view (see contributions.css)
        node["classes"].append("contrib-header-top")
        section = node.parent
        if isinstance(section, nodes.section):
            title = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), 0)
            section.insert(title, breadcrumb(app, docname, record))
            end = render_html(templates, END_TEMPLATE, end_context(app, docname, record))
            section.append(nodes.raw("", end, format="html"))


def breadcrumb(app: Sphinx, docname: str, record: Contribution) -> nodes.paragraph:
    """ "Contributions › project": the way back to the list and to the write-up's project page."""
    trail = nodes.paragraph(classes=["contrib-breadcrumb"])
    index = app.config.contributions_index
    if index in app.env.found_docs:
        title = app.env.titles[index].astext()
        uri = app.builder.get_relative_uri(docname, index)
        trail += nodes.reference("", title, internal=True, refuri=uri, classes=["contrib-breadcrumb-list"])
        trail += nodes.inline(" › ", " › ", classes=["contrib-breadcrumb-sep"])
    trail += cn.page_link("", record.display_project, target=record.project_page, classes=["contrib-project"])
    return trail


def _visit_container(self: nodes.NodeVisitor, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "div", CLASS="contrib-header"))  # type: ignore[attr-defined]


def _depart_container(self: nodes.NodeVisitor, node: nodes.Element) -> None:
    self.body.append("</div>\n")  # type: ignore[attr-defined]


def _visit_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    """A framed box, with a label for each of the header's ids (``{contrib}`` links point at it)."""
    self.in_minipage += 1
    self.body.append("\n" + self.hypertarget_to(node, anchor=True) + "\n\\begin{sphinxShadowBox}\n")


def _depart_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    self.in_minipage -= 1
    self.body.append("\\end{sphinxShadowBox}\n")


def _visit_texinfo(self: TexinfoTranslator, node: nodes.Element) -> None:
    for node_id in node["ids"]:
        self.add_anchor(node_id, node)


def _pass(self: nodes.NodeVisitor, node: nodes.Element) -> None:
    """Text and man render the header's children only."""


def setup_header(app: Sphinx) -> None:
    passthrough = (_pass, _pass)
    app.add_node(
        cn.contribution_header,
        html=(_visit_container, _depart_container),
        latex=(_visit_latex, _depart_latex),
        texinfo=(_visit_texinfo, _pass),
        text=passthrough,
        man=passthrough,
    )
    app.connect("doctree-resolved", render_headers, priority=400)
