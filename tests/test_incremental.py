"""Incremental, parallel and reproducible builds write exactly what a clean build writes.

Each test builds a copy of ``tests/roots/test-portfolio`` (a portfolio like the repository's) with
``python -m sphinx -b html`` in a subprocess (so ``-j`` forks real workers) and compares the whole output
trees with :mod:`treediff`: every page, ``objects.inv``, ``searchindex.js``, ``sitemap.xml``,
``contributions.json``, ``contributions.atom`` and the tag and project pages.

The ``GUARDS`` tests remove one piece of guarding code at a time (in the build process only, see
``SABOTAGE``) and check that the matching equality test would then fail: each test is shown to
test something.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import ROOTS, SITE_URL, copy_site
from .edits import edit, touch
from .treediff import first_difference

#: written by every HTML build whatever changed: Sphinx's genindex and search pages, the 404 page
ALWAYS_WRITTEN = re.compile(r"^(genindex|search|404)\.html$")

#: code run in the build process before Sphinx starts, removing one guard (see test_guard_is_needed)
_MEMORY = "import sphinx_contributions.write.manifest as m; "
_FIX = "import sphinx_contributions.write.fixes.{} as f; "
_DOMAIN = "from sphinx_contributions.collect.domain import ContributionsDomain as D; "
SABOTAGE = {
    "env-get-updated": _MEMORY + "m.updated = lambda app, env: []",
    # one part of what pages show of each other left out of the digest
    "records": _MEMORY + "del m.PARTS['records']",
    "titles": _MEMORY + "del m.PARTS['titles']",
    "navigation": _MEMORY + "del m.PARTS['navigation']",
    "intros": _MEMORY + "del m.PARTS['intros']",
    "output-removal": _MEMORY + "m.start_writing = lambda app, builder: None",
    "search-prune": _FIX.format("search_index") + "f.prune_search_index = lambda app: []",
    "sitemap-complete": _FIX.format("sitemap") + "f.write_sitemap = lambda app, exc: None",
    "clear_doc": _DOMAIN + "D.clear_doc = lambda self, docname: None",
    "merge_domaindata": _DOMAIN + "D.merge_domaindata = lambda self, docnames, other: None",
    # tag and project pages skipped whenever their file exists, without looking at what they show
    "generated-skip": "import sphinx_contributions.write.generated as m; import pathlib; "
    "m.generated_page_is_current = lambda app, page: "
    "(pathlib.Path(app.outdir) / app.builder.get_target_uri(page)).is_file()",
    # the memory kept in the doctree folder, per builder and output folder (as before 2026-12-03)
    "memory-in-doctrees": "import sphinx_contributions.write.manifest as w; import pathlib; "
    "w._path = lambda app: pathlib.Path(app.doctreedir) / 'contributions-written.json'; "
    "w._key = lambda app: f'{app.builder.name}:{app.outdir}'",
    # Sphinx's .buildinfo.bak left in an ePub's folder
    "buildinfo-backup": _FIX.format("epub_bookkeeping") + "f.drop_buildinfo_backup = lambda app, builder: None",
}
RUNNER = "import sys; exec(sys.argv[1]); from sphinx.cmd.build import main; sys.exit(main(sys.argv[2:]))"


def build(
    src: Path,
    out: Path,
    *extra: str,
    sabotage: str = "",
    strict: bool = True,
    builder: str = "html",
    doctrees: Path | None = None,
) -> str:
    """Build ``src`` into ``out/<builder>`` (doctrees in ``out/doctrees`` unless told), strictly unless told;
    return the log."""
    command = [
        sys.executable, "-c", RUNNER, SABOTAGE[sabotage] if sabotage else "",
        "-T", *(["-W", "--keep-going"] if strict else []), "-b", builder, "-d", str(doctrees or out / "doctrees"),
        # no write-ups in the sidebar: listing their titles on every page makes a title change rewrite
        # every page, which would hide what each guard below keeps (tests/test_navigation.py checks it)
        "-D", "contributions_sidebar_limit=0",
        *extra, str(src), str(out / builder),
    ]  # fmt: skip
    # as Read the Docs builds it: with a canonical URL, so the sitemap, feed and cards are written too
    environ = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"} | {
        "READTHEDOCS_CANONICAL_URL": SITE_URL
    }
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=environ)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return done.stdout


def html_mtimes(html: Path) -> dict[str, int]:
    return {p.relative_to(html).as_posix(): p.stat().st_mtime_ns for p in html.rglob("*.html")}


# -- the kinds of change -----------------------------------------------------------------------------


def edit_body(src: Path) -> None:
    # "unaffected" is in no other page: the search index must drop it, not keep it as an empty entry
    edit(src / "contributions/beta-202.md", "was unaffected, since", "was not affected, since")


def edit_title(src: Path) -> None:
    # beta-202 links to this page with {contrib}; the home page's section link shows its title
    edit(src / "contributions/alpha-101.md", "# Add per-layer tables", "# Add per-layer model tables")


def edit_nav_title(src: Path) -> None:
    # a page in the toctree: every page's sidebar (furo) and its neighbours' prev/next links show it
    edit(src / "about/index.md", "# About", "# About me")


def edit_tag(src: Path) -> None:
    # one tag renamed: tags/hot-path.html goes, tags/hot-loop.html comes
    edit(src / "contributions/gamma-303.md", "hot path", "hot loop")


def edit_metric(src: Path) -> None:
    edit(src / "contributions/beta-202.md", ":after: ~1.91e-6", ":after: ~2.5e-6")


NEW_PAGE = """\
# Speed up the gamma hot path

