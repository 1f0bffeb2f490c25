"""The checks read the page as its parser got it (after every ``source-read`` handler), never the file
again, at the lines MyST gives its directives, by markdown-it's rules for a fence's lines: no second parse."""

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


# -- a fence's lines, by markdown-it's rule -------------------------------------------------------------

#: (a section's body, the character of its fences, the line of the directive fence of it left open)
OPEN_OR_CLOSED = [
    (":::{metric} Latency\n:before: 1\n:after: 2\n:::\n\nText.\n", ":", None),
    (":::{note}\nText.\n", ":", 1),  # never closed: the section's own closing line closed it early
    (":::{note}\nText.\n::\n", ":", 1),  # two colons close nothing
    ("::::{note}\nText.\n:::\n", ":", 1),  # fewer colons than it opened with
    (":::{note}\nText.\n::::\n", ":", None),  # more is fine
    (":::{note}\nText.\n    :::\n", ":", 1),  # a code block's line closes nothing
    (":::{note}\nText.\n::: x\n", ":", 1),  # nor a line with text after the colons
    (":::{note}\nText.\n:::  \n", ":", None),
    (":::{note}\nText.\n::: \t\n", ":", None),  # spaces and tabs after the colons
    (":::{note}\nText.\n\t:::\n", ":", 1),  # a tab before them: a code block's line
    (":::{note}\nText.\n", "`", None),  # another character: not this section's concern
    ("```{code-block} python\nx = 1\n", "`", 1),
    ("```{code-block} python\nx = 1\n```\n", "`", None),
    ("    :::{note}\nText.\n", ":", None),  # a code block, not a fence
    (":::\nText.\n", ":", None),  # no directive: no name to report
    ("```python\n:::{note}\n```\n:::{tip}\nx\n", ":", 4),  # a code block's lines are no fences
    (":::{note}\nx\n:::\n\n::::{tip}\ny\n:::\n", ":", 5),
]


@pytest.mark.parametrize(("body", "char", "expected"), OPEN_OR_CLOSED)
def test_a_fence_left_open_in_a_sections_body(body: str, char: str, expected: int | None) -> None:
    from sphinx_contributions.read.sources import left_open, source_lines

    lines = source_lines(body)
    assert left_open(lines, 1, len(lines) + 1, char) == expected


#: pieces a section's body is made of: fences of each kind, indented, code blocks, paragraphs
PIECES = [":::{note}", "   :::", "::::{metric} x", "```python", "~~~", "  ~~~~{note}", "```{fix}", "    :::{note}"]
PIECES += ["\t:::{note}", " \t```", "::", "``", "~~ x", "text :::", "", ":::", "::::", "```", "~~~", "text", "{note}"]
INDENTS = ["", " ", "  ", "   ", "    ", "\t"]


def _fences_by_markdown_it(text: str) -> list[tuple[int, int | None, bool]]:
    """(opening line, closing line or None, is a directive) of each fence at the top level of ``text``, as
    MyST's parser (markdown-it with colon fences) reads it: a fence that is closed holds one line less
    than its lines (the closing one)."""
    from sphinx_contributions.read.sources import block_tokens, directive_name, markdown_parser

    found = []
    for token in block_tokens(text, markdown_parser()):
        if token.type not in ("fence", "colon_fence") or token.level != 0 or token.map is None:
            continue
        start, end = token.map
        closed = token.content.count("\n") == end - start - 2
        found.append((start + 1, end if closed else None, directive_name(token) is not None))
    return found


def test_the_line_rules_read_fences_as_markdown_it_does() -> None:
    """Where each fence at the top of a text closes, and the first directive fence left open, read from
    the lines (:func:`closing_line`, :func:`left_open`) are what markdown-it's parse of the text says, for
    texts of fences, code blocks and paragraphs (lists and quotes hold their own blocks, and are not
    read: a fence in them is no section's concern)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from sphinx_contributions.read.sources import closing_line, fence_markup, left_open, source_lines

    @settings(max_examples=3000, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(INDENTS), st.sampled_from(PIECES)), max_size=10))
    def check(pieces: list[tuple[str, str]]) -> None:
        text = "\n".join(indent + line for indent, line in pieces) + "\n"
        lines = source_lines(text)
        fences = _fences_by_markdown_it(text)
        for opening, close, _ in fences:
            assert closing_line(lines, opening) == close
        for char in ":`~":
            first_open = next((f for f in fences if f[1] is None), None)
            expected = first_open[0] if first_open and first_open[2] else None
            if expected is not None and fence_markup(lines[expected - 1])[0] != char:
                expected = None
            assert left_open(lines, 1, len(lines) + 1, char) == expected

    check()


def test_a_section_is_not_parsed_again(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks parse no page: they read the sections' fences at the lines MyST ran them at. Before, each
    write-up was parsed once more, and each of its four sections again (then, where a section's fences did
    not stand in the page as MyST ran them, the page)."""
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
        ("# T\n\n```{fix}\nf\n```\n", 5),
        ("# T\n\n```{fix}\nf\n:::\n", None),
    ],
)
def test_a_fences_closing_line_as_markdown_it_reads_it(text: str, close: int | None) -> None:
    """Before, a last body line of colons after a tab counted as the closing line (``str.strip`` took the
    tab away), so a section never closed was not reported."""
    from sphinx_contributions.read.sources import closing_line, source_lines

    assert closing_line(source_lines(text), 3) == close
    assert [fence[1] for fence in _fences_by_markdown_it(text)] == [close]
