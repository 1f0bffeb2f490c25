"""Whole-page checks, once per page from the domain's ``process_doc``: no two elements share an id; a write-up is
its title, the header, then the four sections, once each, in order, holding all its content. The fences' lines
(:class:`~.sources.PageSource`) say why: which was never closed or closed early, which the doctree cannot tell."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from .. import nodes as cn
from ..keys import SECTION_NAMES, make_key
from ..read.names import near_misses, taken_short_names
from ..read.sources import PageSource, bare_name, closing_line, fence_markup, left_open, opening_line
from ..warnings import ContribWarning, warn

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.environment import BuildEnvironment

#: a page's layout, in words, for the messages
ORDER = ", ".join(SECTION_NAMES)


@dataclass
class Page:
    """One page being checked: its doctree and, for a Markdown page, its text as its parser got it."""

    env: BuildEnvironment
    docname: str
    document: nodes.document
    page_source: PageSource
    #: python ids of the nodes a warning has already been given for (no second warning for one mistake)
    reported: set[int] = field(default_factory=set)

    @cached_property
    def source(self) -> str:
        return str(self.document.get("source") or self.env.doc2path(self.docname))

    @cached_property
    def is_markdown(self) -> bool:
        suffixes: dict[str, str] = dict(self.env.config.source_suffix)
        return suffixes.get(Path(self.source).suffix) == "markdown"

    @property
    def lines(self) -> list[str]:
        return self.page_source.lines

    def markup(self, section: nodes.Element) -> str:
        """The fence characters a section was opened with (``:::``); "" where they are not known."""
        if not (self.is_markdown and self.here(section)):
            return ""
        return fence_markup(self.line_text(self.directive_line(section, section["contrib_section"]), strip=False))

    def opening(self, section: nodes.Element) -> str:
        """The text of a section's opening line (``:::{verification}``)."""
        if self.markup(section):
            return self.line_text(self.directive_line(section, section["contrib_section"]))
        return f":::{{{section['contrib_section']}}}"

    def directive_line(self, node: nodes.Element, name: str) -> int:
        """The line of the fence that opened directive ``name``'s ``node`` (:func:`~.sources.opening_line`)."""
        return opening_line(self.lines, node.line or 0, name) if self.here(node) else node.line or 0

    def line_text(self, line: int, strip: bool = True) -> str:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return text.strip() if strip else text

    def location(self, node: nodes.Node) -> object:
        return node if node.line and node.source else self.docname

    def here(self, node: nodes.Node) -> bool:
        return bool(node.line) and node.source == self.source


def check_page(
    env: BuildEnvironment,
    docname: str,
    document: nodes.document,
    header: cn.contribution_header | None,
    source: PageSource,
    taken: frozenset[tuple[str, str]] = frozenset(),
) -> None:
    """Every check of one page; ``taken``: the short names another extension holds here, (kind, name)."""
    page = Page(env, docname, document, source)
    if header is not None:  # a write-up: another page may use the site's own role of that name
        check_short_names(page, taken)
    misspelt = check_names(page, header)
    check_empty(page)
    if cn.made_here(env):  # the ids the extension gives (docutils keeps the others unique)
        check_duplicate_ids(page)
    if header is None:
        return
    sections = [node for node in document.findall(nodes.section) if node.get("contrib_section")]
    check_missing_sections(header, sections, misspelt)
    early = check_nesting(page, sections)
    check_order(page, sections)
    check_outside(page, early)


# -- names and empty pages -----------------------------------------------------------------------------


def check_short_names(page: Page, taken: frozenset[tuple[str, str]]) -> None:
    """A short name another extension holds here (``{pr}``), used in a write-up: write ``{contrib:pr}``."""
    if not page.is_markdown:
        return
    for use in taken_short_names(page.env, page.page_source, taken):
        if use.kind == "role":
            written, what, namespaced = f"{{{use.name}}}", "role", f"{{{use.meant}}}"
        else:
            written, what = use.opening, "directive"
            namespaced = use.opening.replace(f"{{{use.name}}}", f"{{{use.meant}}}", 1)
        warn(
            ContribWarning.SHORT_NAME,
            f"{written} is another extension's {what} on this site (it holds the short name {use.name!r}), so "
            f"this is not sphinx-contributions' {use.name}: write {namespaced}",
            (page.docname, use.line),
        )


