"""The workarounds of ``write/fixes/`` (issue 43, item 7): each names its package, versions and issue in
``compat.WORKAROUNDS``, runs only there, and is described in ``docs/explanation/workarounds.md``.

The guard tests here fail when upstream fixes the behaviour a workaround corrects or changes the private
shape it relies on: CI says so, not a warning in a user's strict build. The guards that need a whole build
live beside the feature's own test: ``test_formats.py`` (singlehtml anchors, the ePub's svg property),
``test_exports.py`` (the search by key), ``test_incremental.py`` (the search index's empty words,
``.buildinfo.bak``).
"""

from __future__ import annotations

import ast
import inspect
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from sphinx.util.console import strip_colors

from sphinx_contributions import compat
from sphinx_contributions.compat import WORKAROUNDS, Workaround, in_range, needed

from .conftest import REPO, ROOTS, MakeApp
from .wiring import unwire

FIXES = REPO / "sphinx_contributions" / "write" / "fixes"
MANUAL = REPO / "docs" / "explanation" / "workarounds.md"
#: the workarounds that live in a module of another name
MODULE_OF = {"opengraph_json": "opengraph_fields"}
SITEMAP = "sphinx_sitemap"


# -- the table ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(WORKAROUNDS))
def test_each_workaround_applies_to_the_installed_stack(name: str) -> None:
    """A release outside a workaround's range turns it off in silence: when this fails, run the workaround's
    guard test without it on the new release, then widen the range (still broken) or end it (fixed)."""
    workaround = WORKAROUNDS[name]
    assert needed(name), f"{workaround.package} {compat.installed(workaround.package)} not in {workaround.versions}"


@pytest.mark.parametrize("name", sorted(WORKAROUNDS))
def test_each_workaround_asks_for_its_range_and_names_it(name: str) -> None:
    """Its module asks :func:`compat.needed` and names the package, the versions and the upstream issue."""
    source = (FIXES / f"{MODULE_OF.get(name, name)}.py").read_text(encoding="utf-8")
    assert f'needed("{name}")' in source
    workaround = WORKAROUNDS[name]
    upstream = workaround.issue or "no upstream issue found"
    line = f"Workaround ``{name}``: {workaround.package} ``{workaround.versions}``; upstream: {upstream}."
    assert line in (ast.get_docstring(ast.parse(source)) or "")


def test_the_manual_describes_every_workaround() -> None:
    """One section per workaround, with its package, versions and issue, and a change to send upstream."""
    text = MANUAL.read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## `(\w+)`\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL))
    assert sorted(sections) == sorted(WORKAROUNDS)
    for name, workaround in WORKAROUNDS.items():
        section = sections[name]
        assert f"{workaround.package} `{workaround.versions}`" in section, name
        assert (workaround.issue or "No upstream issue found") in section, name
        assert "Upstream fix:" in section, name
    assert "workarounds" in (MANUAL.parent / "index.md").read_text(encoding="utf-8")


def test_a_version_outside_a_range_or_not_installed_is_not_in_it() -> None:
    assert in_range("sphinx", ">=1")
    assert not in_range("sphinx", "<1")
    assert not in_range("no-such-package-here", ">=0")