:::{contribution}
:repo: example/gamma
:pr: 304
:status: open
:tags: hot path, kernels
:date: 2026-02-01
:summary: A fused kernel for the gamma decode step.
:::

:::{problem}
Decode spent most of its time gathering pages.
:::

:::{root-cause}
One kernel launch per page.
:::

:::{fix}
One fused kernel; follows {contrib}`gamma#303`.
:::

::::{verification}
:::{metric} Decode step
:before: 12
:after: 7.5
:unit: ms
:::
::::
"""


def add_caption(src: Path) -> None:
    # the root's toctree gets a caption: furo shows it above the navigation of every page
    edit(src / "index.md", "```{toctree}\n:hidden:\n", "```{toctree}\n:hidden:\n:caption: Portfolio\n")


def link_from_about(src: Path) -> None:
    # a {contrib} link from a page that is neither a listing nor a neighbour of the linked write-up
    path = src / "about/index.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nSee {contrib}`gamma#303`.\n", encoding="utf-8")


def edit_far_title(src: Path) -> None:
    edit(src / "contributions/gamma-303.md", "# Gamma option", "# Gamma options")


def add_page(src: Path) -> None:
    (src / "contributions/gamma-304.md").write_text(NEW_PAGE, encoding="utf-8")
    touch(src / "contributions/gamma-304.md")


def delete_page(src: Path) -> None:
    # the project's last write-up: its intro on the open-source page goes too (left, it would warn
    # that it names no project with a write-up)
    (src / "contributions/gamma-303.md").unlink()
    overview = src / "open-source/index.md"
    text = overview.read_text(encoding="utf-8")
    start = text.index(":::{project} gamma")
    overview.write_text(text[:start] + text[text.index(":::\n", start) + 4 :], encoding="utf-8")
    touch(overview)


DOC_LINK = "\nHow the option was fixed: {doc}`/contributions/gamma-303`.\n"


def add_doc_link(src: Path) -> None:
    """The portfolio's one untitled ``{doc}`` link names a page in the navigation, whose title changes
    rewrite every page anyway (``nav-rewrite``): the about page gets one to a write-up, outside it."""
    path = src / "about/index.md"
    path.write_text(path.read_text(encoding="utf-8") + DOC_LINK, encoding="utf-8")


def edit_doc_title(src: Path) -> None:
    # the about page shows this title through its {doc} link (see add_doc_link)
    edit(src / "contributions/gamma-303.md", "# Gamma option", "# Gamma options")


def rename_page(src: Path) -> None:
    # beta-202 links to it: the link's URL changes; the old page's output goes
    (src / "contributions/alpha-101.md").rename(src / "contributions/alpha-tables.md")
    touch(src / "contributions/alpha-tables.md")


def link_section_from_about(src: Path) -> None:
    # an untitled {contrib} link to a section, from a page that lists nothing: it shows the section's heading
    path = src / "about/index.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nSee {contrib}`alpha#101#root-cause`.\n", encoding="utf-8")


def edit_section_heading(src: Path) -> None:
    # the about page links to this section (see link_section_from_about)
    edit(src / "contributions/alpha-101.md", ":::{root-cause}\n", ":::{root-cause} Where the layouts split\n")


def edit_static(src: Path) -> None:
    # every page links the site's stylesheet with its checksum (portfolio.css?v=…), which Sphinx alone
    # leaves stale in the pages it does not rewrite
    path = src / "_static/portfolio.css"
    path.write_text(path.read_text(encoding="utf-8") + "\n.contrib-test-rule { color: inherit; }\n", "utf-8")


CHANGES: dict[str, Callable[[Path], None]] = {
    "body": edit_body,
    "title": edit_title,
    "far-title": edit_far_title,
    "nav-title": edit_nav_title,
    "tag": edit_tag,
    "metric": edit_metric,
    "add": add_page,
    "delete": delete_page,
    "rename": rename_page,
    "doc-title": edit_doc_title,
    "section-heading": edit_section_heading,
    "caption": add_caption,
    "static": edit_static,
}
#: what a change needs in the copy of the site before its first build
PREPARE: dict[str, Callable[[Path], None]] = {
    "far-title": link_from_about,
    "doc-title": add_doc_link,
    "section-heading": link_section_from_about,
}

#: pages (besides ALWAYS_WRITTEN) an incremental build may write after each change: what depends on it (a
#: change of what pages show of each other rewrites every page, write/manifest.py)
DEPENDENTS = {"body": {"contributions/beta-202.html"}}


def incremental_and_clean(tmp_path: Path, change: str, sabotage: str = "") -> tuple[Path, Path, set[str]]:
    """Build, apply ``change``, build again (incrementally) and from scratch; return both output folders
    and the pages the incremental build wrote."""
    src = copy_site(tmp_path / "src")
    if change in PREPARE:
        PREPARE[change](src)
    build(src, tmp_path / "inc", sabotage=sabotage)
    before = html_mtimes(tmp_path / "inc/html")
    CHANGES[change](src)
    build(src, tmp_path / "inc", sabotage=sabotage)
    after = html_mtimes(tmp_path / "inc/html")
    written = {page for page, mtime in after.items() if before.get(page) != mtime}
    build(src, tmp_path / "clean")
    return tmp_path / "inc/html", tmp_path / "clean/html", written


@pytest.mark.parametrize("change", CHANGES)
def test_incremental_build_equals_clean_build(tmp_path: Path, change: str) -> None:
    incremental, clean, written = incremental_and_clean(tmp_path, change)
    if change == "rename":  # the one difference by design: the old address leads on (tests/test_redirects.py)
        redirect = incremental / "contributions/alpha-101.html"
        assert '<meta http-equiv="refresh" content="0; url=alpha-tables.html">' in redirect.read_text(encoding="utf-8")
        redirect.unlink()
        for memory in (incremental / ".contributions-written.json", clean / ".contributions-written.json"):
            memory.unlink()  # the incremental one remembers the redirect and each key's old page
    assert first_difference(incremental, clean) is None, first_difference(incremental, clean)
    if change == "section-heading":  # the linking page shows the new heading, not the old one
        about = (incremental / "about/index.html").read_text(encoding="utf-8")
        assert "Add per-layer tables to the alpha loader — Where the layouts split" in about
        assert "Add per-layer tables to the alpha loader — Root cause" not in about
    if change in DEPENDENTS:
        rewritten = {page for page in written if not ALWAYS_WRITTEN.match(page)}
        assert rewritten <= DEPENDENTS[change], f"pages rewritten that do not depend on the change: {rewritten}"
        assert "about/index.html" not in written


def test_unchanged_sources_rewrite_nothing(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "out")
    before = html_mtimes(tmp_path / "out/html")
    log = build(src, tmp_path / "out")
    assert "no targets are out of date" in log
    after = html_mtimes(tmp_path / "out/html")
    assert {page for page in after if before.get(page) != after[page] and not ALWAYS_WRITTEN.match(page)} == set()
    assert (tmp_path / "out/html/sitemap.xml").read_bytes().count(b"<url>") == len(
        [p for p in after if not re.match(r"^(genindex|search|404)\.html$", p)]
    )


def test_parallel_build_equals_serial_build(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "serial", "-j", "1")
    log = build(src, tmp_path / "parallel", "-j", "2")
    assert re.search(r"reading sources\.\.\. \[ *\d+%\] \S+ \.\. \S+", log), log  # read in chunks by workers
    report = first_difference(tmp_path / "serial/html", tmp_path / "parallel/html")
    assert report is None, report


def test_two_clean_builds_are_byte_identical(tmp_path: Path) -> None:
    # the second copy sits elsewhere: no absolute path, clock or ordering of the file system leaks
    first = copy_site(tmp_path / "a/src")
    second = copy_site(tmp_path / "elsewhere/b/src")
    build(first, tmp_path / "a")
    build(second, tmp_path / "elsewhere/b")
    report = first_difference(tmp_path / "a/html", tmp_path / "elsewhere/b/html")
    assert report is None, report


def test_parallel_incremental_build_equals_clean_build(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "inc", "-j", "2")
    add_page(src)
    edit_tag(src)
    build(src, tmp_path / "inc", "-j", "2")
    build(src, tmp_path / "clean")
    report = first_difference(tmp_path / "inc/html", tmp_path / "clean/html")
    assert report is None, report


# -- each guard is needed: without it, the test above that covers it fails ----------------------------

GUARDS = [
    ("env-get-updated", "metric"),
    ("records", "metric"),
    ("titles", "nav-title"),
    ("titles", "doc-title"),
    ("navigation", "caption"),
    ("output-removal", "delete"),
    ("search-prune", "body"),
    ("sitemap-complete", "body"),
    ("clear_doc", "delete"),
    ("generated-skip", "metric"),
]


@pytest.mark.parametrize(("guard", "change"), GUARDS)
def test_guard_is_needed(tmp_path: Path, guard: str, change: str) -> None:
    incremental, clean, _ = incremental_and_clean(tmp_path, change, sabotage=guard)
    assert first_difference(incremental, clean) is not None, f"{change}: equal even without {guard}"


def html_and_dirhtml_after_a_title_change(tmp_path: Path, sabotage: str = "") -> dict[str, str]:
    """``html`` then ``dirhtml`` on one doctree folder (sphinx-quickstart's layout), a title changed, then
    both again; the home page of each output."""
    src = copy_site(tmp_path / "src")
    out = tmp_path / "out"
    for builder in ("html", "dirhtml"):
        build(src, out, builder=builder, sabotage=sabotage)
    edit_title(src)
    for builder in ("html", "dirhtml"):
        build(src, out, builder=builder, sabotage=sabotage)
    return {builder: (out / builder / "index.html").read_text(encoding="utf-8") for builder in ("html", "dirhtml")}


def test_html_and_dirhtml_on_one_doctree_folder(tmp_path: Path) -> None:
    """Each output keeps its own memory of what it showed: the second builder's listing is rewritten too."""
    for builder, home in html_and_dirhtml_after_a_title_change(tmp_path).items():
        assert "Add per-layer model tables" in home, builder
        assert "Add per-layer tables" not in home, builder


def test_gettext_on_a_site_without_templates(tmp_path: Path) -> None:
    """``-b gettext`` where no template folder exists (``templates_path`` unset): the generated pages'
    digest takes no template time, it does not crash on ``max()`` of nothing."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-contrib-warnings", src)
    for _ in range(2):  # a first build, then an incremental one
        build(src, tmp_path / "out", builder="gettext")
    assert (tmp_path / "out/gettext/good.pot").is_file()


def test_merge_domaindata_is_needed(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "serial", "-j", "1")
    # without the merge, the pages the workers read are not known to hold the extension's nodes: left
    # for the writer, which stops on them (and {contrib} links to those pages are not found)
    with pytest.raises(AssertionError, match="unknown node type"):
        build(src, tmp_path / "parallel", "-j", "2", sabotage="merge_domaindata", strict=False)


# -- what an output holds goes with the output ---------------------------------------------------------


def deleted_under_a_new_doctree_folder(tmp_path: Path, sabotage: str = "") -> tuple[Path, Path]:
    """Build, delete a write-up, build into the same output with a new doctree folder (``-d NEW``, as
    ``contributions check --outdir`` does on every run), and from scratch; both output folders."""
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "inc", sabotage=sabotage)
    delete_page(src)
    build(src, tmp_path / "inc", sabotage=sabotage, doctrees=tmp_path / "new-doctrees")
    build(src, tmp_path / "clean")
    return tmp_path / "inc/html", tmp_path / "clean/html"


def test_a_new_doctree_folder_over_an_old_output_equals_a_clean_build(tmp_path: Path) -> None:
    incremental, clean = deleted_under_a_new_doctree_folder(tmp_path)
    assert not (incremental / "contributions/gamma-303.html").exists()
    assert first_difference(incremental, clean) is None, first_difference(incremental, clean)


def test_the_memory_in_the_output_folder_is_needed(tmp_path: Path) -> None:
    incremental, _ = deleted_under_a_new_doctree_folder(tmp_path, sabotage="memory-in-doctrees")
    assert (incremental / "contributions/gamma-303.html").is_file()


def moved_then_retitled(tmp_path: Path, sabotage: str = "") -> tuple[Path, Path]:
    """Build with the write-ups in the sidebar, move the output and doctree folders together (``mv
    _build elsewhere``), change a write-up's title (which every page's sidebar lists), build in the new
    place, and from scratch."""
    src = copy_site(tmp_path / "src")
    sidebar = ("-D", "contributions_sidebar_limit=8")
    build(src, tmp_path / "before", *sidebar, sabotage=sabotage)
    shutil.move(tmp_path / "before", tmp_path / "after")
    edit_title(src)
    build(src, tmp_path / "after", *sidebar, sabotage=sabotage)
    build(src, tmp_path / "clean", *sidebar)
    return tmp_path / "after/html", tmp_path / "clean/html"


def test_moved_output_and_doctree_folders_stay_incremental(tmp_path: Path) -> None:
    moved, clean = moved_then_retitled(tmp_path)
    assert first_difference(moved, clean) is None, first_difference(moved, clean)


def test_an_output_without_its_memory_is_rewritten_whole(tmp_path: Path) -> None:
    """The memory file gone (or of another version): the output cannot say which pages are current."""
    src = copy_site(tmp_path / "src")
    sidebar = ("-D", "contributions_sidebar_limit=8")
    build(src, tmp_path / "inc", *sidebar)
    (tmp_path / "inc/html/.contributions-written.json").unlink()
    edit_title(src)
    build(src, tmp_path / "inc", *sidebar)
    build(src, tmp_path / "clean", *sidebar)
    assert first_difference(tmp_path / "inc/html", tmp_path / "clean/html") is None


def epub_after_a_settings_change(tmp_path: Path, sabotage: str = "") -> tuple[Path, Path, str]:
    """A strict ePub build, a settings change (``-D``: the configuration's hash changes, Sphinx renames
    ``.buildinfo`` to ``.buildinfo.bak``), then two strict builds more with nothing changed; the ePub
    folder, a clean build's with the same settings, and the last build's log."""
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "inc", builder="epub", sabotage=sabotage)
    build(src, tmp_path / "inc", "-D", "epub_title=Ada Tester, the book", builder="epub", sabotage=sabotage)
    log = build(src, tmp_path / "inc", "-D", "epub_title=Ada Tester, the book", builder="epub", sabotage=sabotage)
    build(src, tmp_path / "clean", "-D", "epub_title=Ada Tester, the book", builder="epub")
    return tmp_path / "inc/epub", tmp_path / "clean/epub", log


#: the time of the build, which ``content.opf`` states twice
BUILD_TIME = re.compile(rb"<dc:date>[^<]*</dc:date>|<meta property=\"dcterms:modified\">[^<]*</meta>")


def packed(folder: Path) -> dict[str, bytes]:
    """What the ePub in ``folder`` packs: name → bytes (the build's time left out)."""
    (book,) = folder.glob("*.epub")
    with zipfile.ZipFile(book) as zipped:
        return {name: BUILD_TIME.sub(b"", zipped.read(name)) for name in zipped.namelist()}


def test_a_strict_epub_rebuild_after_a_settings_change_equals_a_clean_build(tmp_path: Path) -> None:
    incremental, clean, log = epub_after_a_settings_change(tmp_path)
    assert "build succeeded." in log
    assert not (incremental / ".buildinfo.bak").exists()
    assert packed(incremental) == packed(clean)
    assert ".contributions-written.json" not in packed(incremental)
    for folder in (incremental, clean):  # the zip's and the package file's dates differ, nothing else
        next(folder.glob("*.epub")).unlink()
        opf = folder / "content.opf"
        opf.write_bytes(BUILD_TIME.sub(b"", opf.read_bytes()))
    assert first_difference(incremental, clean) is None, first_difference(incremental, clean)


def test_the_buildinfo_backup_must_go(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "out", builder="epub", sabotage="buildinfo-backup")
    command = [
        sys.executable, "-c", RUNNER, SABOTAGE["buildinfo-backup"], "-T", "-W", "--keep-going", "-b", "epub",
        "-d", str(tmp_path / "out/doctrees"), "-D", "epub_title=Another", str(src), str(tmp_path / "out/epub"),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert "unknown mimetype for .buildinfo.bak, ignoring [epub.unknown_project_files]" in done.stderr
