"""Page sources read with MyST's own Markdown parser (markdown-it, with the site's ``myst_*`` settings).

A page being read is the text Sphinx hands its parser, after every ``source-read`` handler
(:class:`PageSource`, kept while the page is read), never the file again. The directives read their option
lines in it and the structure checks (:mod:`..check.structure`) the lines of each section's fence, at the
lines MyST gives them (:func:`opening_line`, :func:`closing_line`): the doctree does not say whether a
fence was closed, nor which closing line closed it. The near-miss scan (:mod:`.names`) reads the page's
block tokens, for a page that may hold a typo. The draft scan (:mod:`..collect.drafts`) reads pages before
the build."""

from __future__ import annotations

import re
from functools import cached_property, partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from myst_parser.config.main import MdParserConfig
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def markdown_parser(config: MdParserConfig | None = None) -> MarkdownIt:
    """MyST's Markdown parser, set up with ``config``; without it, MyST's defaults plus colon fences (the
    command line, which reads no site settings)."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(config or MdParserConfig(enable_extensions={"colon_fence"}), RendererHTML)


def site_config(env: BuildEnvironment) -> MdParserConfig | None:
    """MyST's own settings object for the site, the one its Sphinx extension made from the ``myst_*``
    values at ``builder-inited`` (``env.myst_config``) and reads every page with; None without MyST. If
    MyST is loaded but that object is not where it was, a ``[contrib.compat]`` warning says so and the
    pages are read with MyST's defaults plus colon fences."""
    from myst_parser.config.main import MdParserConfig

    config = getattr(env, "myst_config", None)
    if isinstance(config, MdParserConfig):
        return config
    if "myst_enable_extensions" in env.config:  # MyST is loaded
        from ..compat import incompatible

        incompatible(
            "myst-parser",
            "env.myst_config (the MdParserConfig its Sphinx extension makes)",
            "the structure checks and the draft scan read pages with MyST's defaults plus colon fences, "
            "not the site's myst_* settings",
        )
    return None


def site_markdown_parser(env: BuildEnvironment) -> MarkdownIt:
    """The parser MyST's Sphinx extension reads the site's pages with (:func:`site_config`)."""
    return markdown_parser(site_config(env))


#: what ends a line for markdown-it (its ``normalize`` rule makes each a line feed)
_LINE_END = re.compile(r"\r\n?|\n")

#: the domain every directive and role of the extension is registered in (``{contrib:pr}``,
#: ``:::{contrib:fix}``): the names that never collide (:mod:`..collect.short_names` adds the bare ones)
DOMAIN = "contrib"


def bare_name(name: str) -> str:
    """A directive's or role's name without the extension's domain: ``contrib:fix`` → ``fix``; a bare
    name as it is. What the extension's checks compare, so both forms read alike."""
    return name[len(DOMAIN) + 1 :] if name.startswith(f"{DOMAIN}:") else name


def directive_name(token: Token, bare: bool = True) -> str | None:
    """The directive a fence token opens (``:::{fix}`` and ``:::{contrib:fix}`` → ``fix``; as written when
    not ``bare``), or None for any other token."""
    if token.type not in ("fence", "colon_fence"):
        return None
    info = token.info.strip()
    if not info.startswith("{") or "}" not in info:
        return None
    name = info[1 : info.index("}")].strip()
    return bare_name(name) if bare else name


class PageSource:
    """The text of a page being read, as its parser gets it (after every ``source-read`` handler), with
    its lines and its block tokens, each made once, when first asked for."""

    def __init__(self, text: str, markdown: Callable[[], MarkdownIt]) -> None:
        self.text = text
        self._markdown = markdown

    @cached_property
    def lines(self) -> list[str]:
        return source_lines(self.text)

    @cached_property
    def md(self) -> MarkdownIt:
        return self._markdown()

    @cached_property
    def tokens(self) -> list[Token]:
        return block_tokens(self.text, self.md)


def source_lines(text: str) -> list[str]:
    """A text's lines as markdown-it (and so MyST) numbers them: ended by a line feed, a carriage return
    or both, never by the other breaks ``str.splitlines`` knows (a form feed, U+2028…), which stand
    inside a line."""
    lines = _LINE_END.split(text)
    return lines[:-1] if lines and not lines[-1] else lines