def check_names(page: Page, header: cn.contribution_header | None) -> set[str]:
    """Did you mean, for each typo of the extension's names; returns the directives meant."""
    if not page.is_markdown:
        return set()
    meant = set()
    for miss in near_misses(page.env, page.page_source):
        warn(ContribWarning.UNKNOWN_NAME, miss.message, (page.docname, miss.line))
        if miss.kind == "directive":
            meant.add(miss.bare_meant)
        if miss.bare_meant == "contribution" and header is None:
            page.document["contrib_rejected"] = True
    return meant


def check_empty(page: Page) -> None:
    """An empty page in the write-ups' folder: a file created and forgotten."""
    folder = posixpath.dirname(str(page.env.config.contributions_index))
    if not folder or not page.docname.startswith(f"{folder}/") or page.docname == page.env.config.contributions_index:
        return
    if any(not isinstance(node, (nodes.Invisible, nodes.system_message)) for node in page.document.children):
        return
    page.document["contrib_rejected"] = True  # an orphan: no toctree warning as well
    warn(
        ContribWarning.EMPTY_PAGE,
        "the page is empty: write the contribution here ('contributions new' starts one from its pull "
        "request) or delete the file",
        page.docname,
    )


# -- ids -----------------------------------------------------------------------------------------------


def check_duplicate_ids(page: Page) -> None:
    occurrences: dict[str, list[nodes.Element]] = {}
    labels: dict[str, list[nodes.target]] = {}
    for node in cn.walk(page.document):
        if not isinstance(node, nodes.Element):
            continue
        for value in node["ids"]:
            occurrences.setdefault(value, []).append(node)
        if isinstance(node, nodes.target) and node.get("refid"):
            labels.setdefault(node["refid"], []).append(node)
    for value, found in occurrences.items():
        if len(found) > 1:
            _report_duplicate_id(page, value, found, list(labels.get(value, ())))


def _report_duplicate_id(page: Page, value: str, found: list[nodes.Element], labels: list[nodes.target]) -> None:
    owners: list[tuple[str, nodes.Element]] = []  # (kind, node) of each element given the id
    own: set[int] = set()
    for node in found:
        if node.get("contrib_section") and node["ids"][0] == value and id(node) not in own:
            own.add(id(node))
            owners.append(("section", node))
        elif labels:  # a label's id moves to the element after it (docutils), so the label is the cause
            owners.append(("label", labels.pop(0)))
        elif isinstance(node, nodes.section):
            owners.append(("title" if node.parent is page.document else "heading", node))
        else:
            owners.append((node.tagname, node))
    owners.sort(key=lambda owner: owner[1].line or 0)
    kinds = {kind for kind, _ in owners}
    times = "twice" if len(owners) == 2 else f"{len(owners)} times"
    culprit = next((kind for kind in _ADVICE if kind in kinds), owners[1][0])
    advice = _ADVICE.get(culprit, "rename one of them")
    described = " and ".join(
        f"{_describe(page, kind, node)} (line {_line(page, node) if kind == 'section' else node.line})"
        for kind, node in owners
    )
    node = next(node for kind, node in owners if kind == culprit)
    page.reported.update(id(node) for kind, node in owners if kind in {"heading", "title"})
    warn(
        ContribWarning.DUPLICATE_ID,
        f"the id '{value}' is given {times} on this page, to {described}: ids must be unique; {advice}",
        page.location(node),
    )


#: the kind of element that causes a duplicate id, first found first, and what to do about it
_ADVICE = {
    "label": "rename or remove the label",
    "heading": "rename or remove the heading",
    "title": "retitle the page",
}


def _describe(page: Page, kind: str, node: nodes.Element) -> str:
    if kind == "section":
        return f"the '{node['contrib_section']}' section"
    if kind == "label":
        text = page.line_text(node.line or 0) if page.here(node) else ""
        return f"the label '{text}'" if text else "a label"
    if kind in {"heading", "title"}:
        title = node[0].astext() if node.children and isinstance(node[0], nodes.title) else ""
        return f"the {'page title' if kind == 'title' else 'heading'} '{title}'"
    if isinstance(node, cn.contribution_header):
        return "the 'contribution' header"
    return f"a {kind}"


# -- the sections --------------------------------------------------------------------------------------


def check_missing_sections(header: cn.contribution_header, sections: list[nodes.section], misspelt: set[str]) -> None:
    """The sections a write-up lacks, but for those whose fence is misspelt (reported as such)."""
    given = {node["contrib_section"] for node in sections} | misspelt
    missing = [name for name in SECTION_NAMES if name not in given]
    if missing:
        key = header.get("key") or make_key(header["repo"], header["pr"])
        warn(ContribWarning.MISSING_SECTION, f"contribution {key} is missing section(s): {', '.join(missing)}", header)


