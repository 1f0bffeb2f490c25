"""Faults that leave no trace: a build stopped while it writes, a hand-written page where a generated one
would go, odd file names, a ``{contrib}`` link left to Sphinx's ``missing-reference`` chain, warnings of
included files, sitemaps of builders that make no site (``../shared/pitfalls.md``, "Faults that leave no
trace").

Each test builds ``tests/roots/test-faults`` (a listing, three write-ups sharing tags, a ``{contrib}`` link
from the home page) in a subprocess, as ``sphinx-build`` runs, and compares whole output trees with
:mod:`treediff` where a clean build is the reference.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOTS
from .edits import edit
from .treediff import first_difference

#: the counter of the documents' write phase (the message catalogs' "writing output..." has none)
WRITING_DOCUMENTS = re.compile(r"writing output\.\.\. \[ *\d+%\]")


def command(src: Path, out: Path, *extra: str, builder: str = "html", strict: bool = True) -> list[str]:
    return [
        sys.executable, "-m", "sphinx", "-T", *(["-W", "--keep-going"] if strict else []),
        "-b", builder, "-d", str(out / "doctrees"), *extra, str(src), str(out / builder),
    ]  # fmt: skip


def environ(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH" and not k.startswith("READTHEDOCS")}
    return {**base, "PYTHONUNBUFFERED": "1", **extra}


def build(src: Path, out: Path, *extra: str, builder: str = "html", strict: bool = True) -> str:
    """Build ``src`` into ``out/<builder>``; the build must succeed; its log."""
    done = subprocess.run(
        command(src, out, *extra, builder=builder, strict=strict),
        capture_output=True,
        text=True,
        check=False,
        env=environ(),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def failing_build(src: Path, out: Path, *extra: str, builder: str = "html") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(src, out, *extra, builder=builder), capture_output=True, text=True, check=False, env=environ()
    )


def site(tmp_path: Path, name: str = "src") -> Path:
    src = tmp_path / name
    shutil.copytree(ROOTS / "test-faults", src)
    return src


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_while_writing(src: Path, out: Path, sig: signal.Signals, document: int = 2) -> list[str]:
    """Start a strict build, and send it ``sig`` once it writes its ``document``-th document (each page
    takes a second to write, see the root's ``conf.py``); the log up to then."""
    process = subprocess.Popen(
        command(src, out),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environ(CONTRIB_TEST_SLOW_WRITE="1"),
        # SIGINT as a terminal sends it, whatever this process inherited: a shell's background job ignores
        # SIGINT, its children too, and Python then raises no KeyboardInterrupt (the build ran to its end)
        preexec_fn=_default_sigint,
    )
    assert process.stdout is not None
    log = []
    try:
        for line in process.stdout:
            log.append(line)
            if WRITING_DOCUMENTS.search(line) and len([x for x in log if WRITING_DOCUMENTS.search(x)]) == document:
                process.send_signal(sig)
                break
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode != 0, "".join(log)  # stopped, not finished
    assert "build succeeded" not in "".join(log)
    return log


# -- 1. a build stopped while it writes ------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT], ids=lambda s: s.name)
def test_a_build_stopped_while_writing_leaves_nothing_stale(tmp_path: Path, sig: signal.Signals) -> None:
    """A title changed, the build stopped in its write phase (after Sphinx pickled the environment): the
    next strict build writes what a clean build writes (the listing, the home page's ``{contrib}`` link,
    the tag and project pages all show the new title)."""
    src = site(tmp_path)
    build(src, tmp_path / "inc")
    edit(src / "contributions/alpha-1.md", "# Alpha fix", "# Alpha fixed at last")
    log = stop_while_writing(src, tmp_path / "inc", sig)
    assert any("pickling environment" in line for line in log)
    build(src, tmp_path / "inc")
    build(src, tmp_path / "clean")
    report = first_difference(tmp_path / "inc/html", tmp_path / "clean/html")
    assert report is None, report
    # what the finished build wrote is remembered: the same command again has nothing to do
    last = build(src, tmp_path / "inc")
    assert "no targets are out of date" in last, last


def test_a_build_stopped_after_writing_some_pages_then_undone_leaves_nothing_stale(tmp_path: Path) -> None:
    """The title changed, the build stopped once it had written the pages before ``contributions/gamma-3``
    (``beta-2``'s "next" link shows the new title), then the change undone: the pages that build wrote
    show what no source says any more, and the next build rewrites them (what they depend on is unknown
    until a build finishes), so it equals a clean build."""
    src = site(tmp_path)
    page = src / "contributions/alpha-1.md"
    build(src, tmp_path / "inc")
    edit(page, "# Alpha fix", "# Alpha fixed at last")
    stop_while_writing(src, tmp_path / "inc", signal.SIGKILL, document=4)
    assert "Alpha fixed at last" in (tmp_path / "inc/html/contributions/beta-2.html").read_text(encoding="utf-8")
    edit(page, "# Alpha fixed at last", "# Alpha fix")
    build(src, tmp_path / "inc")
    build(src, tmp_path / "clean")
    report = first_difference(tmp_path / "inc/html", tmp_path / "clean/html")
    assert report is None, report


# -- 3. odd file names -------------------------------------------------------------------------------------

ORPHAN = "---\norphan: true\n---\n\n# {title}\n\nA page named {title}.\n"


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_removed_pages_with_odd_names_leave_no_output(tmp_path: Path, builder: str) -> None:
    """``notes[1].md`` and ``über.md`` removed: their pages and source copies go (their URIs are
    percent-encoded, ``notes[1]`` as a glob matches ``notes1``), and ``notes1.md``'s copy stays."""
    src = site(tmp_path)
    for name in ("notes[1]", "notes1", "über"):
        (src / f"{name}.md").write_text(ORPHAN.format(title=name), encoding="utf-8")
    copy = ("-D", "html_copy_source=1")
    build(src, tmp_path / "inc", *copy, builder=builder)
    out = tmp_path / "inc" / builder
    assert (out / "_sources/notes[1].md.txt").is_file() and (out / "_sources/über.md.txt").is_file()
    (src / "notes[1].md").unlink()
    (src / "über.md").unlink()
    build(src, tmp_path / "inc", *copy, builder=builder)
    build(src, tmp_path / "clean", *copy, builder=builder)
    report = first_difference(out, tmp_path / "clean" / builder)
    assert report is None, report
    assert (out / "_sources/notes1.md.txt").is_file()


# -- 4. {contrib} links left to Sphinx's missing-reference chain ---------------------------------------------


def elsewhere(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """``tests/roots/test-intersphinx``, whose intersphinx inventory is that of a built ``test-faults``."""
    build(site(tmp_path, "faults"), tmp_path / "faults-out")
    src = tmp_path / "elsewhere"
    shutil.copytree(ROOTS / "test-intersphinx", src)
    return src, environ(CONTRIB_TEST_INVENTORY=str(tmp_path / "faults-out/html/objects.inv"))


def test_an_unknown_key_is_resolved_by_intersphinx_or_ignored_by_nitpick_ignore(tmp_path: Path) -> None:
    src, env = elsewhere(tmp_path)
    done = subprocess.run(command(src, tmp_path / "out"), capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out/html/index.html").read_text(encoding="utf-8")
    assert 'href="https://faults.example/contributions/alpha-1.html#' in page
    assert ">Alpha fix<" in page  # the inventory's display name: the write-up's title


def test_an_unknown_key_nothing_answers_keeps_our_warning(tmp_path: Path) -> None:
    src, env = elsewhere(tmp_path)
    (src / "index.md").write_text("# Elsewhere\n\nNowhere: {contrib}`nowhere#5`.\n", encoding="utf-8")
    done = subprocess.run(command(src, tmp_path / "out"), capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{src / 'index.md'}:3: WARNING: {{contrib}} target not found: 'nowhere#5' [contrib.unknown_key]"
    ]
    # shown as text, not dropped
    assert "Nowhere: <span" in (tmp_path / "out/html/index.html").read_text(encoding="utf-8")


# -- 13. `make audit` starts ------------------------------------------------------------------------------


def test_the_audit_script_starts() -> None:
    """``python tests/audit.py`` puts ``tests/`` first on ``sys.path``: a module there named like one of the
    standard library (``html.py``) broke every import of it (``No module named 'html.entities'``)."""
    done = subprocess.run(
        [sys.executable, str(ROOTS.parent / "audit.py"), "--help"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: audit.py")


def test_no_test_module_is_named_like_the_standard_library() -> None:
    names = {path.stem for path in ROOTS.parent.glob("*.py")}
    assert sorted(names & sys.stdlib_module_names) == []


# -- 5. warnings of included files -------------------------------------------------------------------------


def test_a_warning_of_an_included_file_fails_every_strict_build(tmp_path: Path) -> None:
    """A ``{contrib}`` link to an unknown key in ``_snippets/links.md`` (excluded, included by the about
    page) warns when the page is written, with the snippet's path: the identical second build fails the
    same way, and so does a third."""
    src = site(tmp_path)
    (src / "_snippets").mkdir()
    (src / "_snippets/links.md").write_text("See {contrib}`nowhere#5`.\n", encoding="utf-8")
    with (src / "about.md").open("a", encoding="utf-8") as about:
        about.write("\n```{include} _snippets/links.md\n```\n")
    expected = [
        f"{src / '_snippets/links.md'}:1: WARNING: {{contrib}} target not found: 'nowhere#5' [contrib.unknown_key]"
    ]
    for _ in range(3):
        done = failing_build(src, tmp_path / "out")
        assert (done.returncode, done.stderr.splitlines()) == (1, expected)


# -- 2. a hand-written page where a generated one would go ------------------------------------------------

HAND_WRITTEN = "# SDPA, by hand\n\nWhat I wrote about SDPA myself.\n"


def test_a_hand_written_page_is_never_overwritten_by_a_generated_one(tmp_path: Path) -> None:
    src = site(tmp_path)
    (src / "tags").mkdir()
    (src / "tags/sdpa.md").write_text(HAND_WRITTEN, encoding="utf-8")
    edit(src / "index.md", "about\n", "about\ntags/sdpa\n")
    expected = [
        f"{src / 'tags/sdpa.md'}: WARNING: tags/sdpa.md is where the generated page of tag 'sdpa' would be "
        "written: the document is kept and the generated page is not written (rename the document, or move the "
        "generated pages with contributions_tags_path) [contrib.config]"
    ]
    for _ in range(2):  # reported again by the identical second build
        done = failing_build(src, tmp_path / "out")
        assert (done.returncode, done.stderr.splitlines()) == (1, expected)
    out = tmp_path / "out/html"
    page = (out / "tags/sdpa.html").read_text(encoding="utf-8")
    assert "What I wrote about SDPA myself." in page
    assert "Tag: sdpa" not in page
    assert "What I wrote about SDPA myself" not in (out / "tags/kernels.html").read_text(encoding="utf-8")
    assert "SDPA, by hand" in (out / "searchindex.js").read_text(encoding="utf-8")


def test_the_generated_pages_folders_are_settings(tmp_path: Path) -> None:
    """As ablog's ``blog_path``: with the tag pages in ``labels/`` and the project pages in
    ``repos/projects/``, the hand-written ``tags/sdpa.md`` and the generated ``labels/sdpa`` live side by
    side, and every link and the sitemap follow."""
    src = site(tmp_path)
    (src / "tags").mkdir()
    (src / "tags/sdpa.md").write_text(HAND_WRITTEN, encoding="utf-8")
    edit(src / "index.md", "about\n", "about\ntags/sdpa\n")
    folders = ("-D", "contributions_tags_path=labels", "-D", "contributions_projects_path=repos/projects/")
    build(src, tmp_path / "out", *folders)
    out = tmp_path / "out/html"
    generated = sorted(p.relative_to(out).as_posix() for p in out.glob("**/*.html") if "contributions" not in p.parts)
    assert [page for page in generated if page.startswith(("labels/", "repos/", "tags/", "projects/"))] == [
        "labels/kernels.html", "labels/sdpa.html", "repos/projects/alpha.html", "repos/projects/beta.html",
        "repos/projects/gamma.html", "tags/sdpa.html",
    ]  # fmt: skip
    assert "What I wrote about SDPA myself." in (out / "tags/sdpa.html").read_text(encoding="utf-8")
    page = (out / "contributions/alpha-1.html").read_text(encoding="utf-8")
    assert 'href="../labels/sdpa.html"' in page and 'href="../repos/projects/alpha.html"' in page
    assert "https://example.org/site/labels/sdpa.html" in sitemap_locs(out / "sitemap.xml")


@pytest.mark.parametrize("value", ["", "/", "../tags", "a/../b", ".hidden", "/tmp/x", "/tags"])
def test_a_folder_outside_the_site_is_refused(tmp_path: Path, value: str) -> None:
    """An absolute folder too: on main "/tmp/x" was stripped of its "/" and became the folder tmp/x."""
    done = failing_build(site(tmp_path), tmp_path / "out", "-D", f"contributions_tags_path={value}")
    assert done.stderr.splitlines() == [
        f"WARNING: contributions_tags_path = {value!r} is not a folder inside the site (such as 'tags'): 'tags' "
        "is used [contrib.config]"
    ]
    assert (tmp_path / "out/html/tags/sdpa.html").is_file()


def test_an_absolute_folder_in_conf_py_is_refused_at_its_line(tmp_path: Path) -> None:
    """On main "/tmp/x" in conf.py was silently the folder tmp/x; now the warning says so at its line."""
    src = site(tmp_path)
    conf = src / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + 'contributions_tags_path = "/tmp/x"\n', encoding="utf-8")
    line = len(conf.read_text(encoding="utf-8").splitlines())
    done = failing_build(src, tmp_path / "out")
    assert done.stderr.splitlines() == [
        f"{conf}:{line}: WARNING: contributions_tags_path = '/tmp/x' is not a folder inside the site (such as "
        "'tags'): 'tags' is used [contrib.config]"
    ]
    assert (tmp_path / "out/html/tags/sdpa.html").is_file()
    assert not (tmp_path / "out/html/tmp").exists()


# -- 7. sitemaps only where there is a site -----------------------------------------------------------------

PAGES = [
    "about", "contributions/alpha-1", "contributions/beta-2", "contributions/gamma-3", "contributions/index",
    "index", "projects/alpha", "projects/beta", "projects/gamma", "tags/kernels", "tags/sdpa",
]  # fmt: skip


def sitemap_locs(path: Path) -> list[str]:
    from xml.etree import ElementTree as ET

    root = ET.parse(path).getroot()
    return [loc.text or "" for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]


@pytest.mark.parametrize(
    ("builder", "links"),
    [
        ("html", [page + ".html" for page in PAGES]),
        (
            "dirhtml",
            ["about/", *(page.removesuffix("index") + "/" * (not page.endswith("index")) for page in PAGES[1:])],
        ),
    ],
)
def test_a_site_builder_lists_every_page_it_has_and_no_other(tmp_path: Path, builder: str, links: list[str]) -> None:
    """Every document and generated page once, sorted by page; dirhtml without ``genindex/`` and ``search/``
    (rendered from templates, no documents), even after an incremental build that wrote one page."""
    src = site(tmp_path)
    build(src, tmp_path / "out", builder=builder)
    edit(src / "about.md", "links to nothing", "links to nothing at all")
    build(src, tmp_path / "out", builder=builder)
    assert sitemap_locs(tmp_path / "out" / builder / "sitemap.xml") == [
        "https://example.org/site/" + link for link in links
    ]


@pytest.mark.parametrize("builder", ["singlehtml", "epub"])
def test_a_builder_that_makes_no_site_gets_no_sitemap(tmp_path: Path, builder: str) -> None:
    src = site(tmp_path)
    build(src, tmp_path / "out", "-D", "version=1", builder=builder)
    assert (
        tmp_path / "out" / builder / "index.html" if builder == "singlehtml" else tmp_path / "out" / builder
    ).exists()
    assert not (tmp_path / "out" / builder / "sitemap.xml").exists()
