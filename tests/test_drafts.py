"""Drafts (issue 7, item 2): a ``status: draft`` page is left out of every output of the published
build, builds with a banner when drafts are included, and a link to it from a published page fails the
strict build."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sphinx.util.console import strip_colors
from sphinx.util.inventory import InventoryFile

from sphinx_contributions.collect.domain import get_domain
from sphinx_contributions.collect.drafts import scan_markdown
from sphinx_contributions.read.sources import markdown_parser

from .edits import touch

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.testing.util import SphinxTestApp

ROOT = Path(__file__).parent / "roots" / "test-drafts"
#: the words only the drafts hold: none may appear in any output of the published build
DRAFT_WORDS = ("zanzibarquux", "yamlquux", "rstquux", "draftonlytag")
DRAFT_PAGES = ("contributions/draft", "contributions/yaml-draft", "contributions/rst-draft")
DRAFT_KEYS = ("demo#2", "other#3", "other#4")

LINKER = """\
# Linker

See {contrib}`demo#2` and {contrib}`demo#1`.
"""


@pytest.fixture
def srcdir(tmp_path: Path) -> Path:
    """A fresh copy of the drafts test root (tests here edit it)."""
    return Path(shutil.copytree(ROOT, tmp_path / "src"))


@pytest.fixture
def build(make_app: Callable[..., SphinxTestApp], srcdir: Path) -> Callable[..., SphinxTestApp]:
    def run(**confoverrides: object) -> SphinxTestApp:
        app = make_app("html", srcdir=srcdir, freshenv=True, confoverrides=confoverrides)
        app.build()
        return app

    return run


def warnings(app: SphinxTestApp) -> list[str]:
    return strip_colors(app.warning.getvalue()).splitlines()


def _inventory(outdir: Path) -> dict[str, object]:
    """The ``contrib:contribution`` entries of ``objects.inv``, decompressed and parsed."""
    return dict(_inventory_entries(outdir).get("contrib:contribution", {}))


def _inventory_entries(outdir: Path) -> dict[str, dict[str, Any]]:
    """Every entry of ``objects.inv`` (its body is zlib-compressed: read through Sphinx's own reader)."""
    with open(outdir / "objects.inv", "rb") as stream:
        return dict(InventoryFile.load(stream, "https://example.org/", lambda base, uri: base + uri))


def _draft_traces(entries: dict[str, dict[str, Any]]) -> list[str]:
    """Inventory entries that name a draft: its key, its page or one of its words, in any field."""
    needles = (*DRAFT_WORDS, *DRAFT_PAGES, *DRAFT_KEYS)
    return [
        f"{kind} {name}"
        for kind, items in entries.items()
        for name, item in items.items()
        if any(needle in f"{name} {item.uri} {item.display_name}".lower() for needle in needles)
    ]


def test_published_build_holds_no_draft_anywhere(build: Callable[..., SphinxTestApp]) -> None:
    app = build()
    outdir = Path(app.outdir)
    assert warnings(app) == []
    assert sorted(app.env.found_docs) == ["contributions/published", "guide", "index"]
    assert get_domain(app.env).draft_keys == {
        "demo#2": "contributions/draft",
        "other#3": "contributions/yaml-draft",
        "other#4": "contributions/rst-draft",
    }
    for page in DRAFT_PAGES:
        assert not (outdir / f"{page}.html").exists()
    assert (outdir / "contributions/published.html").is_file()
    assert not (outdir / "tags/draftonlytag.html").exists()
    # listings, feed, JSON, sitemap, search, objects.inv
    index = (outdir / "index.html").read_text(encoding="utf-8")
    assert "Published write-up" in index
    document = json.loads((outdir / "contributions.json").read_text(encoding="utf-8"))
    assert [record["key"] for record in document["contributions"]] == ["demo#1"]
    feed = (outdir / "contributions.atom").read_text(encoding="utf-8")
    assert "contributions/published.html" in feed
    sitemap = (outdir / "sitemap.xml").read_text(encoding="utf-8")
    assert "contributions/published.html" in sitemap
    search = (outdir / "searchindex.js").read_text(encoding="utf-8")
    assert "contributions/published" in search
    assert list(_inventory(outdir)) == ["demo#1"]
    for path in outdir.rglob("*"):
        if path.is_file() and path.suffix in {".html", ".js", ".json", ".atom", ".xml", ".txt"}:
            text = path.read_text(encoding="utf-8").lower()
            assert not [word for word in DRAFT_WORDS if word in text], path
            assert not [page for page in DRAFT_PAGES if page in text], path
    entries = _inventory_entries(outdir)
    assert "contributions/published" in entries["std:doc"]  # the reader sees the entries: not a vacuous check
    assert _draft_traces(entries) == []


def test_a_draft_shown_in_a_code_block_is_not_a_draft(build: Callable[..., SphinxTestApp]) -> None:
    app = build()
    assert (Path(app.outdir) / "guide.html").is_file()
    assert "shown#9" not in (get_domain(app.env).draft_keys or {})


def test_drafts_build_with_a_banner_when_included(build: Callable[..., SphinxTestApp]) -> None:
    app = build(contributions_include_drafts=True)
    outdir = Path(app.outdir)
    assert warnings(app) == []
    for page in DRAFT_PAGES:
        html = (outdir / f"{page}.html").read_text(encoding="utf-8")
        assert "contrib-draft-banner" in html, page
        assert '<p class="admonition-title">Draft</p>' in html, page
        assert "left out of the published site" in html, page
    published = (outdir / "contributions/published.html").read_text(encoding="utf-8")
    assert "contrib-draft-banner" not in published
    assert sorted(_inventory(outdir)) == ["demo#1", "demo#2", "other#3", "other#4"]
    assert len(_draft_traces(_inventory_entries(outdir))) >= 6  # what the published build's check must not find


def test_make_serve_option_includes_drafts(srcdir: Path, tmp_path: Path) -> None:
    """``make serve`` passes ``-D contributions_include_drafts=1`` on the command line."""
    done = _sphinx(srcdir, tmp_path / "out", "-D", "contributions_include_drafts=1")
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "out/html/contributions/draft.html").read_text(encoding="utf-8")
    assert "contrib-draft-banner" in html


