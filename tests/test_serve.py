"""The warm preview (issue 47): ``contributions serve`` builds in its own process on each save, and what it
serves is what a clean build of the same sources writes, drafts included.

A copy of ``tests/roots/test-portfolio`` is served for real (a subprocess, sphinx-autobuild's server); each
edit an author makes is saved, the line the preview prints for that save is awaited, and the served folder is
compared, file by file, with a clean build (``python -m sphinx``, a new process, fresh folders). Before, the
preview was sphinx-autobuild's own, which prints none of these lines.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from .conftest import copy_site
from .edits import edit
from .test_autobuild import Output, free_port
from .test_incremental import NEW_PAGE
from .treediff import first_difference

#: the line the preview prints when a build ends (read, or stopped)
BUILD_LINE = re.compile(
    r"^(?:first build|.+?): (?:a fresh environment \(conf\.py\); )?(?:read \d|the build stopped)", re.M
)
#: the time in a build's line
SECONDS = re.compile(r"\b\d+\.\d\d s\b")
#: how long a preview stays quiet after a build before its output is compared: one save is one build
QUIET = 1.5
#: the environment of the preview and of the clean builds: the same, without Read the Docs' canonical URL
ENV = {k: v for k, v in os.environ.items() if not k.startswith("READTHEDOCS")} | {
    "NO_COLOR": "1",
    "PYTHONUNBUFFERED": "1",
}

LOCK: dict[str, Any] = {
    "version": 1,
    "contributions": {
        "alpha#101": {
            "repository": "example/Alpha",
            "pr": 101,
            "fetched_at": "2026-12-01T12:00:00Z",
            "state": "merged",
            "title": "Add per-layer tables to the alpha loader",
            "merged_at": "2024-03-01T10:00:00Z",
            "merge_commit": "0123456789abcdef0123456789abcdef01234567",
            "additions": 120,
            "deletions": 8,
            "changed_files": 5,
            "issues": [],
            "first_release": None,
        }
    },
}


class Preview:
    """``contributions serve`` running on a site: its output, its port, and the builds it has finished."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.port = free_port()
        command = [sys.executable, "-m", "sphinx_contributions", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            command, cwd=site, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV
        )
        self.output = Output(self.process)
        self.output.wait_for(re.compile("^serving on ", re.M), 1, 240)
        deadline = time.monotonic() + 60
        while True:  # the server answers a moment after its watcher started (uvicorn then listens)
            try:
                self.page("index.html")
                break
            except OSError:
                assert time.monotonic() < deadline, self.output.now()[-3000:]
                time.sleep(0.2)
        time.sleep(1.0)  # watchfiles watches from its own thread, started with the watcher
        self.builds = 1

    def lines(self) -> list[str]:
        return [
            match.group(0)
            for match in re.finditer(r"^.*$", self.output.now(), re.M)
            if BUILD_LINE.match(match.group(0))
        ]

    def save(self, change: Callable[[Path], object]) -> str:
        """Apply ``change`` to the site, wait for its build and then for quiet; that build's line (time as T)."""
        before = len(self.output.now())
        change(self.site)
        self.output.wait_for(BUILD_LINE, self.builds + 1, 120)
        while True:  # quiet: no second build started by the same save
            count = len(BUILD_LINE.findall(self.output.now()))
            time.sleep(QUIET)
            if len(BUILD_LINE.findall(self.output.now())) == count:
                break
        assert count == self.builds + 1, self.output.now()[before:]
        self.builds = count
        line = [line for line in self.output.now()[before:].splitlines() if BUILD_LINE.match(line)][-1]
        return SECONDS.sub("T s", line)

    def page(self, name: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{name}", timeout=30) as answer:
            return str(answer.read().decode("utf-8"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture
def preview(tmp_path: Path) -> Iterator[Preview]:
    running = Preview(copy_site(tmp_path / "site"))
    try:
        yield running
    finally:
        running.stop()


def differs_from_clean(preview: Preview, folder: Path) -> str | None:
    """The first difference between what the preview serves and a clean build of its sources into ``folder``."""
    command = [
        sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D", "contributions_include_drafts=1",
        "-d", str(folder / "doctrees"), str(preview.site), str(folder / "html"),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=ENV)
    assert done.returncode == 0, done.stderr[-3000:]
    # Sphinx keeps the record of the settings before a change of them beside the output, as after any
    # build with other settings (sphinx-build's own, not a page)
    (preview.site / "_build/serve/.buildinfo.bak").unlink(missing_ok=True)
    return first_difference(preview.site / "_build/serve", folder / "html")


# -- the edits, in order ----------------------------------------------------------------------------------


def edit_text(site: Path) -> None:
    edit(site / "contributions/beta-202.md", "was unaffected, since", "was not affected, since")


def edit_header(site: Path) -> None:
    edit(
        site / "contributions/gamma-303.md", ":tags: feature flags, example, hot path", ":tags: feature flags, hot loop"
    )


def add_write_up(site: Path) -> None:
    (site / "contributions/gamma-304.md").write_text(NEW_PAGE, encoding="utf-8")


def delete_write_up(site: Path) -> None:
    (site / "contributions/gamma-304.md").unlink()


def edit_conf(site: Path) -> None:
    edit(site / "conf.py", 'html_title = "Ada Tester"', 'html_title = "Ada Tester, tested"')


def edit_template(site: Path) -> None:
    edit(site / "_templates/page.html", "{{ super() | replace(' as=\"image\"', '') }}", "{{ super() }}")


def edit_static(site: Path) -> None:
    path = site / "_static/portfolio.css"
    path.write_text(path.read_text(encoding="utf-8") + "\n.contrib-preview-test { color: inherit; }\n", "utf-8")


def write_lock(site: Path, lock: dict[str, Any] = LOCK) -> None:
    (site / "contributions.lock.json").write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n", "utf-8")


def edit_lock(site: Path) -> None:
    lock = copy.deepcopy(LOCK)
    lock["contributions"]["alpha#101"]["first_release"] = {"tag": "v1.2.0", "published_at": "2024-03-05T10:00:00Z"}
    write_lock(site, lock)


EDITS: dict[str, Callable[[Path], None]] = {
    "write-up text": edit_text,
    "header options": edit_header,
    "new write-up": add_write_up,
    "deleted write-up": delete_write_up,
    "conf.py": edit_conf,
    "template": edit_template,
    "static file": edit_static,
    "lock file": write_lock,
    "lock file changed": edit_lock,
}


def test_each_save_serves_what_a_clean_build_writes(preview: Preview, tmp_path: Path) -> None:
    first = preview.lines()[0]
    assert SECONDS.sub("T s", first) == (
        "first build: read 8 (about/index, contributions/alpha-101, contributions/beta-202, contributions/delta-404, "
        "contributions/gamma-303 and 3 more), wrote 12 (about/index, contributions/alpha-101, contributions/beta-202, "
        "contributions/delta-404, contributions/gamma-303 and 7 more) in T s"
    )
    assert differs_from_clean(preview, tmp_path / "clean-0") is None
    lines = {}
    for number, (name, change) in enumerate(EDITS.items(), start=1):
        lines[name] = preview.save(change)
        report = differs_from_clean(preview, tmp_path / f"clean-{number}")
        assert report is None, f"after the {name}: {report}"
    assert lines["write-up text"] == (
        "contributions/beta-202.md: read 1 (contributions/beta-202), wrote 3 (contributions/beta-202, 404, search) "
        "in T s"
    )
    assert lines["conf.py"].startswith("conf.py: a fresh environment (conf.py); read 8 (")
    assert "Traceback" not in preview.output.now()


BANNER = '<div id="contributions-preview" role="alert"'


def test_a_stopped_build_and_a_warning_show_and_the_next_save_recovers(preview: Preview, tmp_path: Path) -> None:
    """A ``conf.py`` that does not run stops the build: one line, the error on every served page, and the
    next save builds again; then a directive that warns: its warning here and on the pages, until fixed."""
    conf = preview.site / "conf.py"
    settings = conf.read_text(encoding="utf-8")
    line = preview.save(lambda site: conf.write_text(settings + "\nbroken = (\n", encoding="utf-8"))
    number = len(settings.splitlines()) + 2
    error = "ConfigError: There is a syntax error in your configuration file: "
    error += f"'(' was never closed (conf.py, line {number})"
    assert line == (
        f"conf.py: a fresh environment (conf.py); the build stopped after T s: {error} "
        "(the pages served are the last build's; save again to rebuild)"
    )
    page = preview.page("contributions/beta-202.html")
    shown = page[page.index(BANNER) :]
    assert shown.startswith(BANNER)
    assert (
        "<strong>contributions serve: The last build stopped; these pages are from the build before it.</strong>"
        f"<p>{escape(error)}</p><details><summary>Traceback</summary>"
    ) in shown
    assert "Fix the beta decoder mask" in page  # the last build's page, still served

    line = preview.save(lambda site: conf.write_text(settings, encoding="utf-8"))
    assert line.startswith("conf.py: a fresh environment (conf.py); read 8 (")
    assert differs_from_clean(preview, tmp_path / "clean-1") is None
    assert BANNER not in preview.page("contributions/beta-202.html")

    # sync's cache of the forges' answers is no source: writing it starts no build (the next save is one)
    (preview.site / ".contributions-cache").mkdir()
    (preview.site / ".contributions-cache/answers.json").write_text("{}\n", encoding="utf-8")
    time.sleep(QUIET)
    write_up = preview.site / "contributions/beta-202.md"
    text = write_up.read_text(encoding="utf-8")
    start = len(preview.output.now())
    line = preview.save(lambda site: edit(write_up, ":after: ~1.91e-6", ":after: fast"))
    message = (
        "metric 'Position-0 drift' not shown: after must be a number such as 0.5 or 1.03e-1, got 'fast' "
        "[contrib.bad_metric]"
    )
    assert preview.output.now()[start:].splitlines()[0] == f"{write_up}:29: WARNING: {message}"
    # the metric's figure is the record's (listings show it): every page is written again (write/manifest.py)
    assert line.startswith("contributions/beta-202.md: read 1 (contributions/beta-202), wrote 12 (about/index, ")
    assert line.endswith(" in T s, 1 warning(s)")
    page = preview.page("contributions/beta-202.html")
    assert page[page.index(BANNER) :].endswith(
        "<strong>contributions serve: The last build warned (1).</strong>"
        f"<ul><li>contributions/beta-202.md:29: {escape(message)}</li></ul></div>"
    )

    line = preview.save(lambda site: write_up.write_text(text, encoding="utf-8"))
    # the metric's figure is the record's (listings show it): every page is written again (write/manifest.py)
    assert line.startswith("contributions/beta-202.md: read 1 (contributions/beta-202), wrote 12 (about/index, ")
    assert not line.endswith("warning(s)")
    assert differs_from_clean(preview, tmp_path / "clean-2") is None
    assert BANNER not in preview.page("contributions/beta-202.html")
    assert "Traceback" not in preview.output.now()


def test_imported_code_changed_starts_the_process_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A module the warm process imported (an extension upgraded, a site's own extension edited) changed on
    disk: no build with the old code; the process starts again (here: the call it would make)."""
    from sphinx_contributions.cli.preview import WarmBuilder

    site = tmp_path / "site"
    (site / "_ext").mkdir(parents=True)
    module = site / "_ext/local_ext.py"
    module.write_text("VERSION = 1\n", encoding="utf-8")
    restarts: list[str] = []
    builder = WarmBuilder(site, site / "_build/serve", site / "_build/serve-doctrees", {}, restarts.append)
    builder.imported = {str(module): module.stat().st_mtime_ns}
    module.write_text("VERSION = 2\n", encoding="utf-8")
    os.utime(module, ns=(module.stat().st_mtime_ns + 10**9,) * 2)
    builder(changed_paths=[module])
    assert restarts == [str(module)]
    assert (
        capsys.readouterr().out
        == "_ext/local_ext.py: _ext/local_ext.py changed since it was imported: starting again\n"
    )
    assert not (site / "_build").exists()  # nothing built


def test_the_processes_a_build_starts_do_not_pile_up(tmp_path: Path) -> None:
    """sphinx-sitemap starts a ``multiprocessing`` manager in each build (where the extension does not
    write the sitemap itself), stopped only when its application is collected: before, one process stayed
    per save."""
    import gc
    import multiprocessing

    from sphinx_contributions.cli.preview import build_once

    site = tmp_path / "site"
    site.mkdir()
    (site / "conf.py").write_text(
        'extensions = ["sphinx_sitemap"]\nhtml_baseurl = "https://example.org/"\n', encoding="utf-8"
    )
    before = len(multiprocessing.active_children())
    gc.disable()  # no automatic collection by chance in between: only the preview's own
    try:
        for number in range(3):
            (site / "index.rst").write_text(f"Home\n====\n\nSave {number}.\n", encoding="utf-8")
            outcome = build_once(site, site / "_build/serve", site / "_build/doctrees", {}, fresh=False)
            assert (outcome.stopped, outcome.read) == ("", ["index"])
        assert len(multiprocessing.active_children()) <= before + 1
    finally:
        gc.enable()
