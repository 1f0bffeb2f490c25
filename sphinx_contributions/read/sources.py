"""Page sources read with MyST's own Markdown parser (markdown-it, with the site's ``myst_*`` settings).

A page being read is the text Sphinx hands its parser, after every ``source-read`` handler
(:class:`PageSource`, kept by the domain while the page is read), never the file again. The structure
checks (:mod:`..check.structure`) need the lines of each section's fence, to tell why a page's layout went wrong
(a fence never closed, or closed early): they tell them from the text MyST ran each section's directive
with, noted as it runs (:func:`fence_of_block`), and parse the page's block tokens only when that text is
not the page's line for line, a section's body only when it may leave a fence open. The near-miss scan
(:mod:`.names`) reads the same tokens, for a page that may hold a typo. The draft scan (:mod:`.drafts`)
reads pages before the build."""

from __future__ import annotations

import re
from dataclasses import dataclass
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

#: a line that could open a fence at the top level of the text it is in: at most three spaces (a tab
#: indents to a code block), then three colons, backticks or tildes (markdown-it's fence and MyST's colon
#: fence); text without one holds no fence at its top level
_FENCE_START = re.compile(r"^ {0,3}(?::{3}|`{3}|~{3})", re.MULTILINE)


def may_hold_fences(text: str) -> bool:
    """Whether ``text`` may hold a fence at its top level (a quick look; False means it holds none)."""
    return _FENCE_START.search(text) is not None


#: for each fence character, a directive's opening line and a closing line as markdown-it reads them: at
#: most three spaces (a tab indents to a code block), three or more of the character, then ``{`` (a
#: directive's name) or nothing but spaces and tabs
_OPENING = {char: re.compile(rf"^ {{0,3}}({re.escape(char)}{{3,}})[ \t]*\{{") for char in ":`~"}
_CLOSING = {char: re.compile(rf"^ {{0,3}}({re.escape(char)}{{3,}})[ \t]*$") for char in ":`~"}


def _closing_length(line: str, char: str) -> int:
    """How many ``char`` a closing line holds; 0 when ``line`` closes no fence of ``char``."""
    closing = _CLOSING[char].match(line)
    return len(closing[1]) if closing else 0


def may_leave_open(text: str, char: str) -> bool:
    """Whether ``text`` may hold a directive fence of ``char`` (``:``, a backtick or ``~``) that is never
    closed in it (a quick look, line by line; False means it holds none).

    markdown-it closes a fence of N such characters at the first later line of N or more of them and
    spaces, indented less than a code block, whatever stands between; so a directive's opening line
    with such a line after it leaves nothing open."""
    longest_after = 0  # the longest closing line below the one looked at
    for line in reversed(source_lines(text)):
        opened = _OPENING[char].match(line)
        if opened and len(opened[1]) > longest_after:
            return True
        longest_after = max(longest_after, _closing_length(line, char))
    return False


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


@dataclass(frozen=True)
class Fence:
    """A directive's fence in a page's source, as markdown-it (and so MyST) reads it."""

    name: str
    #: the text of its opening line (``:::{metric} Drift``)
    opening: str
    #: its fence characters (``:::``, ``::::``, a backtick fence's ````` ``` `````)
    markup: str
    #: the 1-based line of the opening fence
    line: int
    #: the 1-based line of the closing fence; None when it is never closed (it runs to the end of what
    #: holds it: the page, or the directive around it)
    close: int | None
    #: the text between its fences, as markdown-it gives it to the directive, and the line it starts at
    body: str = ""
    body_line: int = 0


class PageSource:
    """The text of a page being read, as its parser gets it (after every ``source-read`` handler), with
    its lines and its block tokens, each made once, when first asked for."""

    def __init__(self, text: str, markdown: Callable[[], MarkdownIt]) -> None:
        self.text = text
        self._markdown = markdown
        #: the text of each write-up section's directive on this page, by its line (noted as MyST runs it)
        self.blocks: dict[int, str] = {}

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


def fence_of_block(lines: list[str], line: int, block_text: str, name: str) -> Fence | None:
    """The fence of directive ``name`` that MyST ran at ``line`` of a page (1-based; ``lines``: the page's
    lines) with ``block_text``, told without a parse, for a fence at the top of the page: MyST 5 gives a
    directive its opening line, the body as markdown-it cut it (a blank line first when it starts with a
    colon fence) and its fence characters. The body ends right before the closing line, or at the end of
    the page when never closed. None unless the block stands in the page line for line (another MyST, an
    indented fence): then the page is parsed."""
    parts = block_text.split("\n")
    if len(parts) < 3 or parts[-1]:
        return None
    opening, body, markup = parts[0], parts[1:-2], parts[-2]
    start = line - 1
    if len(markup) < 3 or markup[0] not in ":`~" or set(markup) != {markup[0]} or not opening.startswith(markup):
        return None
    if start < 0 or lines[start : start + 1] != [opening]:
        return None
    if lines[start + 1 : start + 1 + len(body)] != body:
        # a body that starts with a colon fence is given a blank line first (told apart from options)
        if body[:1] != [""] or lines[start + 1 : start + len(body)] != body[1:]:
            return None
        body = body[1:]
    after = start + 1 + len(body)  # the line after the body (0-based)
    if after < len(lines) and _is_closing(lines[after], markup):
        close: int | None = after + 1
    elif after == len(lines):  # the body runs to the end of the page: never closed
        close = None
    else:  # the body ends where something holding the fence ends
        return None
    text = "".join(f"{body_line}\n" for body_line in body)
    return Fence(name, opening.strip(), markup, line, close, body=text, body_line=line + 1)


def block_tokens(text: str, md: MarkdownIt) -> list[Token]:
    """The block-level tokens of ``text``: markdown-it's ``normalize`` and ``block`` core rules only. Fences
    need no inline parse, which is most of the time of a full one (every write-up is read this way)."""
    from markdown_it.rules_core import block, normalize
    from markdown_it.rules_core.state_core import StateCore

    state = StateCore(text, md, {})
    normalize(state)
    block(state)
    return state.tokens


def directive_fences(text: str, md: MarkdownIt, first_line: int = 1, tokens: list[Token] | None = None) -> list[Fence]:
    """The directive fences at the top level of ``text`` (whose first line is line ``first_line`` of the
    page; ``tokens``: its block tokens, when already parsed)."""
    lines = source_lines(text)
    fences = []
    for token in block_tokens(text, md) if tokens is None else tokens:
        name = directive_name(token)
        if name is None or token.level != 0 or token.map is None:
            continue
        start, end = token.map
        last = lines[end - 1] if start < end - 1 < len(lines) else ""
        closed = _is_closing(last, token.markup)
        fences.append(
            Fence(
                name=name,
                opening=lines[start].strip() if start < len(lines) else "",
                markup=token.markup,
                line=first_line + start,
                close=first_line + end - 1 if closed else None,
                body=token.content,
                body_line=first_line + start + 1,
            )
        )
    return fences


def inner_fences(fence: Fence, md: MarkdownIt) -> list[Fence]:
    """The directive fences at the top level of a fence's body (parsed when asked for: most bodies hold
    none, and those are not parsed)."""
    return directive_fences(fence.body, md, fence.body_line) if may_hold_fences(fence.body) else []


def _is_closing(line: str, markup: str) -> bool:
    """Whether ``line`` closes a fence opened with ``markup``: at least as many of its characters, nothing
    else, indented less than a code block."""
    return markup[:1] in _CLOSING and _closing_length(line, markup[0]) >= len(markup)