def test_outside_their_ranges_the_workarounds_change_nothing_and_say_nothing(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every workaround out of range: no warning, the search names write-ups by their titles (Sphinx's own
    index), and sphinx-sitemap keeps its handlers and writes its own sitemap."""
    for name, workaround in WORKAROUNDS.items():
        monkeypatch.setitem(WORKAROUNDS, name, Workaround(workaround.package, "<0", ""))
    shutil.copytree(ROOTS / "test-listing", tmp_path / "src")
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True, status=StringIO(), warning=StringIO())
    modules = {listener.handler.__module__ for listener in app.events.listeners["build-finished"]}
    assert "sphinx_sitemap" in modules
    app.build()
    assert app.warning.getvalue() == ""
    text = (Path(app.outdir) / "searchindex.js").read_text(encoding="utf-8")
    assert '"Beta feature"' in text and '"beta#2"' not in text
    assert "sitemap.xml was generated for URL https://example.org/portfolio/" in strip_colors(app.status.getvalue())


# -- the shapes the workarounds rely on, in the installed releases ------------------------------------------


def test_sphinx_s_search_indexer_has_the_tables_the_search_fixes_use(make_app: MakeApp, tmp_path: Path) -> None:
    """``search_index`` and ``search_objects``: ``IndexBuilder._mapping`` and ``_title_mapping`` (word → set
    of pages), ``_objtypes`` ((domain, type) → index) and ``get_objects(fn2index)``."""
    shutil.copytree(ROOTS / "test-listing", tmp_path / "src")
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True, status=StringIO(), warning=StringIO())
    app.build()
    indexer = app.builder.indexer  # type: ignore[attr-defined]
    for table in (indexer._mapping, indexer._title_mapping):
        assert isinstance(table, dict) and all(isinstance(pages, set) for pages in table.values())
    assert ("contrib", "contribution") in indexer._objtypes
    assert list(inspect.signature(indexer.get_objects).parameters) == ["fn2index"]


def test_sphinx_s_prune_still_leaves_empty_words() -> None:
    """``search_index``: ``IndexBuilder.prune`` keeps a word whose pages all went, as an empty set."""
    from sphinx.search import IndexBuilder

    indexer = IndexBuilder.__new__(IndexBuilder)
    indexer._titles, indexer._all_titles, indexer._filenames = {}, {}, {}
    indexer._mapping, indexer._title_mapping = {"gone": {"a"}, "kept": {"a", "b"}}, {"gone": {"a"}}
    indexer.prune(["b"])
    assert indexer._mapping == {"gone": set(), "kept": {"b"}}
    assert indexer._title_mapping == {"gone": set()}


def test_sphinx_sitemap_s_handlers_are_found_by_their_module(make_app: MakeApp, tmp_path: Path) -> None:
    """``sitemap``: sphinx-sitemap's handlers, among Sphinx's listeners (``app.events.listeners``), come from
    its module; with ``contributions_sitemap`` they are gone, and the extension writes the one sitemap."""
    shutil.copytree(ROOTS / "test-listing", tmp_path / "src")

    def sitemap_events(app: object) -> set[str]:
        listeners = app.events.listeners  # type: ignore[attr-defined]
        return {
            event for event, rows in listeners.items() for row in rows if row.handler.__module__ == "sphinx_sitemap"
        }

    theirs = make_app("html", srcdir=tmp_path / "src", confoverrides={"contributions_sitemap": False})
    assert sitemap_events(theirs) == {"builder-inited", "html-page-context", "build-finished"}
    ours = make_app("html", srcdir=tmp_path / "src", freshenv=True, status=StringIO(), warning=StringIO())
    assert sitemap_events(ours) == set()


def test_sphinxext_opengraph_still_escapes_only_quotes() -> None:
    """``opengraph_fields``: its ``make_tag`` replaces ``"`` and nothing else (sphinxext-opengraph#49)."""
    from sphinxext.opengraph import make_tag

    assert make_tag("og:title", 'R&D <b> "q"') == '<meta property="og:title" content="R&D <b> &quot;q&quot;" />'


def _json_site(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx_contributions", "sphinxext.opengraph"]\n'
        'ogp_site_url = "https://example.org/"\nogp_social_cards = {"enable": False}\n',
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Home\n\nText.\n", encoding="utf-8")
    return src


@pytest.mark.parametrize("fixed", [True, False], ids=["fixed", "guard"])
def test_a_json_build_with_opengraph(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixed: bool
) -> None:
    """``opengraph_json``: sphinxext-opengraph reads ``context['pagename']``, which ``json`` does not give."""
    from sphinx_contributions.write.fixes import opengraph_fields

    if not fixed:
        unwire(monkeypatch, opengraph_fields.name_the_page)
    app = make_app("json", srcdir=_json_site(tmp_path), freshenv=True, status=StringIO(), warning=StringIO())
    if fixed:
        app.build()
        assert (Path(app.outdir) / "index.fjson").is_file()
    else:
        with pytest.raises(Exception, match="pagename"):
            app.build()


def test_sphinx_alone_shows_a_page_s_warnings_only_when_it_reads_it(make_app: MakeApp, tmp_path: Path) -> None:
    """``lasting_warnings``: without it, the next build with nothing changed says nothing of the warning."""
    (tmp_path / "conf.py").write_text("", encoding="utf-8")
    (tmp_path / "index.rst").write_text("Home\n====\n\n:ref:`nowhere`\n", encoding="utf-8")
    seen = []
    for freshenv in (True, False):
        app = make_app("html", srcdir=tmp_path, freshenv=freshenv, status=StringIO(), warning=StringIO())
        app.build()
        seen.append("undefined label: 'nowhere'" in app.warning.getvalue())
    assert seen == [True, False]


def test_sphinx_alone_writes_and_links_an_empty_index(make_app: MakeApp, tmp_path: Path) -> None:
    """``empty_index``: a site without an index entry still gets ``genindex.html``, linked from its pages."""
    (tmp_path / "conf.py").write_text("", encoding="utf-8")
    (tmp_path / "index.rst").write_text("Home\n====\n\nText.\n", encoding="utf-8")
    app = make_app("html", srcdir=tmp_path, freshenv=True, status=StringIO(), warning=StringIO())
    app.build()
    assert (Path(app.outdir) / "genindex.html").is_file()
    assert 'href="genindex.html"' in (Path(app.outdir) / "index.html").read_text(encoding="utf-8")


def test_sphinx_sitemap_alone_lists_only_the_pages_an_incremental_build_wrote(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """``sitemap``: without it (``contributions_sitemap`` off), an incremental build that rewrites one page
    writes a sitemap of that page alone (sphinx-sitemap#13)."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-listing", src)
    counts = []
    for freshenv in (True, False):
        app = make_app(
            "html",
            srcdir=src,
            freshenv=freshenv,
            confoverrides={"contributions_sitemap": False},
            status=StringIO(),
            warning=StringIO(),
        )
        app.build()
        counts.append((Path(app.outdir) / "sitemap.xml").read_text(encoding="utf-8").count("<loc>"))
        page = src / "a-1.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert counts[0] > counts[1] > 0, counts


def _guest(dest: Path, extensions: list[str]) -> Path:
    dest.mkdir(parents=True)
    (dest / "conf.py").write_text(
        f"extensions = {extensions!r}\n"
        'project = "Guest"\nogp_site_url = "https://example.org/"\nogp_social_cards = {"enable": False}\n'
        "notfound_urls_prefix = None\nsmartquotes = False\n",
        encoding="utf-8",
    )
    (dest / "index.rst").write_text('R&D <notes> "here"\n==================\n\nText.\n', encoding="utf-8")
    return dest


def test_a_guest_s_pages_are_as_without_the_extension(make_app: MakeApp, tmp_path: Path) -> None:
    """No workaround changes a page where the extension shows nothing: a site without write-ups, with
    sphinx-notfound-page (``notfound_urls_prefix = None``) and sphinxext-opengraph, gets the same 404 page
    and the same ``og:title`` (opengraph's own, raw) with the extension as without it (issue 44, item 3)."""
    pages = []
    for name, extensions in (("alone", []), ("with", ["sphinx_contributions"])):
        src = _guest(tmp_path / name, ["notfound.extension", "sphinxext.opengraph", *extensions])
        app = make_app("html", srcdir=src, freshenv=True, status=StringIO(), warning=StringIO())
        app.build()
        # (two apps in one process: the second's warnings are about nodes the first registered)
        assert "contrib" not in app.warning.getvalue()
        out = Path(app.outdir)
        pages.append({page: (out / page).read_text(encoding="utf-8") for page in ("404.html", "index.html")})
    assert pages[0] == pages[1]
    assert '<meta property="og:title" content="R&D <notes> &quot;here&quot;" />' in pages[1]["index.html"]
