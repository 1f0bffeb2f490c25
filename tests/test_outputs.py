"""What each output holds (the memory's ``files``, ``sphinx_contributions/write/manifest.py``):
after a write-up turns draft or is deleted, after the canonical URL goes and after an ``env`` setting
changes, an incremental build of html, dirhtml, singlehtml, epub and text holds what a clean build holds,
also when builders share one doctree folder and after ``-E`` over an existing output."""

from __future__ import annotations

import shutil
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sphinx.testing.util import SphinxTestApp

from tests.conftest import MakeApp
from tests.edits import edit, touch

CONF = (
    "extensions = ['myst_parser', 'sphinx_contributions']\n"
    "myst_enable_extensions = ['colon_fence']\n"
    "project = 'Outputs'\n"
    "html_title = 'Outputs'\n"
    "contributions_project_page_min = 1\n"  # a page for each project, each of one write-up
)

WRITEUP = """# {title}

:::{{contribution}}
:repo: owner/{name}
:pr: {pr}
:tags: caching, memory
:summary: A write-up of the outputs' tests.
:::

:::{{problem}}
p
:::

:::{{root-cause}}
r
:::

:::{{fix}}
f
:::

:::{{verification}}
v
:::
"""

INDEX = """# Outputs

```{toctree}
:glob:

contributions/*
```

:::{contributions}
:::
"""


def make_site(root: Path) -> Path:
    srcdir = root / "src"
    (srcdir / "contributions").mkdir(parents=True)
    (srcdir / "conf.py").write_text(CONF, encoding="utf-8")
    (srcdir / "index.md").write_text(INDEX, encoding="utf-8")
    (srcdir / "contributions" / "index.md").write_text("# All\n\n:::{contributions}\n:::\n", encoding="utf-8")
    for name, pr in (("alpha", 1), ("beta", 2)):
        text = WRITEUP.format(title=f"Fix {name}", name=name, pr=pr)
        (srcdir / "contributions" / f"{name}.md").write_text(text, encoding="utf-8")
    return srcdir


def build(make_app: MakeApp, builder: str, srcdir: Path, builddir: Path, **kwargs: object) -> SphinxTestApp:
    app = make_app(builder, srcdir=srcdir, builddir=builddir, status=StringIO(), warning=StringIO(), **kwargs)
    app.build()
    return app


def listing(outdir: Path) -> set[str]:
    """Every file and folder of an output, but Sphinx's bookkeeping and an ePub's own package (the
    extension's memory of what the output holds is listed: both builds write it)."""
    return {
        path.relative_to(outdir).as_posix()
        for path in outdir.rglob("*")
        if path.name not in {".buildinfo", ".buildinfo.bak"} and path.suffix != ".epub"
    }


def withdraw(srcdir: Path, how: str) -> None:
    page = srcdir / "contributions" / "beta.md"
    if how == "draft":
        edit(page, ":pr: 2\n", ":pr: 2\n:status: draft\n")
    else:
        page.unlink()
        touch(srcdir / "index.md")


BUILDERS = ("html", "dirhtml", "singlehtml", "epub", "text")


@pytest.mark.parametrize("how", ["draft", "deleted"])
@pytest.mark.parametrize("builder", BUILDERS)
def test_a_withdrawn_writeup_leaves_every_output(make_app: MakeApp, tmp_path: Path, builder: str, how: str) -> None:
    srcdir = make_site(tmp_path / "site")
    builddir = tmp_path / "build"
    build(make_app, builder, srcdir, builddir)
    withdraw(srcdir, how)
    app = build(make_app, builder, srcdir, builddir)
    clean_src = tmp_path / "clean"
    shutil.copytree(srcdir, clean_src)
    clean = build(make_app, builder, clean_src, tmp_path / "clean-build", freshenv=True)
    assert listing(Path(app.outdir)) == listing(Path(clean.outdir))
    if builder == "epub":  # what the ePub packs: the ePub builder packs every file of its folder
        (packed,) = Path(app.outdir).glob("*.epub")
        (clean_packed,) = Path(clean.outdir).glob("*.epub")
        with zipfile.ZipFile(packed) as first, zipfile.ZipFile(clean_packed) as second:
            assert sorted(first.namelist()) == sorted(second.namelist())
            assert not any("beta" in name for name in first.namelist())


