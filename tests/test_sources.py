"""One parse per page: the checks read the page as its parser got it (after every ``source-read``
handler), never the file again; a build with nothing to read reads no source."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sphinx.util.console import strip_colors

from .conftest import MakeApp

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from sphinx.environment import BuildEnvironment

#: a write-up whose last section is never closed, and one whose header is misspelt: (page, the change,
#: the warnings of the build of the changed page)
BROKEN: dict[str, tuple[str, Callable[[str], str], str]] = {
    "unclosed": (
        "minimal.md",
        lambda text: text.removesuffix(":::\n"),
        "minimal.md:21: WARNING: the 'verification' section opened at line 21 is never closed, so it runs to the "
        "end of the page: close it with ':::' after its last line [contrib.nesting]",
    ),
    "misspelt": (
        "minimal.md",
        lambda text: text.replace("{contribution}", "{contributon}"),
        "minimal.md:3: WARNING: unknown directive 'contributon': did you mean 'contribution'? Write "
        "':::{contribution}'; until then the page is not a write-up and is not listed [contrib.unknown_name]\n"
        # the page is no write-up: the links to it find nothing
        "full.md:23: WARNING: {contrib} target not found: 'CTranslate2#2103' [contrib.unknown_key]\n"
        "index.md:16: WARNING: local id not found in doc 'minimal': 'fix' [myst.xref_missing]\n"
        "index.md:6: WARNING: {contrib} target not found: 'CTranslate2#2103' [contrib.unknown_key]\n"
        "index.md:14: WARNING: undefined label: 'ctranslate2-2103' [ref.ref]",
    ),
}

#: a conf.py line that makes a source-read handler put back what BROKEN took out
FIXER = """
def _fix(app, docname, source):
    if docname == "minimal":
        text = source[0]
        if not text.endswith(":::\\n"):
            text += ":::\\n"
        source[0] = text.replace("{contributon}", "{contribution}")


def setup(app):
    app.connect("source-read", _fix)
"""


@pytest.mark.parametrize("fixed", [True, False], ids=["fixed-by-source-read", "guard"])
@pytest.mark.parametrize("mistake", sorted(BROKEN))
def test_checks_read_the_page_a_source_read_handler_made(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, mistake: str, fixed: bool
) -> None:
    """On main the checks read the file again: a page a ``source-read`` handler fixed still warned."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    name, breaks, warning = BROKEN[mistake]
    page = srcdir / name
    page.write_text(breaks(page.read_text(encoding="utf-8")), encoding="utf-8")
    if fixed:
        with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
            conf.write(FIXER)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).replace(str(srcdir) + "/", "")
    assert warnings == ("" if fixed else warning + "\n")


