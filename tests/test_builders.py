"""What each builder gets: one table (:func:`sphinx_contributions.builders.output_of`) answers it, and the
builders that write HTML pages but no website (``json``, ``pickle``) get none of the site's extra files."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from sphinx_contributions.builders import output_of

from .conftest import MakeApp

#: what a json build of ``test-contrib-pages`` writes at the top of its output folder (the pickle build
#: the same with ``.fpickle`` and ``.pickle``): Sphinx's own files only, no contributions.json, feed,
#: schema, sitemap, tag or project pages
SERIALIZED = {
    ".buildinfo",
    "environment.pickle",
    "_sources",
    "_static",
    "escaping.fjson",
    "full.fjson",
    "genindex.fjson",
    "globalcontext.json",
    "index.fjson",
    "last_build",
    "minimal.fjson",
    "objects.inv",
    "search.fjson",
    "searchindex.json",
}


@pytest.mark.parametrize("builder", ["json", "pickle"])
def test_serializing_builders_write_no_site_files(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, builder: str
) -> None:
    """On main the json build stopped with a traceback (``Entry is not JSON serializable``: a generated
    project page's context) and the pickle build wrote contributions.json, the feed, a sitemap and
    project pages beside the pickles."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    extensions = ["myst_parser", "sphinx_contributions", "sphinx_sitemap"]
    overrides = {"extensions": extensions, "contributions_sitemap": True}  # the extension's writer
    app = make_app(builder, srcdir=srcdir, freshenv=True, confoverrides=overrides)
    app.build()
    assert app.warning.getvalue() == ""
    out = Path(app.outdir)
    expected = SERIALIZED
    if builder == "pickle":
        expected = {name.replace(".fjson", ".fpickle").replace(".json", ".pickle") for name in SERIALIZED}
    # and the extension's memory of what the output holds (sphinx_contributions/write/manifest.py)
    assert {path.name for path in out.iterdir()} == expected | {".contributions-written.json"}
    # the pages themselves keep the write-ups' links (a reference to another document of the output)
    suffix = ".fjson" if builder == "json" else ".fpickle"
    raw = (out / f"index{suffix}").read_bytes()
    page = json.loads(raw) if builder == "json" else pickle.loads(raw)
    assert '<a class="reference internal" href="full/#contribution" title="transformers#49135">' in page["body"]


def test_one_table_names_the_site_builders(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """Of every builder Sphinx and its bundled extensions register, html and dirhtml alone are sites; the
    books are those that hold every write-up."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    app: SphinxTestApp = make_app("dummy", srcdir=srcdir, freshenv=True)
    kinds = {}
    for name, cls in sorted(app.registry.builders.items()):
        kinds[name] = output_of(cls.__new__(cls))  # the class's name, format and bases: no set-up needed
    assert sorted(name for name, kind in kinds.items() if kind.site) == ["dirhtml", "html"]
    books = sorted(name for name, kind in kinds.items() if kind.book)
    assert books == ["epub", "latex", "man", "singlehtml", "texinfo"]
    assert sorted(name for name, kind in kinds.items() if kind.one_page) == ["singlehtml"]
    assert sorted(name for name, kind in kinds.items() if kind.inlines) == ["latex", "man", "singlehtml", "texinfo"]
    assert sorted(name for name, kind in kinds.items() if kind.epub) == ["epub"]
    assert sorted(name for name, kind in kinds.items() if kind.catalogs) == ["gettext"]
    pages = sorted(name for name, kind in kinds.items() if kind.pages)
    assert pages == ["applehelp", "devhelp", "dirhtml", "epub", "html", "htmlhelp", "json", "pickle", "qthelp"]
    no_links = sorted(name for name, kind in kinds.items() if not kind.links)
    assert no_links == ["changes", "dummy", "gettext", "linkcheck", "man", "pseudoxml", "text", "xml"]
    html = sorted(name for name, kind in kinds.items() if kind.html)
    assert html == [
        "applehelp",
        "devhelp",
        "dirhtml",
        "epub",
        "html",
        "htmlhelp",
        "json",
        "pickle",
        "qthelp",
        "singlehtml",
    ]


@pytest.mark.parametrize("builder", ["json", "pickle"])
def test_the_serializing_builders_build_the_portfolio(make_app: MakeApp, tmp_path: Path, builder: str) -> None:
    """With sphinxext-opengraph on (as the portfolio has it), ``-b json`` ended in ``KeyError: 'pagename'``
    inside opengraph: these builders give a page's context no ``pagename``."""
    from io import StringIO

    from .conftest import PORTFOLIO

    srcdir = tmp_path / "src"
    shutil.copytree(PORTFOLIO, srcdir)
    app = make_app(builder, srcdir=srcdir, freshenv=True, warningiserror=True, warning=StringIO())
    app.build()
    suffix = ".fjson" if builder == "json" else ".fpickle"
    assert (Path(app.outdir) / f"contributions/index{suffix}").is_file()