def test_html_and_dirhtml_on_one_doctree_folder_each_lose_the_page(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = make_site(tmp_path / "site")
    builddir = tmp_path / "build"  # one doctree folder: build/doctrees, as sphinx-quickstart lays it out
    build(make_app, "html", srcdir, builddir)
    build(make_app, "dirhtml", srcdir, builddir)
    withdraw(srcdir, "deleted")
    html = build(make_app, "html", srcdir, builddir)  # this one sees Sphinx's "removed"
    dirhtml = build(make_app, "dirhtml", srcdir, builddir)  # this one does not: the env is current
    assert not (Path(html.outdir) / "contributions" / "beta.html").exists()
    assert not (Path(dirhtml.outdir) / "contributions" / "beta").exists()
    assert not (Path(dirhtml.outdir) / "_sources" / "contributions" / "beta.md.txt").exists()


def test_a_fresh_environment_over_an_existing_output_loses_the_page(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = make_site(tmp_path / "site")
    builddir = tmp_path / "build"
    build(make_app, "html", srcdir, builddir)
    withdraw(srcdir, "deleted")
    app = build(make_app, "html", srcdir, builddir, freshenv=True)  # -E: Sphinx knows nothing was removed
    assert not (Path(app.outdir) / "contributions" / "beta.html").exists()


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_the_feed_goes_with_the_canonical_url(make_app: MakeApp, tmp_path: Path, builder: str) -> None:
    srcdir = make_site(tmp_path / "site")
    builddir = tmp_path / "build"
    first = build(make_app, builder, srcdir, builddir, confoverrides={"html_baseurl": "https://old.example/"})
    assert (Path(first.outdir) / "contributions.atom").is_file()
    app = build(make_app, builder, srcdir, builddir)
    assert not (Path(app.outdir) / "contributions.atom").exists()
    assert "old.example" not in (Path(app.outdir) / "contributions.json").read_text(encoding="utf-8")


def test_generated_pages_follow_an_env_setting(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = make_site(tmp_path / "site")
    builddir = tmp_path / "build"
    build(make_app, "html", srcdir, builddir)
    app = build(make_app, "html", srcdir, builddir, confoverrides={"language": "de"})
    for page in ("tags/caching.html", "projects/alpha.html"):
        text = (Path(app.outdir) / page).read_text(encoding="utf-8")
        assert '<html lang="de"' in text, page


def test_generated_pages_follow_the_list_page(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = make_site(tmp_path / "site")
    (srcdir / "work").mkdir()
    (srcdir / "work" / "index.md").write_text("# Work\n\n:::{contributions}\n:::\n", encoding="utf-8")
    edit(srcdir / "index.md", "contributions/*\n", "contributions/*\nwork/index\n")
    builddir = tmp_path / "build"
    build(make_app, "html", srcdir, builddir)
    app = build(make_app, "html", srcdir, builddir, confoverrides={"contributions_index": "work/index"})
    clean = build(
        make_app, "html", srcdir, tmp_path / "clean", freshenv=True, confoverrides={"contributions_index": "work/index"}
    )
    page = "tags/caching.html"
    assert (Path(app.outdir) / page).read_text(encoding="utf-8") == (Path(clean.outdir) / page).read_text(
        encoding="utf-8"
    )


def test_a_project_intro_links_and_shows_its_image_from_the_project_page(make_app: MakeApp, tmp_path: Path) -> None:
    """The intro's own links and image, on each page that shows it: ``{doc}``, ``{ref}``, ``{contrib}`` and
    a Markdown link were written relative to the overview page (``href="about.html"`` on
    ``projects/alpha.html``, a 404); the test asserted ``'href="../about.html"' in page``, which the
    sidebar's own link satisfied."""
    srcdir = make_site(tmp_path / "site")
    (srcdir / "about.md").write_text("(about-label)=\n# About\n\nText.\n", encoding="utf-8")
    png = bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
    (srcdir / "logo.png").write_bytes(png)
    overview = (
        "# Open source\n\n::::{projects}\n\n:::{project} alpha\n"
        "See {doc}`about`, {ref}`about-label`, {contrib}`alpha#1`, [the list](contributions/index.md) and "
        "[about](about.md).\n\n"
        "![logo](logo.png)\n:::\n\n::::\n"
    )
    (srcdir / "open-source.md").write_text(overview, encoding="utf-8")
    edit(srcdir / "index.md", "contributions/*\n", "contributions/*\nabout\nopen-source\n")
    app = build(
        make_app,
        "html",
        srcdir,
        tmp_path / "build",
        freshenv=True,
        confoverrides={"contributions_project_page_min": 1},
    )  # used to end in an exception
    assert app.warning.getvalue() == ""
    out = Path(app.outdir)
    shown = {}
    for page, intro_selector in (
        ("projects/alpha.html", ".contrib-project-intro"),
        ("open-source.html", "section#project-alpha"),
    ):
        html = BeautifulSoup((out / page).read_text(encoding="utf-8"), "html.parser")
        intro = html.select_one(intro_selector)
        assert intro is not None, page
        shown[page] = (
            [str(a["href"]) for a in intro.select("p a.reference.internal") if "contrib-title-link" not in a["class"]],
            [str(img["src"]) for img in intro.select("img")],
        )
    assert shown == {
        "projects/alpha.html": (
            [
                "../about.html",
                "../about.html#about-label",
                "../contributions/alpha.html#contribution",
                "../contributions/index.html",
                "../about.html",
            ],
            ["../_images/logo.png"],
        ),
        "open-source.html": (
            [
                "about.html",
                "about.html#about-label",
                "contributions/alpha.html#contribution",
                "contributions/index.html",
                "about.html",
            ],
            ["_images/logo.png"],
        ),
    }
    for page, (hrefs, _) in shown.items():  # each lands on a file of the site
        for href in hrefs:
            assert (out / page).parent.joinpath(href.partition("#")[0]).resolve().is_file(), (page, href)
    assert (out / "_images" / "logo.png").is_file()


def overview_site(root: Path) -> Path:
    srcdir = make_site(root)
    overview = "# Open source\n\n::::{projects}\n\n:::{project} alpha\nThe first intro.\n:::\n\n::::\n"
    (srcdir / "open-source.md").write_text(overview, encoding="utf-8")
    edit(srcdir / "index.md", "contributions/*\n", "contributions/*\nopen-source\n")
    return srcdir


def test_a_project_page_follows_its_intro(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = overview_site(tmp_path / "site")
    builddir = tmp_path / "build"
    build(make_app, "html", srcdir, builddir)
    edit(srcdir / "open-source.md", "The first intro.", "The second intro.")
    app = build(make_app, "html", srcdir, builddir)
    page = (Path(app.outdir) / "projects" / "alpha.html").read_text(encoding="utf-8")
    assert "The second intro." in page and "The first intro." not in page


RAISER = """
import pathlib
def _raise(app, doctree, docname):
    if docname == "index" and (pathlib.Path(app.srcdir) / "RAISE").exists():
        raise RuntimeError("stopped while writing")
def setup(app):
    app.connect("doctree-resolved", _raise)
"""


def test_a_build_stopped_while_writing_leaves_no_claim(make_app: MakeApp, tmp_path: Path) -> None:
    """What each output holds becomes the memory only when every page was written: a build stopped by an
    exception while writing the list leaves the list to the next build."""
    srcdir = make_site(tmp_path / "site")
    (srcdir / "conf.py").write_text(CONF + RAISER, encoding="utf-8")
    builddir = tmp_path / "build"
    build(make_app, "html", srcdir, builddir)
    edit(srcdir / "contributions" / "alpha.md", "# Fix alpha", "# Fix alpha again")
    (srcdir / "RAISE").write_text("", encoding="utf-8")
    with pytest.raises(Exception, match="stopped while writing"):
        build(make_app, "html", srcdir, builddir)
    (srcdir / "RAISE").unlink()
    app = build(make_app, "html", srcdir, builddir)  # Sphinx dropped its environment: every page is read
    assert "Fix alpha again" in (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    # a generated page is written only when what it shows changed since this output was written: had the
    # stopped build claimed it, the tag page would keep the old title
    assert "Fix alpha again" in (Path(app.outdir) / "tags" / "caching.html").read_text(encoding="utf-8")


def test_sitemap_excludes_match_a_link_as_written_or_percent_decoded(make_app: MakeApp, tmp_path: Path) -> None:
    """``my notes.md`` is linked as ``my%20notes.html``: an exclude written as the reader reads the name
    (``my notes.html``) leaves it out too (``write/fixes/sitemap.py``, the sitemap's writer where
    ``contributions_sitemap`` is on; off, sphinx-sitemap's own writes it)."""
    srcdir = make_site(tmp_path / "site")
    for name in ("my notes", "kept"):
        (srcdir / f"{name}.md").write_text(f"---\norphan: true\n---\n# {name}\n\nText.\n", encoding="utf-8")
    overrides = {
        "extensions": ["myst_parser", "sphinx_contributions", "sphinx_sitemap"],
        "html_baseurl": "https://example.org/",
        "sitemap_url_scheme": "{link}",
        "sitemap_excludes": ["my notes.html", "genindex.html", "search.html"],
        "contributions_sitemap": True,
    }
    app = build(make_app, "html", srcdir, tmp_path / "build", freshenv=True, confoverrides=overrides)
    sitemap = (Path(app.outdir) / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/kept.html</loc>" in sitemap
    assert "notes" not in sitemap


def test_a_book_shows_the_cards_of_a_project_whose_write_ups_come_later(make_app: MakeApp, tmp_path: Path) -> None:
    """A book (singlehtml) whose projects overview comes before the write-ups: each project shows its
    cards; only a listing whose write-ups were all shown before becomes one line of links
    (``write/books.py``; a mutant that made every project one line survived the sampled mutation run)."""
    srcdir = make_site(tmp_path / "site")
    (srcdir / "contributions" / "index.md").unlink()
    (srcdir / "index.md").write_text(
        "# Outputs\n\n```{toctree}\n:glob:\n\nopen-source\ncontributions/*\n```\n", encoding="utf-8"
    )
    (srcdir / "open-source.md").write_text(
        "# Open source\n\n::::{projects}\n\n:::{project} alpha\nThe alpha project.\n:::\n\n::::\n", encoding="utf-8"
    )
    app = build(make_app, "singlehtml", srcdir, tmp_path / "build", freshenv=True)
    assert app.warning.getvalue() == ""
    book = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    assert "contrib-listing-once" not in book
    assert "Fix alpha" in book


def test_the_build_report_follows_each_build(make_app: MakeApp, tmp_path: Path) -> None:
    """``contributions-report.html.json`` is written only when its bytes change, and then it is: after a
    title changes, the next build's report holds the new title (a mutant that kept the first report
    survived the sampled mutation run)."""
    import json

    from sphinx_contributions.write.report import report_path

    srcdir = make_site(tmp_path / "site")
    builddir = tmp_path / "build"
    first = build(make_app, "html", srcdir, builddir)
    path = report_path(first.doctreedir, "html")
    titles = {record["title"] for record in json.loads(path.read_text(encoding="utf-8"))["records"]}
    assert titles == {"Fix alpha", "Fix beta"}
    edit(srcdir / "contributions" / "beta.md", "# Fix beta\n", "# Fix the beta\n")
    build(make_app, "html", srcdir, builddir)
    titles = {record["title"] for record in json.loads(path.read_text(encoding="utf-8"))["records"]}
    assert titles == {"Fix alpha", "Fix the beta"}