#: where the page being read is kept: Sphinx's data of the current document, new for each page it reads
#: (also in a parallel reader), so nothing of it is pickled or outlives the page
CURRENT_PAGE = "contributions:page-source"


def note_source(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``, after every other handler: the text the page's parser gets."""
    env = app.env
    env.current_document[CURRENT_PAGE] = PageSource(source[0], partial(site_markdown_parser, env))


def page_being_read(env: BuildEnvironment) -> PageSource:
    """The page the build is reading, as its parser got it; a page read before its ``source-read`` (none
    is) is read from its file."""
    found = env.current_document.get(CURRENT_PAGE)
    if isinstance(found, PageSource):
        return found
    try:
        text = env.doc2path(env.current_document.docname).read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    source = env.current_document[CURRENT_PAGE] = PageSource(text, partial(site_markdown_parser, env))
    return source


def block_tokens(text: str, md: MarkdownIt) -> list[Token]:
    """The block-level tokens of ``text``: markdown-it's ``normalize`` and ``block`` core rules only. Fences
    need no inline parse, which is most of the time of a full one (every write-up is read this way)."""
    from markdown_it.rules_core import block, normalize
    from markdown_it.rules_core.state_core import StateCore

    state = StateCore(text, md, {})
    normalize(state)
    block(state)
    return state.tokens


#: a fence's line as markdown-it reads it: at most three spaces (a tab indents to a code block), then
#: three or more colons, backticks or tildes (markdown-it's fence and MyST's colon fence), then the rest
_FENCE = re.compile(r"^ {0,3}(?P<markup>:{3,}|`{3,}|~{3,})(?P<info>.*)$")


def fence_markup(line: str) -> str:
    """The fence characters a line opens or closes a fence with (``:::``, ````` ``` `````); "" for none."""
    found = _FENCE.match(line)
    return found["markup"] if found else ""


def opens(line: str, name: str) -> bool:
    """Whether a line opens a fence of directive ``name`` (``:::{fix}``, ````` ```{fix} `````,
    ``:::{contrib:fix}``)."""
    found = _FENCE.match(line)
    return found is not None and found["info"].strip().startswith((f"{{{name}}}", f"{{{DOMAIN}:{name}}}"))


def is_closing(line: str, markup: str) -> bool:
    """Whether a line closes a fence opened with ``markup``: at least as many of its characters, then
    nothing but spaces and tabs, indented less than a code block."""
    found = _FENCE.match(line)
    return (
        found is not None
        and found["markup"][0] == markup[:1]
        and len(found["markup"]) >= len(markup)
        and not found["info"].strip(" \t")
    )


def opening_line(lines: list[str], line: int, name: str) -> int:
    """The line of the fence that opened directive ``name``, from the line MyST ran it at (both 1-based):
    MyST runs a fence that opens a colon fence's body one line late (it puts a line feed before that
    body, ``render_colon_fence``), so the line before is taken when it is that fence."""

    def opens_at(number: int) -> bool:
        return 0 < number <= len(lines) and opens(lines[number - 1], name)

    return line - 1 if not opens_at(line) and opens_at(line - 1) else line


def closing_line(lines: list[str], opening: int, end: int | None = None) -> int | None:
    """The line (1-based) that closes the fence opened at line ``opening``, looked for before line ``end``
    (the end of what holds the fence; the page's end by default), as markdown-it does: the first line
    that closes it, whatever stands between. None when it is never closed."""
    markup = fence_markup(lines[opening - 1]) if 0 < opening <= len(lines) else ""
    if not markup:
        return None
    last = len(lines) if end is None else end - 1
    return next((n for n in range(opening + 1, last + 1) if is_closing(lines[n - 1], markup)), None)


def left_open(lines: list[str], first: int, end: int, char: str) -> int | None:
    """The line of the first directive fence of ``char`` at the top of lines ``first`` to ``end`` (end
    excluded) that is never closed before ``end``; None when each is. A fence of another character is
    passed over whole (what it holds is not read: a code block's lines are no fences)."""
    line = first
    while line < end:
        markup = fence_markup(lines[line - 1])
        if not markup:
            line += 1
            continue
        close = closing_line(lines, line, end)
        if close is None:
            info = lines[line - 1].strip()[len(markup) :].strip()
            return line if markup[0] == char and info.startswith("{") else None
        line = close + 1
    return None
