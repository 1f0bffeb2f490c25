"""Drafts: a page whose ``contribution`` says ``:status: draft`` is left out of the published build.

The published build must not hold a draft anywhere (page, listings, feed, JSON, sitemap, search,
``objects.inv``), so drafts are found before Sphinx reads anything, by a scan of the sources Sphinx found
new or changed, and taken out of the build as if their files were not there (:func:`leave_out_drafts`).
The scan parses Markdown with MyST's own parser and the site's MyST settings, so a ``contribution``
shown inside a code block is not mistaken for a header, and both option forms (``:status: draft``
lines and a ``---`` YAML block) are read. ``contributions_include_drafts = True`` (``make serve``)
keeps drafts in, with a banner. The scan's keys let ``{contrib}`` say "links to a draft" rather than
"not found".

A page the scan cannot see as a draft (its header nested in another directive, say) would be published:
once everything is read, any ``draft`` record left in the build is reported as
``[contrib.draft_not_excluded]``, which fails the strict build.

The scan is also what the ``contributions`` command line reads (:mod:`.cli`): every page's key, title,
written sections and metric count, without building.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.project import Project

from .domain import get_domain
from .model import SECTION_NAMES, is_comment_only_html, key_lookup, make_key
from .sources import directive_name, markdown_parser, site_markdown_parser
from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from collections.abc import Iterable

    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: reStructuredText: ``.. contribution::`` and its indented ``:name: value`` options
_RST_HEADER = re.compile(
    r"^\.\.[ \t]+contribution::[^\n]*\n(?P<options>(?:[ \t]+:[\w-]+:[^\n]*\n)*)",
    re.MULTILINE,
)
_RST_OPTION = re.compile(r"^[ \t]*:(?P<name>[\w-]+):[ \t]*(?P<value>[^\n]*?)[ \t]*$", re.MULTILINE)
_RST_DIRECTIVE = re.compile(r"^\.\.[ \t]+(?P<name>[\w-]+)::", re.MULTILINE)
_RST_TITLE = re.compile(r"^(?P<title>\S[^\n]*)\n(?P<rule>[=\-~^\"'`#*+<>]{3,})[ \t]*$", re.MULTILINE)

#: what a scan finds in a page: (header options or None, title, sections, written sections, metric count)
Scan = tuple[dict[str, str] | None, str, tuple[str, ...], tuple[str, ...], int]

#: a token of these types is not written content: MyST comments (``% …``)
_NOT_WRITTEN = frozenset({"myst_line_comment"})


@dataclass(frozen=True)
class SourcePage:
    """What the source of one contribution page says, read without building it."""

    docname: str
    path: Path
    options: dict[str, str] = field(default_factory=dict)
    title: str = ""
    #: the sections given, in page order, and those of them that hold more than comments
    sections: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    metrics: int = 0

    @property
    def key(self) -> str:
        return make_key(self.options.get("repo", "").strip(), self.options.get("pr", ""))

    @property
    def status(self) -> str | None:
        status = self.options.get("status", "").strip().lower()
        return status or None

    @property
    def is_draft(self) -> bool:
        return self.status == "draft"


def _parse_directive(name: str, token: Token) -> tuple[dict[str, str], list[str]]:
    """(options, body lines) of a directive token, as MyST reads them."""
    from docutils.parsers.rst.states import MarkupError
    from myst_parser.parsers.directives import parse_directive_text

    from .directives import ContributionDirective, SectionDirective

    directive = ContributionDirective if name == "contribution" else SectionDirective
    first_line = token.info.strip()[token.info.strip().index("}") + 1 :].strip()
    try:
        parsed = parse_directive_text(directive, first_line, token.content)
    except MarkupError:
        return {}, token.content.splitlines()
    return {key: str(value) for key, value in parsed.options.items()}, list(parsed.body)


def _count_metrics(md: MarkdownIt, tokens: Iterable[Token]) -> int:
    count = 0
    for token in tokens:
        name = directive_name(token)
        if name == "metric":
            count += 1
        elif name in SECTION_NAMES:
            count += _count_metrics(md, md.parse(token.content))
    return count


def _is_written(token: Token) -> bool:
    if token.type == "html_block" and is_comment_only_html(token.content):
        return False
    return token.type not in _NOT_WRITTEN


def scan_markdown(text: str, md: MarkdownIt) -> Scan:
    """(header options or None, title, sections, written sections, metric count) of a MyST page."""
    tokens = md.parse(text)
    options: dict[str, str] | None = None
    title = ""
    sections: list[str] = []
    written: list[str] = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and not title and i + 1 < len(tokens):
            title = tokens[i + 1].content.strip()
        name = directive_name(token)
        if name == "contribution" and options is None:
            options = _parse_directive(name, token)[0]
        elif name in SECTION_NAMES:
            sections.append(name)
            body = "\n".join(_parse_directive(name, token)[1])
            if any(_is_written(t) for t in md.parse(body) if t.level == 0):
                written.append(name)
    return options, title, tuple(sections), tuple(written), _count_metrics(md, tokens)


def scan_rst(text: str) -> Scan:
    """The same for a reStructuredText page, read with patterns (sections count as written)."""
    match = _RST_HEADER.search(text)
    if match is None:
        return None, "", (), (), 0
    options = {m["name"]: m["value"] for m in _RST_OPTION.finditer(match["options"])}
    title_match = _RST_TITLE.search(text)
    names = [m["name"] for m in _RST_DIRECTIVE.finditer(text)]
    sections = tuple(name for name in names if name in SECTION_NAMES)
    return options, title_match["title"].strip() if title_match else "", sections, sections, names.count("metric")


def scan_file(path: Path, docname: str, md: MarkdownIt, drafts_only: bool = False) -> SourcePage | None:
    """The page at ``path`` if it declares a contribution (a draft, with ``drafts_only``), else None."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if "contribution" not in text or (drafts_only and "draft" not in text.lower()):
        return None  # cheap tests first: parsing every page is most of a one-page rebuild at N = 1000
    if path.suffix == ".md":
        options, title, sections, written, metrics = scan_markdown(text, md)
    else:
        options, title, sections, written, metrics = scan_rst(text)
    if options is None:
        return None
    return SourcePage(docname, path, options, title, sections, written, metrics)