def _name(section: nodes.Element) -> str:
    return str(section["contrib_section"])


def _line(page: Page, section: nodes.Element) -> int:
    return page.directive_line(section, _name(section))


def _at(page: Page, section: nodes.Element) -> object:
    """Where a warning about a section goes: its opening line."""
    return (page.docname, _line(page, section)) if page.here(section) else page.location(section)


def _at_top(section: nodes.Element) -> bool:
    """Whether a section stands at the top of its page, under headings only."""
    parent = section.parent
    while isinstance(parent, nodes.section) and not parent.get("contrib_section"):
        parent = parent.parent
    return isinstance(parent, nodes.document)


def _outer(section: nodes.Element) -> nodes.Element | None:
    """The write-up section that holds ``section``, if any."""
    parent = section.parent
    while parent is not None:
        if isinstance(parent, nodes.section) and parent.get("contrib_section"):
            return parent
        parent = parent.parent
    return None


def check_nesting(page: Page, sections: list[nodes.section]) -> set[int]:
    """Sections inside, never closed or closed early; returns (python ids of) those closed early."""
    early: set[int] = set()
    for section in sections:
        outer = _outer(section)
        if outer is None or id(outer) in page.reported:
            continue
        page.reported.add(id(outer))
        closing = page.markup(outer) or ":::"
        warn(
            ContribWarning.NESTING,
            f"the '{_name(outer)}' section opened at line {_line(page, outer)} is not closed before the "
            f"'{_name(section)}' section (line {_line(page, section)}), so '{_name(section)}' is inside it: close "
            f"'{_name(outer)}' with '{closing}' on a line before '{page.opening(section)}'",
            _at(page, outer),
        )
    for section in sections:
        markup = page.markup(section)
        if not markup or not _at_top(section) or id(section) in page.reported:
            continue
        opening = _line(page, section)
        close = closing_line(page.lines, opening)
        if close is None:
            warn(
                ContribWarning.NESTING,
                f"the '{_name(section)}' section opened at line {opening} is never closed, so it runs to "
                f"the end of the page: close it with '{markup}' after its last line",
                _at(page, section),
            )
            continue
        inner = left_open(page.lines, opening + 1, close, markup[0])
        if inner is not None:
            early.add(id(section))
            inner_opening = page.line_text(inner)
            inner_markup = fence_markup(page.line_text(inner, strip=False))
            inner_name = bare_name(inner_opening[len(inner_markup) :].strip()[1:].partition("}")[0].strip())
            wider = markup[0] * (len(inner_markup) + 1)
            what = "colon" if markup[0] == ":" else "backtick"
            warn(
                ContribWarning.NESTING,
                f"the '{_name(section)}' section (line {opening}) holds '{inner_opening}' "
                f"(line {inner}), so the '{page.line_text(close)}' at line {close} closes the "
                f"section, not the {inner_name}, and what follows is outside the sections: give the section's "
                f"fences one more {what} than the {inner_name}'s, '{wider}{{{_name(section)}}}' and '{wider}'",
                _at(page, section),
            )
    return early


def check_order(page: Page, sections: list[nodes.section]) -> None:
    """Each section's first occurrence in page order; those off the longest run in order are reported."""
    firsts: dict[str, nodes.section] = {}
    for section in sections:
        firsts.setdefault(_name(section), section)
    placed = list(firsts.values())
    ranks = [SECTION_NAMES.index(_name(section)) for section in placed]
    kept = _longest_increasing(ranks)
    for position, section in enumerate(placed):
        if position in kept:
            continue
        later = [placed[i] for i in sorted(kept) if ranks[i] > ranks[position]]
        earlier = [placed[i] for i in sorted(kept) if ranks[i] < ranks[position]]
        where = (
            f"before '{_name(later[0])}' (line {_line(page, later[0])})"
            if later
            else f"after '{_name(earlier[-1])}' (line {_line(page, earlier[-1])})"
        )
        warn(
            ContribWarning.STRUCTURE,
            f"the '{_name(section)}' section (line {_line(page, section)}) is out of order: the sections go {ORDER}; "
            f"move it {where}",
            _at(page, section),
        )


def _longest_increasing(ranks: list[int]) -> set[int]:
    """Positions of a longest strictly increasing subsequence, the earlier ones on ties."""
    if not ranks:
        return set()
    length = [1] * len(ranks)
    before: list[int | None] = [None] * len(ranks)
    for i in range(len(ranks)):
        for j in range(i):
            if ranks[j] < ranks[i] and length[j] + 1 > length[i]:
                length[i], before[i] = length[j] + 1, j
    end: int | None = max(range(len(ranks)), key=lambda i: (length[i], -i))
    kept = set()
    while end is not None:
        kept.add(end)
        end = before[end]
    return kept