def test_link_to_a_draft_warns(build: Callable[..., SphinxTestApp], srcdir: Path) -> None:
    (srcdir / "linker.md").write_text(LINKER, encoding="utf-8")
    (srcdir / "index.md").write_text(
        "# Drafts\n\n:::{contributions}\n:::\n\n```{toctree}\nguide\nlinker\n```\n", encoding="utf-8"
    )
    app = build()
    assert warnings(app) == [
        f"{srcdir / 'linker.md'}:3: WARNING: {{contrib}} links to demo#2, a draft (contributions/draft) that the "
        "published site leaves out [contrib.draft_link]"
    ]
    html = (Path(app.outdir) / "linker.html").read_text(encoding="utf-8")
    assert 'href="contributions/published.html#contribution"' in html
    assert "contributions/draft.html" not in html


def test_link_to_a_draft_fails_the_strict_build(srcdir: Path, tmp_path: Path) -> None:
    (srcdir / "linker.md").write_text(":orphan:\n\n" + LINKER, encoding="utf-8")
    done = _sphinx(srcdir, tmp_path / "out")
    assert done.returncode == 1
    assert "[contrib.draft_link]" in done.stderr
    assert "Traceback" not in done.stderr


def test_link_to_a_draft_resolves_when_drafts_are_included(build: Callable[..., SphinxTestApp], srcdir: Path) -> None:
    (srcdir / "linker.md").write_text("---\norphan: true\n---\n\n" + LINKER, encoding="utf-8")
    app = build(contributions_include_drafts=True)
    assert warnings(app) == []
    html = (Path(app.outdir) / "linker.html").read_text(encoding="utf-8")
    assert 'href="contributions/draft.html#contribution"' in html


def test_a_draft_the_scan_cannot_see_fails_the_build(build: Callable[..., SphinxTestApp], srcdir: Path) -> None:
    """A header nested in another directive escapes the source scan: the build says so."""
    page = srcdir / "contributions/nested.md"
    page.write_text(
        "# Nested\n\n::::{note}\n:::{contribution}\n:repo: example/nested\n:pr: 5\n:status: draft\n"
        ":summary: Nested.\n:::\n::::\n\n"
        + "".join(f":::{{{name}}}\nWritten.\n:::\n\n" for name in ("problem", "root-cause", "fix", "verification")),
        encoding="utf-8",
    )
    app = build()
    assert warnings(app) == [
        f"{page}:5: WARNING: contribution nested#5 is a draft but its header was not found before the build "
        "(is it nested in another directive?), so it would be published; put the 'contribution' directive "
        "at the top level of the page [contrib.draft_not_excluded]"
    ]


