"""One parse per page: the checks read the page as its parser got it (after every ``source-read``
handler), never the file again; a build with nothing to read reads no source."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sphinx.util.console import strip_colors

from .conftest import MakeApp

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
        "minimal.md:3: WARNING: Unknown directive type: 'contributon' [myst.directive_unknown]\n"
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
    from sphinx_contributions.sources import site_config

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