# -- content outside the sections ----------------------------------------------------------------------


def _flow(parent: nodes.Element, title: bool = True) -> Iterator[nodes.Node]:
    """The page's nodes in order, each heading yielded then opened up without its title node (the page's
    title only opened); write-up sections are not opened."""
    for child in parent.children:
        heading = isinstance(child, nodes.section) and not child.get("contrib_section")
        if not (heading and title) and not (isinstance(child, nodes.title) and isinstance(parent, nodes.section)):
            yield child
        if heading and isinstance(child, nodes.section):
            yield from _flow(child, title=False)
        title = title and not heading


def check_outside(page: Page, early: set[int]) -> None:
    """Text, figures and headings outside the four sections: one warning for each run of them."""
    from ..read.directives import is_written  # here: only a write-up's page loads the directives

    header_seen = False
    last: nodes.Element | None = None
    run: list[nodes.Node] = []

    def flush(following: nodes.Element | None) -> None:
        if not run or (last is not None and id(last) in early):
            run.clear()
            return
        if not header_seen:
            where = "before the 'contribution' header"
        elif last is None:
            where = "between the 'contribution' header and the first section"
        elif following is not None:
            where = f"between the '{_name(last)}' and '{following['contrib_section']}' sections"
        else:
            where = f"after the last section, '{_name(last)}'"
        _report_outside(page, run[0], where)
        run.clear()

    for node in _flow(page.document):
        is_header = isinstance(node, cn.contribution_header)
        if is_header or (not header_seen and not isinstance(node, nodes.section) and _holds_header(page, node)):
            flush(None)
            header_seen = True
        elif isinstance(node, nodes.section) and node.get("contrib_section"):
            flush(node)
            last = node
        elif isinstance(node, nodes.section):
            if id(node) not in page.reported:  # a heading already reported as a duplicate id
                run.append(node)
        elif is_written(node) and not _generated(node):
            run.append(node)
    flush(None)


def _generated(node: nodes.Node) -> bool:
    """Not placed by the author where it stands: footnotes MyST gathers at the end, nodes of a transform."""
    if isinstance(node, (nodes.footnote, nodes.citation)):
        return True
    if isinstance(node, nodes.transition) and "footnotes" in node["classes"]:
        return True
    return not node.line


def _holds_header(page: Page, node: nodes.Node) -> bool:
    """Whether ``node`` holds the page's header, reported here unless a draft's (``draft_not_excluded`` says it)."""
    header = next(node.findall(cn.contribution_header), None) if isinstance(node, nodes.Element) else None
    if header is None or not isinstance(node, nodes.Element):
        return False
    if header.get("status") != "draft" or page.env.config.contributions_include_drafts:
        line = page.directive_line(header, "contribution")
        warn(
            ContribWarning.STRUCTURE,
            f"the 'contribution' header (line {line}) is inside a {node.tagname} (line {node.line}): put it "
            "at the top level of the page, right after the title",
            (page.docname, line) if page.here(header) else page.location(header),
        )
    return True


def _report_outside(page: Page, node: nodes.Node, where: str) -> None:
    line = node.line or 0
    if isinstance(node, cn.metric):
        message = (
            f"the metric '{node['label']}' (line {line}) is outside the sections, {where}: figures go inside a "
            "section, usually 'verification'"
        )
    elif isinstance(node, nodes.section):
        title = node[0].astext() if node.children and isinstance(node[0], nodes.title) else ""
        message = (
            f"the heading '{title}' (line {line}) is outside the sections, {where}: a write-up's text goes inside "
            "its four sections; move the heading and its text into one of them"
        )
    elif _is_stray_fence(page, node):
        message = (
            f"a stray '{page.line_text(line)}' at line {line}, {where}, is outside the sections: remove it, or "
            "check the colons of the fences before it"
        )
    else:
        message = (
            f"content at line {line} is outside the sections, {where}: a write-up's text goes inside its four "
            "sections; move it into one of them"
        )
    warn(ContribWarning.STRUCTURE, message, page.location(node))


def _is_stray_fence(page: Page, node: nodes.Node) -> bool:
    """A fence with no directive name (a ``:::`` left over), which MyST makes an empty block."""
    if not isinstance(node, nodes.container) or not node.get("is_div") or not page.here(node):
        return False
    text = page.line_text(node.line or 0)
    return bool(text) and set(text) == {":"}