def scan_sources(
    srcdir: Path,
    exclude_patterns: Iterable[str],
    include_patterns: Iterable[str] = ("**",),
    source_suffix: Iterable[str] = (".md", ".rst"),
    md: MarkdownIt | None = None,
    drafts_only: bool = False,
) -> dict[str, SourcePage]:
    """docname → :class:`SourcePage` of every contribution page among the sources Sphinx would read
    (with ``drafts_only``: at least those that are drafts; pages without the word are not parsed)."""
    md = md or markdown_parser()
    suffixes = {suffix: "" for suffix in source_suffix if suffix in (".md", ".rst")}
    project = Project(srcdir, suffixes)
    pages: dict[str, SourcePage] = {}
    for docname in sorted(project.discover(list(exclude_patterns), list(include_patterns))):
        page = scan_file(project.doc2path(docname, absolute=True), docname, md, drafts_only)
        if page is not None:
            pages[docname] = page
    return pages


def leave_out_drafts(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated`` (first): unless drafts are included, the drafts among the pages Sphinx found
    new or changed are taken out of the build, as if their files were not there.

    Only those pages are scanned: a page Sphinx read before and that did not change is no draft (it was
    scanned when it changed), and a draft is never read, so it is "added" in every build and scanned
    again (drafts are few). ``exclude_patterns`` stays as the site wrote it: changing it would make
    Sphinx read every page again whenever the drafts change."""
    if app.config.contributions_include_drafts:
        app.config.contributions_draft_keys = {}
        return []
    candidates = sorted(added | changed)
    md = site_markdown_parser(app.config) if candidates else None
    drafts: dict[str, SourcePage] = {}
    for docname in candidates:
        page = scan_file(env.doc2path(docname), docname, md, drafts_only=True) if md is not None else None
        if page is not None and page.is_draft:
            drafts[docname] = page
    for docname in drafts:
        env.found_docs.discard(docname)
        added.discard(docname)
        changed.discard(docname)
        if docname in env.all_docs:  # published until now: its output goes (.fixes.stale_outputs)
            removed.add(docname)
    app.config.contributions_draft_keys = {key_lookup(page.key): docname for docname, page in drafts.items()}
    return []


def check_no_draft_left(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-check-consistency``: a draft the scan did not see must not be published silently."""
    if env.config.contributions_include_drafts:
        return
    domain = get_domain(env)
    for docname in sorted(domain.contributions):
        record = domain.contributions[docname]
        if record.status == "draft":
            warn(
                ContribWarning.DRAFT_NOT_EXCLUDED,
                f"contribution {record.key} is a draft but its header was not found before the build "
                "(is it nested in another directive?), so it would be published; "
                "put the 'contribution' directive at the top level of the page",
                (docname, record.lineno),
            )


def setup_drafts(app: Sphinx) -> None:
    app.add_config_value("contributions_include_drafts", False, "env", types=frozenset({bool}))
    # computed when Sphinx looks for outdated pages, from the drafts' sources, never set by hand
    app.add_config_value("contributions_draft_keys", {}, "", types=frozenset({dict}))
    # first: before .fixes.stale_outputs removes the output of pages no longer in the build
    app.connect("env-get-outdated", leave_out_drafts, priority=100)
    app.connect("env-check-consistency", check_no_draft_left)
