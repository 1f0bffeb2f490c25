"""Page sources read with MyST's own Markdown parser and the site's ``myst_*`` settings (:class:`PageSource`),
for what the doctree does not say (whether a fence was closed, and by which line), and for the draft scan."""

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
    """MyST's Markdown parser with ``config``; without it, MyST's defaults plus colon fences."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(config or MdParserConfig(enable_extensions={"colon_fence"}), RendererHTML)


def site_config(env: BuildEnvironment) -> MdParserConfig | None:
    """The ``MdParserConfig`` MyST reads the site's pages with; None without MyST."""
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
    """The parser MyST reads the site's pages with."""
    return markdown_parser(site_config(env))


#: what ends a line for markdown-it (its ``normalize`` rule makes each a line feed)
_LINE_END = re.compile(r"\r\n?|\n")

#: the domain of the extension's directives and roles (``{contrib:pr}``)
DOMAIN = "contrib"


def bare_name(name: str) -> str:
    """``contrib:fix`` → ``fix``; a bare name as it is."""
    return name[len(DOMAIN) + 1 :] if name.startswith(f"{DOMAIN}:") else name


def directive_name(token: Token, bare: bool = True) -> str | None:
    """The directive a fence token opens (bare, or as written), or None for any other token."""
    if token.type not in ("fence", "colon_fence"):
        return None
    info = token.info.strip()
    if not info.startswith("{") or "}" not in info:
        return None
    name = info[1 : info.index("}")].strip()
    return bare_name(name) if bare else name


class PageSource:
    """The text of a page being read, as its parser gets it, with its lines and block tokens made once."""

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
    """A text's lines as markdown-it numbers them: not split at the other breaks ``str.splitlines`` knows."""
    lines = _LINE_END.split(text)
    return lines[:-1] if lines and not lines[-1] else lines


#: where the page being read is kept: ``env.current_document``, new for each page, never pickled
CURRENT_PAGE = "contributions:page-source"


def note_source(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``, after every other handler: the text the page's parser gets."""
    env = app.env
    env.current_document[CURRENT_PAGE] = PageSource(source[0], partial(site_markdown_parser, env))


def page_being_read(env: BuildEnvironment) -> PageSource:
    """The page the build is reading, as its parser got it (else from its file)."""
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
    """The block-level tokens of ``text``: fences need no inline parse, most of a full parse's time."""
    from markdown_it.rules_core import block, normalize
    from markdown_it.rules_core.state_core import StateCore

    state = StateCore(text, md, {})
    normalize(state)
    block(state)
    return state.tokens


#: a fence's line as markdown-it reads it: at most three spaces, then three or more colons, backticks or tildes
_FENCE = re.compile(r"^ {0,3}(?P<markup>:{3,}|`{3,}|~{3,})(?P<info>.*)$")


def fence_markup(line: str) -> str:
    """The fence characters a line opens or closes a fence with; "" for none."""
    found = _FENCE.match(line)
    return found["markup"] if found else ""


def opens(line: str, name: str) -> bool:
    """Whether a line opens a fence of directive ``name`` (bare or in the domain)."""
    found = _FENCE.match(line)
    return found is not None and found["info"].strip().startswith((f"{{{name}}}", f"{{{DOMAIN}:{name}}}"))


def is_closing(line: str, markup: str) -> bool:
    """Whether a line closes a fence opened with ``markup``: at least as many of its characters, alone."""
    found = _FENCE.match(line)
    return (
        found is not None
        and found["markup"][0] == markup[:1]
        and len(found["markup"]) >= len(markup)
        and not found["info"].strip(" \t")
    )


def opening_line(lines: list[str], line: int, name: str) -> int:
    """The line of the fence that opened directive ``name``, from the line MyST ran it at: MyST runs a fence
    that opens a colon fence's body one line late (``render_colon_fence`` puts a line feed before it)."""

    def opens_at(number: int) -> bool:
        return 0 < number <= len(lines) and opens(lines[number - 1], name)

    return line - 1 if not opens_at(line) and opens_at(line - 1) else line


def closing_line(lines: list[str], opening: int, end: int | None = None) -> int | None:
    """The first line before ``end`` that closes the fence opened at ``opening``; None if none."""
    markup = fence_markup(lines[opening - 1]) if 0 < opening <= len(lines) else ""
    if not markup:
        return None
    last = len(lines) if end is None else end - 1
    return next((n for n in range(opening + 1, last + 1) if is_closing(lines[n - 1], markup)), None)


def left_open(lines: list[str], first: int, end: int, char: str) -> int | None:
    """The first directive fence of ``char`` in lines ``first`` to ``end`` left open, or None."""
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