def test_the_checks_read_pages_with_mysts_own_settings_object(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """The parser of the checks and the draft scan is set up from the object MyST's Sphinx extension made
    (``env.myst_config``), not from a copy of MyST's code that rebuilds it from the ``myst_*`` values; when
    that object is gone (a MyST release that moves it), a ``[contrib.compat]`` warning says what is lost."""
    from sphinx_contributions.read.sources import site_config

    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    app = make_app("dummy", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    assert site_config(app.env) is app.env.myst_config  # type: ignore[attr-defined]
    del app.env.myst_config  # type: ignore[attr-defined]
    assert site_config(app.env) is None
    from importlib.metadata import version

    assert strip_colors(app.warning.getvalue()) == (
        f"WARNING: myst-parser {version('myst-parser')} has no env.myst_config (the MdParserConfig its Sphinx "
        "extension makes): the structure checks and the draft scan read pages with MyST's defaults plus colon "
        "fences, not the site's myst_* settings (sphinx-contributions needs an update) [contrib.compat]\n"
    )


# -- the quick looks before a section's body is parsed ---------------------------------------------------

#: lines that could open a fence, and lines that could not, at the top of a text
FENCE_LIKE = [":::{note}", "   :::", "::::{metric} x", "```python", "~~~", "  ~~~~{note}", "```{fix}"]
NOT_FENCE = ["    :::{note}", "\t:::{note}", " \t```", "- :::{note}", "> ```", "::", "``", "~~ x", "text :::", ""]


@pytest.mark.parametrize("line", FENCE_LIKE)
def test_a_line_that_could_open_a_fence_is_seen(line: str) -> None:
    from sphinx_contributions.read.sources import may_hold_fences

    assert may_hold_fences(f"Some text.\n\n{line}\nmore\n")


@pytest.mark.parametrize("line", NOT_FENCE)
def test_a_line_that_cannot_open_a_fence_is_passed_over(line: str) -> None:
    from sphinx_contributions.read.sources import may_hold_fences

    assert not may_hold_fences(f"Some text.\n\n{line}\nmore\n")


#: (a section's body, the character of its fences, whether a directive fence of it may be left open)
OPEN_OR_CLOSED = [
    (":::{metric} Latency\n:before: 1\n:after: 2\n:::\n\nText.\n", ":", False),
    (":::{note}\nText.\n", ":", True),  # never closed: the section's own closing line closed it early
    (":::{note}\nText.\n::\n", ":", True),  # two colons close nothing
    ("::::{note}\nText.\n:::\n", ":", True),  # fewer colons than it opened with
    (":::{note}\nText.\n::::\n", ":", False),  # more is fine
    (":::{note}\nText.\n    :::\n", ":", True),  # a code block's line closes nothing
    (":::{note}\nText.\n::: x\n", ":", True),  # nor a line with text after the colons
    (":::{note}\nText.\n:::  \n", ":", False),
    (":::{note}\nText.\n::: \t\n", ":", False),  # spaces and tabs after the colons
    (":::{note}\nText.\n\t:::\n", ":", True),  # a tab before them: a code block's line
    (":::{note}\nText.\n", "`", False),  # another character: not this section's concern
    ("```{code-block} python\nx = 1\n", "`", True),
    ("```{code-block} python\nx = 1\n```\n", "`", False),
    ("    :::{note}\nText.\n", ":", False),  # a code block, not a fence
    (":::\nText.\n", ":", False),  # no directive: no name to report
]


@pytest.mark.parametrize(("body", "char", "expected"), OPEN_OR_CLOSED)
def test_the_quick_look_for_a_fence_left_open(body: str, char: str, expected: bool) -> None:
    from sphinx_contributions.read.sources import may_leave_open

    assert may_leave_open(body, char) is expected


#: pieces a section's body is made of: fences of each kind, indented, in lists and quotes, code blocks
PIECES = [*FENCE_LIKE, *NOT_FENCE, ":::", "::::", "```", "~~~", "text", "{note}", "", " ", "  - item", "1. x", ">"]
INDENTS = ["", " ", "  ", "   ", "    ", "\t"]


def _fences_at_top(text: str) -> list[tuple[str, bool]]:
    """(markup, closed) of each directive fence at the top of ``text``, as markdown-it reads it."""
    from sphinx_contributions.read.sources import directive_fences, markdown_parser

    return [(fence.markup, fence.close is not None) for fence in directive_fences(text, markdown_parser())]


def test_the_quick_looks_never_pass_over_a_fence() -> None:
    """What the quick looks pass over, markdown-it agrees with: a text they say holds no fence holds no
    directive fence at its top level, one they say leaves none open has none left open; the sections they
    pass over need no parse, and no warning about their fences is lost."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from sphinx_contributions.read.sources import may_hold_fences, may_leave_open

    openings = [f"{markup}{{note}}" for markup in (":::", "::::", "```", "````", "~~~")]

    @settings(max_examples=3000, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(INDENTS), st.sampled_from([*PIECES, *openings])), max_size=10))
    def check(lines: list[tuple[str, str]]) -> None:
        text = "\n".join(indent + line for indent, line in lines) + "\n"
        found = _fences_at_top(text)
        if not may_hold_fences(text):
            assert found == []
        for char in ":`~":
            if not may_leave_open(text, char):
                assert [markup for markup, closed in found if markup[0] == char and not closed] == []

    check()


def test_a_section_is_not_parsed_again(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks parse no page whose sections' fences stand in it as MyST ran them (they are told from
    each directive's text), and a section's body only when it may leave a fence open (its closing line
    then closed it early, which the checks explain). Before, each write-up was parsed once more, and each
    of its four sections again."""
    from sphinx_contributions.read import sources

    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    parsed: list[str] = []
    block_tokens = sources.block_tokens

    def counted(text: str, md: MarkdownIt) -> list[Token]:
        parsed.append(text)
        return block_tokens(text, md)

    monkeypatch.setattr(sources, "block_tokens", counted)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    assert parsed == []


#: (a page, the line MyST ran a section's directive at, the fence told from its text)
BLOCKS = [
    ("# T\n\n:::{fix}\nf\n:::\n", 3, ("fix", ":::{fix}", ":::", 3, 5, "f\n", 4)),
    ("# T\n\n:::{fix}\nf\n", 3, ("fix", ":::{fix}", ":::", 3, None, "f\n", 4)),  # never closed
    ("# T\n\n::::{fix}\n:::{note}\nn\n:::\n::::\n", 3, ("fix", "::::{fix}", "::::", 3, 7, ":::{note}\nn\n:::\n", 4)),
    (
        "# T\n\n:::{fix} Heading\n:class: x\n\nf\n:::\n",
        3,
        ("fix", ":::{fix} Heading", ":::", 3, 7, ":class: x\n\nf\n", 4),
    ),
    ("# T\n\n```{fix}\nf\n```\n", 3, ("fix", "```{fix}", "```", 3, 5, "f\n", 4)),
    ("# T\n\n  :::{fix}\n  f\n  :::\n", 3, None),  # indented: the page is parsed instead
    ("- x\n\n  :::{fix}\n  f\n  :::\n", 3, None),  # in a list item
    ("::::{note}\n:::{fix}\nf\n:::\n::::\n", 3, None),  # MyST gives a fence that opens a body the next line
    ("````{note}\n:::{fix}\nf\n````\n", 2, None),  # ends where the note ends, on a line that closes no colon fence
]


@pytest.mark.parametrize(("text", "line", "expected"), BLOCKS)
def test_a_sections_fence_told_from_its_directives_text(
    make_app: MakeApp,
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    line: int,
    expected: tuple[object, ...] | None,
) -> None:
    """The text MyST ran a section's directive with (noted as it runs) against the page's lines."""
    from sphinx_contributions.read import directives
    from sphinx_contributions.read.sources import PageSource, fence_of_block, page_being_read

    pages: list[PageSource] = []

    def kept(env: BuildEnvironment) -> PageSource:
        pages.append(page_being_read(env))
        return pages[-1]

    monkeypatch.setattr(directives, "page_being_read", kept)

    srcdir = tmp_path / "src"
    srcdir.mkdir()
    shutil.copy(rootdir / "test-contrib-pages" / "conf.py", srcdir)  # the page alone, with a root's settings
    (srcdir / "index.md").write_text(text, encoding="utf-8")
    app = make_app("dummy", srcdir=srcdir, freshenv=True)
    app.build()
    fence = fence_of_block(text.splitlines(), line, pages[0].blocks[line], "fix")
    told = (
        (fence.name, fence.opening, fence.markup, fence.line, fence.close, fence.body, fence.body_line)
        if fence
        else None
    )
    assert told == expected


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("a\nb\n", ["a", "b"]),
        ("a\nb", ["a", "b"]),
        ("a\r\nb\rc\n\n", ["a", "b", "c", ""]),
        ("a\u2028b\x0cc\x85d\n", ["a\u2028b\x0cc\x85d"]),  # breaks for str.splitlines, not for markdown-it
    ],
)
def test_lines_as_markdown_it_numbers_them(text: str, lines: list[str]) -> None:
    from sphinx_contributions.read.sources import source_lines

    assert source_lines(text) == lines


@pytest.mark.parametrize(
    ("text", "close"),
    [
        ("# T\n\n:::{fix}\nf\n:::\n", 5),
        ("# T\n\n:::{fix}\nf\n::: \t\n", 5),
        ("# T\n\n:::{fix}\nf\n\t:::\n", None),  # a code block's line in the body: never closed
        ("# T\n\n:::{fix}\nf\n    :::\n", None),
        ("# T\n\n::::{fix}\nf\n:::\n", None),
    ],
)
def test_a_fences_closing_line_as_markdown_it_reads_it(text: str, close: int | None) -> None:
    """Before, a last body line of colons after a tab counted as the closing line (``str.strip`` took the
    tab away), so a section never closed was not reported."""
    from sphinx_contributions.read.sources import directive_fences, markdown_parser

    assert [fence.close for fence in directive_fences(text, markdown_parser())] == [close]
