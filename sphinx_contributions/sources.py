"""Page sources read with MyST's own Markdown parser (markdown-it, with the site's ``myst_*`` settings).

A page being read is the text Sphinx hands its parser, after every ``source-read`` handler
(:class:`PageSource`, kept by the domain while the page is read): the structure checks (:mod:`.checks`)
and the near-miss scan (:mod:`.names`) read its block tokens, parsed once, never the file again. The
checks read its source map, the lines of each directive's fence, to tell why a page's layout went wrong
(a fence never closed, or closed early). The draft scan (:mod:`.drafts`) reads pages before the build.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from myst_parser.config.main import MdParserConfig
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
        from .compat import incompatible

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


def directive_name(token: Token) -> str | None:
    """The directive a fence token opens (``:::{fix}`` → ``fix``), or None for any other token."""
    if token.type not in ("fence", "colon_fence"):
        return None
    info = token.info.strip()
    if not info.startswith("{") or "}" not in info:
        return None
    return info[1 : info.index("}")].strip()


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
    #: the directive fences at the top level of its body (read for the names in ``expand`` only)
    inner: tuple[Fence, ...] = ()


class PageSource:
    """The text of a page being read, as its parser gets it (after every ``source-read`` handler), with
    its lines and its block tokens, each made once, when first asked for."""

    def __init__(self, text: str, markdown: Callable[[], MarkdownIt]) -> None:
        self.text = text
        self._markdown = markdown

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def md(self) -> MarkdownIt:
        return self._markdown()

    @cached_property
    def tokens(self) -> list[Token]:
        return block_tokens(self.text, self.md)


def block_tokens(text: str, md: MarkdownIt) -> list[Token]:
    """The block-level tokens of ``text``: markdown-it's ``normalize`` and ``block`` core rules only. Fences
    need no inline parse, which is most of the time of a full one (every write-up is read this way)."""
    from markdown_it.rules_core import block, normalize
    from markdown_it.rules_core.state_core import StateCore

    state = StateCore(text, md, {})
    normalize(state)
    block(state)
    return state.tokens


def directive_fences(
    text: str, md: MarkdownIt, expand: Collection[str] = (), first_line: int = 1, tokens: list[Token] | None = None
) -> list[Fence]:
    """The directive fences at the top level of ``text`` (whose first line is line ``first_line`` of the
    page; ``tokens``: its block tokens, when already parsed), with the fences inside those named in
    ``expand``."""
    lines = text.splitlines()
    fences = []
    for token in block_tokens(text, md) if tokens is None else tokens:
        name = directive_name(token)
        if name is None or token.level != 0 or token.map is None:
            continue
        start, end = token.map
        last = lines[end - 1] if start < end - 1 < len(lines) else ""
        closed = _is_closing(last, token.markup)
        inner = tuple(directive_fences(token.content, md, (), first_line + start + 1)) if name in expand else ()
        fences.append(
            Fence(
                name=name,
                opening=lines[start].strip() if start < len(lines) else "",
                markup=token.markup,
                line=first_line + start,
                close=first_line + end - 1 if closed else None,
                inner=inner,
            )
        )
    return fences


def _is_closing(line: str, markup: str) -> bool:
    """Whether ``line`` closes a fence opened with ``markup``: at least as many of its characters, nothing
    else, indented less than a code block."""
    text = line.strip()
    indent = len(line) - len(line.lstrip(" "))
    return bool(markup) and indent < 4 and len(text) >= len(markup) and set(text) == {markup[0]}