def _sphinx(srcdir: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", *extra,
        "-d", str(out / "doctrees"), str(srcdir), str(out / "html"),
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_a_page_turned_draft_leaves_an_incremental_build(srcdir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    outdir = out / "html"
    assert _sphinx(srcdir, out, "-D", "html_copy_source=1").returncode == 0
    assert (outdir / "contributions/published.html").is_file()
    assert (outdir / "_sources/contributions/published.md.txt").is_file()
    page = srcdir / "contributions/published.md"
    page.write_text(page.read_text().replace(":status: merged", ":status: draft"), encoding="utf-8")
    done = _sphinx(srcdir, out, "-D", "html_copy_source=1")
    assert done.returncode == 0, done.stderr
    assert not (outdir / "contributions/published.html").exists()
    assert not (outdir / "_sources/contributions/published.md.txt").exists()  # its source is not published
    assert not (outdir / "contributions.json").exists()  # no write-up left: no exports (the old one removed)
    assert "Published write-up" not in (outdir / "index.html").read_text(encoding="utf-8")
    assert "contributions/published" not in (outdir / "sitemap.xml").read_text(encoding="utf-8")
    assert "contributions/published" not in (outdir / "searchindex.js").read_text(encoding="utf-8")
    assert _inventory(outdir) == {}


def test_scan_reads_the_header_options() -> None:
    """The scan reads a page's header (both option forms), nothing else: what ``contributions check``
    shows of a draft comes from a build of it (tests/test_cli_roots.py)."""
    text = (ROOT / "contributions/draft.md").read_text(encoding="utf-8")
    assert scan_markdown(text, markdown_parser()) == {
        "repo": "example/demo",
        "pr": "2",
        "status": "draft",
        "tags": "shared tag, draftonlytag",
        "summary": "The zanzibarquux draft.",
    }
    shown = "# Shown\n\n```\n:::{contribution}\n:repo: a/b\n:pr: 1\n:status: draft\n:::\n```\n"
    assert scan_markdown(shown, markdown_parser()) is None


def test_a_deleted_page_leaves_no_source_copy(srcdir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    outdir = out / "html"
    (srcdir / "index.md").write_text("# Drafts\n\n```{toctree}\nguide\n```\n", encoding="utf-8")
    assert _sphinx(srcdir, out, "-D", "html_copy_source=1").returncode == 0
    assert (outdir / "_sources/guide.md.txt").is_file()
    (srcdir / "guide.md").unlink()
    (srcdir / "index.md").write_text("# Drafts\n", encoding="utf-8")
    done = _sphinx(srcdir, out, "-D", "html_copy_source=1")
    assert done.returncode == 0, done.stderr
    assert not (outdir / "guide.html").exists()
    assert not (outdir / "_sources/guide.md.txt").exists()
    assert (outdir / "_sources/contributions/published.md.txt").is_file()


LOUD_DRAFT = """\
# Shouted

:::{contribution}
:repo: example/loud
:pr: 8
:status: DRAFT
:summary: Only capitals here.
:::
"""


def test_a_draft_in_capitals_is_left_out(build: Callable[..., SphinxTestApp], srcdir: Path) -> None:
    """The scan's cheap pre-filter (is the word there at all?) ignores case, as the status does."""
    page = srcdir / "contributions/loud.md"
    page.write_text(LOUD_DRAFT + SECTIONS, encoding="utf-8")
    assert "draft" not in page.read_text(encoding="utf-8")
    app = build()
    assert warnings(app) == []
    assert (get_domain(app.env).draft_keys or {})["loud#8"] == "contributions/loud"
    assert not (Path(app.outdir) / "contributions/loud.html").exists()


SECTIONS = "".join(f"\n:::{{{name}}}\nWritten.\n:::\n" for name in ("problem", "root-cause", "fix", "verification"))


@pytest.mark.filterwarnings("ignore:Possible nested set:FutureWarning")  # re, on Sphinx's translation of '[[]'
def test_a_draft_whose_name_is_a_pattern_is_left_out_alone(build: Callable[..., SphinxTestApp], srcdir: Path) -> None:
    """``draft[1].md`` is excluded by a pattern that matches only itself (``[``/``]`` quoted), not by
    one that would match ``draft1.md`` and leave the draft in."""
    draft = srcdir / "contributions/draft[1].md"
    draft.write_text(LOUD_DRAFT.replace("8", "11").replace("Shouted", "Bracketed") + SECTIONS, encoding="utf-8")
    sibling = srcdir / "contributions/draft1.md"
    sibling.write_text(
        (srcdir / "contributions/published.md").read_text(encoding="utf-8").replace(":pr: 1", ":pr: 12"),
        encoding="utf-8",
    )
    app = build()
    assert warnings(app) == []
    outdir = Path(app.outdir)
    assert not (outdir / "contributions/draft[1].html").exists()
    assert (outdir / "contributions/draft1.html").is_file()
    assert sorted(_inventory(outdir)) == ["demo#1", "demo#12"]


# -- drafts cost no full rebuild -----------------------------------------------------------------------------

#: code run in the build process first: each page the draft scan reads, and each source file (.md,
#: .rst) any code opens, is printed on stderr
COUNT_SCANS = """
import builtins
import io
import sys
import time
import sphinx_contributions.collect.drafts as drafts
_scan = drafts.scan_file
def scan_file(path, docname, *args, **kwargs):
    print("scanned", docname, file=sys.stderr)
    return _scan(path, docname, *args, **kwargs)
drafts.scan_file = scan_file
_open = builtins.open
def counted_open(file, *args, **kwargs):
    if str(file).endswith((".md", ".rst")):
        print("opened", file, file=sys.stderr)
    return _open(file, *args, **kwargs)
builtins.open = io.open = counted_open
"""
RUNNER = "import sys; exec(sys.argv[1]); from sphinx.cmd.build import main; sys.exit(main(sys.argv[2:]))"
READ = re.compile(r"^reading sources\.\.\. \[ *\d+%\] (\S+)$", re.MULTILINE)
DELTA = (ROOT.parent / "test-faults/contributions/gamma-3.md").read_text(encoding="utf-8")
DELTA = DELTA.replace("Gamma work", "Delta draft").replace("org/gamma", "org/delta").replace(":pr: 3", ":pr: 4")


def _counted_build(src: Path, out: Path) -> tuple[list[str], list[str], str, list[str]]:
    """A strict build of ``src``; (pages read, pages the draft scan read, log, source files opened)."""
    command = [
        sys.executable, "-c", RUNNER, COUNT_SCANS, "-T", "-W", "--keep-going", "-b", "html",
        "-d", str(out / "doctrees"), str(src), str(out / "html"),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    scanned = [line.split(" ", 1)[1] for line in done.stderr.splitlines() if line.startswith("scanned ")]
    opened = [line.split(" ", 1)[1] for line in done.stderr.splitlines() if line.startswith("opened ")]
    return READ.findall(done.stdout), scanned, done.stdout, opened


def _set_status(path: Path, status: str) -> None:
    text = re.sub(r":status: \w+", f":status: {status}", path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    touch(path)


def test_toggling_a_draft_reads_only_the_pages_it_touches(tmp_path: Path) -> None:
    """A draft published, then a draft again: Sphinx reads that page and the page whose glob toctree
    lists it, not every page (``exclude_patterns`` never changes, so no "[config changed]"); and a no-op
    build opens no source at all (on main it scanned the draft again: never read, it is new to Sphinx in
    every build). Each incremental output equals a clean build's."""
    from .treediff import first_difference

    src = Path(shutil.copytree(ROOT.parent / "test-faults", tmp_path / "src"))
    draft = src / "contributions/delta-4.md"
    draft.write_text(DELTA.replace(":status: merged", ":status: draft"), encoding="utf-8")
    read, scanned, _, opened = _counted_build(src, tmp_path / "out")
    assert "contributions/delta-4" not in read
    assert str(draft) in opened  # the count sees what is read
    # nothing changed: the draft is known by its file's time and size; no source is opened
    read, scanned, log, opened = _counted_build(src, tmp_path / "out")
    assert (read, scanned, opened) == ([], [], [])
    assert "no targets are out of date" in log
    for status, expected in (
        ("merged", ["contributions/delta-4", "contributions/index"]),
        ("draft", ["contributions/index"]),
    ):
        _set_status(draft, status)
        read, _, log, _ = _counted_build(src, tmp_path / "out")
        assert "config changed" not in log
        assert read == expected
        clean = tmp_path / f"clean-{status}"
        _counted_build(src, clean)
        report = first_difference(tmp_path / "out/html", clean / "html")
        assert report is None, report
