"""A write-up's header, from its record: :func:`header_view` decides what it shows; site builders print it with the
template ``contributions/header.html``, the others get :func:`header_nodes`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes
from markupsafe import Markup

from .. import nodes as cn
from ..builders import is_site_builder
from ..collect.domain import get_domain, holds_own_nodes
from ..forges import issue_url
from ..i18n import _
from ..records import Contribution, Inline, Metric
from .links import Links
from .summary import inline_html, inline_nodes
from .templates import render_html, templates_of

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from sphinx.application import Sphinx
    from sphinx.writers.latex import LaTeXTranslator
    from sphinx.writers.texinfo import TexinfoTranslator

HEADER_TEMPLATE = "contributions/header.html"
#: the template of the end of a write-up on site builders (its actions again, the way back to the list)
END_TEMPLATE = "contributions/end.html"

#: Sphinx's class for what its search index leaves out: navigation, the same words on every write-up
NO_SEARCH = "no-search"


def state_label(status: str) -> str:
    """The state as shown on a badge (its class keeps the English keyword)."""
    labels = {"merged": _("merged"), "open": _("open"), "closed": _("closed"), "draft": _("draft")}
    return labels[status]


#: the classes of a tag's badge
TAG_CLASSES = "contrib-badge contrib-tag"


def forge_words(record: Contribution) -> list[str]:
    """What the lock (``contributions sync``) adds to the header: "merged on DATE", "first shipped in vX"."""
    found = record.forge
    words = []
    if found is not None and found.state == "merged" and found.merged_on:
        words.append(_("merged on %(date)s") % {"date": found.merged_on})
    if found is not None and found.first_release:
        words.append(_("first shipped in %(release)s") % {"release": found.first_release[0]})
    return words


#: the facts of how a pull request was made, in the order shown (``contributions_facts`` chooses)
FACTS = ("size", "tests", "commits", "approvals", "closes", "time")


@dataclass(frozen=True)
class Fact:
    """One fact of how the pull request was made (one of :data:`FACTS`): its words, its link, its separator."""

    name: str
    text: str
    url: str
    separator: str = " · "


def _count(number: int, one: str, many: str) -> str:
    """``one`` for 1, else ``many`` with the number (each a literal ``tr(…)``, for the catalog's extraction)."""
    return one if number == 1 else many % {"count": number}


def _after(opened: str, merged: str, tr: Callable[[str], str]) -> str:
    """ "merged after 6 days" (hours under two days, minutes under an hour)."""
    from datetime import datetime

    seconds = (datetime.fromisoformat(merged) - datetime.fromisoformat(opened)).total_seconds()
    if seconds < 3600:
        took = _count(max(1, int(seconds // 60)), tr("1 minute"), tr("%(count)s minutes"))
    elif seconds < 2 * 86400:
        took = _count(int(seconds // 3600), tr("1 hour"), tr("%(count)s hours"))
    else:
        took = _count(int(seconds // 86400), tr("1 day"), tr("%(count)s days"))
    return tr("merged after %(time)s") % {"time": took}


def made_facts(record: Contribution, shown: Sequence[str] = FACTS, tr: Callable[[str], str] = _) -> tuple[Fact, ...]:
    """How ``record``'s pull request was made, those of ``shown``, each linked to its forge's page ("+42 −3 in 3 files ·
    1 approval"); a lower bound says "at least"; ``tr`` translates."""
    from ..forges import forge_of
    from ..lock import is_test

    found = record.forge
    if found is None:
        return ()
    forge = forge_of(record.repo)
    files_url, commits_url = record.pr_url + forge.files_tab, record.pr_url + forge.commits_tab
    facts: list[Fact] = []
    count = found.changed_files
    if count is None and found.files is not None and not found.files_at_least:
        count = len(found.files)
    if "size" in shown and (found.additions is not None or count is not None):
        files = ""
        if count is not None:
            files = _count(count, tr("1 file"), tr("%(count)s files"))
            files = tr("at least %(files)s") % {"files": files} if found.files_at_least else files
        if found.additions is not None and found.deletions is not None:
            lines = f"+{found.additions} −{found.deletions}"
            text = tr("%(lines)s in %(files)s") % {"lines": lines, "files": files} if files else lines
        else:
            text = files
        facts.append(Fact("size", text, files_url))
    if "tests" in shown and found.files is not None:
        tests = sum(is_test(path) for path in found.files)
        whole = not found.files_at_least and (count is None or len(found.files) >= count)
        if whole or tests:
            if not tests:
                text = tr("none of them tests")
            else:
                text = _count(tests, tr("1 of them a test"), tr("%(count)s of them tests"))
                text = text if whole else tr("at least %(files)s") % {"files": text}
            facts.append(Fact("tests", text, files_url, ", " if facts and facts[-1].name == "size" else " · "))
    if "commits" in shown and found.commits is not None:
        facts.append(Fact("commits", _count(found.commits, tr("1 commit"), tr("%(count)s commits")), commits_url))
    if "approvals" in shown and found.approvals is not None:
        text = _count(found.approvals, tr("1 approval"), tr("%(count)s approvals")) if found.approvals else ""
        facts.append(Fact("approvals", text or tr("no approvals"), record.pr_url))
    if "closes" in shown and found.closes:
        for i, number in enumerate(found.closes):
            text = (tr("closes #%(number)s") if not i else "#%(number)s") % {"number": number}
            facts.append(Fact("closes", text, issue_url(record.repo, number), ", " if i else " · "))
    if "time" in shown and found.state == "merged" and found.opened_at and found.merged_at:
        facts.append(Fact("time", _after(found.opened_at, found.merged_at, tr), record.pr_url))
    return tuple(facts)


@dataclass(frozen=True)
class Stat:
    """A figure as a stat shows it: the values in large type, the label and the change in words beside them."""

    label: str
    before: str  # the value as written, with its unit
    after: str
    change: str
    verdict: str  # better, worse, same, held, not-held (a class of the stat)
    #: a no-regression check (``:expect: hold``): shown as a check, not as a headline
    check: bool = False
    #: the two values are equal (``196 → 196``)
    same: bool = False
    #: the change where it adds to the values (:meth:`.Metric.telling_change`), as a listing shows it
    telling: str = ""

    @property
    def values(self) -> str:
        return f"{self.before} → {self.after}"

    @property
    def shown(self) -> tuple[str, ...]:
        """The values, each kept whole: before and after, or a held check's one value (``196``)."""
        return (self.after,) if self.check and self.same else (self.before, self.after)

    @property
    def brief(self) -> str:
        """The figure in one line (a listing's table and cards, a card image)."""
        return f"{self.label}: {self.values} ({self.change})" if self.change else f"{self.label}: {self.values}"


def stat(metric: Metric) -> Stat:
    unit = f" {metric.unit}" if metric.unit else ""
    telling = metric.telling_change(_)
    return Stat(
        label=metric.label,
        before=metric.before_text + unit,
        after=metric.after_text + unit,
        # a check says "held" beside its mark; any other figure its change where it adds to the values
        change=metric.change_words(_) if metric.expect == "hold" else telling,
        verdict=metric.verdict,
        check=metric.expect == "hold",
        same=metric.before == metric.after,
        telling=telling,
    )


@dataclass(frozen=True)
class State:
    """A state's badge: its words, its classes (space-separated) and the keyword it stands for."""

    label: str
    classes: str
    status: str


def state(status: str | None) -> State | None:
    return State(state_label(status), f"contrib-badge contrib-state contrib-state-{status}", status) if status else None


@dataclass(frozen=True)
class Tag:
    """A tag as shown: its name, slug and link (``None`` where the builder writes no tag pages)."""

    name: str
    slug: str
    url: str | None


def tag_links(record: Contribution, links: Links) -> tuple[Tag, ...]:
    pairs = zip(record.tags, record.tag_slugs, strict=True)
    return tuple(Tag(tag, slug, links.tag_href(record.tag_page(tag), slug)) for tag, slug in pairs)


@dataclass(frozen=True)
class Action:
    """A link of the write-up to its forge, shown as a button: the pull request (``primary``), an issue."""

    text: str
    url: str
    primary: bool


def actions(record: Contribution) -> tuple[Action, ...]:
    """The write-up's links to its forge as actions: the pull request, then each issue."""
    found = [Action(_("Pull request #%(number)s") % {"number": record.pr}, record.pr_url, True)]
    for number, url in zip(record.issues, record.issue_urls, strict=True):
        found.append(Action(_("Issue #%(number)s") % {"number": number}, url, False))
    return tuple(found)


@dataclass(frozen=True)
class HeaderView:
    """What a write-up's header shows, in its order: the one answer every builder prints."""

    record: Contribution
    project: str
    project_url: str | None  # None where the builder writes no project pages
    repo: str
    repo_url: str
    state: State | None  # None when no state is stated
    date: str
    forge_facts: tuple[str, ...]
    #: how the pull request was made (:func:`made_facts`), the quiet line under the meta line
    made: tuple[Fact, ...]
    summary: tuple[Inline, ...]  # the summary's inline markup (``record.summary`` is its plain text)
    stats: tuple[Stat, ...]  # the headline figure (none when the page has no figure)
    stats_label: str
    actions: tuple[Action, ...]
    tags: tuple[Tag, ...]
    tags_label: str
    tag_badge_classes: str

    @property
    def summary_html(self) -> Markup:
        return inline_html(self.summary)


def header_view(record: Contribution, links: Links, facts: Sequence[str] = FACTS) -> HeaderView:
    """What the header of ``record`` shows, linked from the page written; ``facts``: ``contributions_facts``."""
    return HeaderView(
        record=record,
        project=record.display_project,
        project_url=links.project_href(record.project_page, record.display_project),
        repo=record.repo,
        repo_url=record.repo_url,
        state=state(record.status),
        date=record.date or "",
        forge_facts=tuple(forge_words(record)),
        made=made_facts(record, facts),
        summary=record.summary_inline,
        stats=(stat(record.headline),) if record.headline else (),
        stats_label=_("Figures"),
        actions=actions(record),
        tags=tag_links(record, links),
        tags_label=_("Tags:"),
        tag_badge_classes=TAG_CLASSES,
    )


def header_context(view: HeaderView) -> dict[str, Any]:
    """What ``contributions/header.html`` gets: the view as ``header``, and its parts under their older names."""
    return {
        "header": view,
        "record": view.record,
        "summary_html": view.summary_html,
        "project_url": view.project_url,
        "actions": view.actions,
        "state": view.state.label if view.state else "",
        "state_classes": view.state.classes if view.state else "",
        "tags": view.tags,
        "tags_label": view.tags_label,
        "tag_badge_classes": view.tag_badge_classes,
        "stats": view.stats,
        "forge_facts": view.forge_facts,
        "stats_label": view.stats_label,
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


# -- the one node form: every builder without the site's templates ---------------------------------


def link_node(text: str, url: str | None, *, classes: list[str], internal: bool = True) -> nodes.Element:
    """A link to ``url`` with ``text``; the text alone where there is no link (``url`` is ``None``)."""
    if url is None:
        return nodes.inline(text, text, classes=classes)
    if internal:
        return nodes.reference(text, text, internal=True, refuri=url, classes=classes)
    return nodes.reference(text, text, refuri=url, classes=classes)


def badge(text: str, classes: str) -> nodes.inline:
    return nodes.inline(text, text, classes=classes.split())


def stat_values(shown: Stat) -> nodes.inline:
    """A stat's values, each value a span of its own that is never broken across lines (the site's CSS)."""
    values = nodes.inline(classes=["contrib-stat-values"])
    for i, value in enumerate(shown.shown):
        if i:
            values += nodes.Text(" → ")
        values += nodes.inline(value, value, classes=["contrib-stat-value"])
    return values


def table_node(
    classes: list[str], widths: tuple[int, ...], rows: list[nodes.row], head: nodes.row | None = None
) -> nodes.table:
    """A table of ``rows`` under ``head``, its columns ``widths`` wide (characters in text, proportions elsewhere)."""
    group = nodes.tgroup("", *(nodes.colspec(colwidth=width) for width in widths), cols=len(widths))
    if head is not None:
        group += nodes.thead("", head)
    group += nodes.tbody("", *rows)
    return nodes.table("", group, classes=classes)


def row_node(cells: list[list[nodes.Node]], classes: list[str] | None = None) -> nodes.row:
    """A table row of ``cells``, each a list of the nodes in it."""
    return nodes.row("", *(nodes.entry("", *cell) for cell in cells), classes=classes or [])


def stat_rows(stats: tuple[Stat, ...]) -> nodes.table:
    """The figures as rows of a small table: the label, the values before → after, the change in words."""
    rows = []
    for shown in stats:
        kind = ["contrib-stat-check"] if shown.check else []
        change = nodes.inline(shown.change, shown.change, classes=["contrib-stat-change"])
        cells: list[list[nodes.Node]] = [
            [nodes.paragraph(shown.label, shown.label, classes=["contrib-stat-label"])],
            [nodes.paragraph("", "", stat_values(shown))],
            [nodes.paragraph("", "", change)],
        ]
        rows.append(row_node(cells, ["contrib-stat", f"contrib-stat-{shown.verdict}", *kind]))
    return table_node(["contrib-stats", "colwidths-given"], (28, 26, 16), rows)  # "given": the book's full width


def header_nodes(view: HeaderView) -> list[nodes.Node]:
    """The header of ``view`` as docutils nodes, the parts in the template's order."""
    body = nodes.container(classes=["contrib-card-body"])
    meta = nodes.paragraph(classes=["contrib-header-meta"])
    meta += link_node(view.project, view.project_url, classes=["contrib-project"])
    meta += nodes.Text(" · ")
    meta += link_node(view.repo, view.repo_url, classes=["contrib-repo-link"], internal=False)
    if view.state:
        meta += nodes.Text(" ")
        meta += badge(view.state.label, view.state.classes)
    if view.date:
        meta += nodes.Text(" · ")
        meta += nodes.inline(view.date, view.date, classes=["contrib-date"])
    body += meta
    if view.forge_facts:
        text = " · ".join(view.forge_facts)
        body += nodes.paragraph(text, text, classes=["contrib-forge-facts"])
    if view.made:
        made = nodes.paragraph(classes=["contrib-made"])
        for i, fact in enumerate(view.made):
            if i:
                made += nodes.Text(fact.separator)
            made += link_node(fact.text, fact.url, classes=[f"contrib-made-{fact.name}"], internal=False)
        body += made
    body += nodes.paragraph("", "", *inline_nodes(view.summary), classes=["contrib-summary"])
    if view.stats:
        body += stat_rows(view.stats)
    buttons = nodes.paragraph(classes=["contrib-actions"])
    for i, action in enumerate(view.actions):
        if i:  # a separator in words; the site's CSS spaces its buttons instead
            buttons += nodes.inline(" · ", " · ", classes=["contrib-separator"])
        kind = ["contrib-button-primary", "contrib-pr-link"] if action.primary else ["contrib-issue-link"]
        buttons += link_node(action.text, action.url, classes=["contrib-button", *kind], internal=False)
    body += buttons
    if view.tags:
        tags = nodes.paragraph(classes=["contrib-tags"])
        tags += nodes.inline(view.tags_label, view.tags_label, classes=["contrib-tags-label"])
        for i, tag in enumerate(view.tags):
            # a comma in words (text, LaTeX); where the tags are drawn as chips (the ePub) the CSS hides it
            tags += nodes.Text(" ") if not i else nodes.inline(", ", ", ", classes=["contrib-separator"])
            shown = badge(tag.name, view.tag_badge_classes)
            tags += shown if tag.url is None else nodes.reference("", "", shown, internal=True, refuri=tag.url)
        body += tags
    card = nodes.container(classes=["contrib-card", "contrib-header-card"])
    card += body
    return [*draft_banner(view.record), card]


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


def render_headers(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: each header, from the templates on site builders (with breadcrumb and end), else nodes."""
    if not holds_own_nodes(app, docname):  # a page without the extension's nodes: nothing to do
        return
    domain = get_domain(app.env)
    templates = templates_of(app.builder)
    links = Links(app.builder, docname)
    for node in list(doctree.findall(cn.contribution_header)):
        record = domain.contributions.get(node["docname"])
        if record is None or node.children:
            continue
        view = header_view(record, links, app.config.contributions_facts)
        if templates is None:
            node.extend(header_nodes(view))
            if is_site_builder(app.builder):
                node.insert(0, breadcrumb(app, docname, record))
            continue
        html = render_html(templates, HEADER_TEMPLATE, header_context(view))
        node.extend([*draft_banner(record), nodes.raw("", html, format="html")])
        # the page's top: a link to #contribution lands with the title in view (see contributions.css)
        node["classes"].append("contrib-header-top")
        section = node.parent
        if isinstance(section, nodes.section):
            title = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), 0)
            section.insert(title, breadcrumb(app, docname, record))
            end = render_html(templates, END_TEMPLATE, end_context(app, docname, record))
            section.append(nodes.raw("", end, format="html", classes=[NO_SEARCH]))


def breadcrumb(app: Sphinx, docname: str, record: Contribution) -> nodes.paragraph:
    """ "Contributions › project": the way back to the list and to the write-up's project page."""
    trail = nodes.paragraph(classes=["contrib-breadcrumb", NO_SEARCH])
    index = app.config.contributions_index
    if index in app.env.found_docs:
        title = app.env.titles[index].astext()
        uri = app.builder.get_relative_uri(docname, index)
        trail += nodes.reference("", title, internal=True, refuri=uri, classes=["contrib-breadcrumb-list"])
        trail += nodes.inline(" › ", " › ", classes=["contrib-breadcrumb-sep"])
    trail += cn.page_link(
        "",
        record.display_project,
        target=record.project_page,
        project=record.display_project,
        classes=["contrib-project"],
    )
    return trail


def visit_header_html(self: nodes.NodeVisitor, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "div", CLASS="contrib-header"))  # type: ignore[attr-defined]


def depart_header_html(self: nodes.NodeVisitor, node: nodes.Element) -> None:
    self.body.append("</div>\n")  # type: ignore[attr-defined]


def visit_header_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    """A framed box in a minipage, never split, with no page break after it (``\\@nobreaktrue``)."""
    self.in_minipage += 1
    self.body.append(
        "\n"
        + self.hypertarget_to(node, anchor=True)
        + "\n\\par\\noindent\\begin{minipage}{\\linewidth}\\setlength{\\parskip}{3pt}\n\\begin{sphinxShadowBox}\n"
    )


def depart_header_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    self.in_minipage -= 1
    self.body.append("\\end{sphinxShadowBox}\n\\end{minipage}\\par\\nobreak\\medskip\\csname @nobreaktrue\\endcsname\n")


def visit_header_texinfo(self: TexinfoTranslator, node: nodes.Element) -> None:
    for node_id in node["ids"]:
        self.add_anchor(node_id, node)


def pass_header(self: nodes.NodeVisitor, node: nodes.Element) -> None:
    """Text and man render the header's children only."""
