"""The live preview rebuilds once per edit (issue 27, item 3): sphinx-autobuild, run directly as its own
README says (``sphinx-autobuild . _build/html``, ``sphinx-autobuild . _build``) and through ``contributions
serve --cold``, on a site made by ``contributions init``, is started for real, one page is edited once, and the
rebuilds it starts are counted in its output for a few seconds after the rebuild ends. Before, the build's
report was rewritten (same bytes) beside the output folder, inside the watched tree, and each build started
the next one."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

DETECTED = re.compile(r"Detected changes \((?P<paths>.*)\)")
#: Sphinx's last line of a build, as sphinx-autobuild passes it through
FINISHED = re.compile(r"^build (succeeded|finished)", re.M)
#: how long to keep counting after the rebuild: watchfiles reports a change within ~2 s (its debounce)
QUIET_SECONDS = 8.0
#: what ``contributions init`` writes at the top of the site, and the output folder
SITE_FILES = sorted(
    [
        ".gitignore",
        ".pre-commit-config.yaml",
        ".readthedocs.yaml",
        "README.md",
        "_build",
        "about.md",
        "conf.py",
        "contributions",
        "index.md",
        "requirements.txt",
    ]
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Output:
    """A process's output, read as it comes (sphinx-autobuild never ends by itself)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.text = ""
        self.lock = threading.Lock()
        assert process.stdout is not None
        stream = process.stdout
        self.thread = threading.Thread(target=self.read, args=(stream,), daemon=True)
        self.thread.start()

    def read(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            with self.lock:
                self.text += line

    def now(self) -> str:
        with self.lock:
            return self.text

    def wait_for(self, pattern: re.Pattern[str], count: int, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while len(pattern.findall(self.now())) < count:
            assert time.monotonic() < deadline, f"waited {timeout} s for {pattern.pattern!r}:\n{self.now()[-4000:]}"
            time.sleep(0.2)
        return self.now()


def init_site(tmp_path: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "sphinx_contributions", "init", "site", "--yes", "--name", "Ada"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    return tmp_path / "site"


def rebuilds_after_one_edit(site: Path, command: list[str], unwatched: tuple[str, ...] = ()) -> list[str]:
    """Start ``command`` in ``site``, wait for its first build, write each file of ``unwatched`` (a few
    seconds apart from the edit, so that a rebuild it starts is one of its own), edit ``about.md`` once,
    and return the changes sphinx-autobuild detected from then until it has been quiet for
    :data:`QUIET_SECONDS`."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, cwd=site, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        output = Output(process)
        output.wait_for(re.compile("Waiting to detect changes"), 1, 180)
        port = int(command[command.index("--port") + 1])
        deadline = time.monotonic() + 60
        while True:  # the server answers once its startup, which starts the watcher, is done
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, output.now()[-3000:]
            time.sleep(0.3)
        time.sleep(1.0)
        for name in unwatched:
            (site / name).parent.mkdir(parents=True, exist_ok=True)
            (site / name).write_text("{}\n", encoding="utf-8")
        if unwatched:
            time.sleep(QUIET_SECONDS / 2)
        about = site / "about.md"
        about.write_text(about.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
        output.wait_for(FINISHED, 2, 180)
        seen = 0
        while True:  # until nothing new for QUIET_SECONDS (a loop never gets quiet: bounded)
            time.sleep(QUIET_SECONDS)
            found = DETECTED.findall(output.now())
            if len(found) == seen or len(found) > 5:
                return list(found)
            seen = len(found)
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.parametrize(
    "outdir",
    ["_build/html", "_build"],  # _build: the doctrees are _build/.doctrees, the site's folder holds _build
)
def test_plain_sphinx_autobuild_rebuilds_once(tmp_path: Path, outdir: str) -> None:
    site = init_site(tmp_path)
    command = [sys.executable, "-m", "sphinx_autobuild", "--port", str(free_port()), ".", outdir]
    assert rebuilds_after_one_edit(site, command) == ["about.md"]
    # nothing the build wrote is in the site's own folder, beside its sources
    assert sorted(path.name for path in site.iterdir()) == SITE_FILES


def test_contributions_serve_cold_rebuilds_once(tmp_path: Path) -> None:
    """``serve --cold``: sphinx-autobuild's own loop (the warm preview's saves: tests/test_serve.py)."""
    site = init_site(tmp_path)
    command = [sys.executable, "-m", "sphinx_contributions", "serve", "--cold", "--port", str(free_port())]
    # sync's cache of the forges' answers is not a source: writing it starts no rebuild (issue 33)
    cache = ".contributions-cache/answers.json"
    assert rebuilds_after_one_edit(site, command, unwatched=(cache,)) == ["about.md"]


def test_serve_with_a_missing_theme_shows_one_line_and_the_pages(tmp_path: Path) -> None:
    """Before: Sphinx's "Theme error!" report and a traceback, then an empty folder served (the warm
    preview, which builds in its own process)."""
    site = init_site(tmp_path)
    conf = site / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8").replace('"furo"', '"no_such_theme"'), encoding="utf-8")
    port = free_port()
    command = [sys.executable, "-m", "sphinx_contributions", "serve", "--port", str(port)]
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, cwd=site, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        watched = Output(process)
        watched.wait_for(re.compile("^serving on ", re.M), 1, 180)
        deadline = time.monotonic() + 60  # the server listens a moment after its watcher starts
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/contributions/demo-1.html", timeout=10) as page:
                    assert "Fix the cache key" in page.read().decode("utf-8")
                break
            except OSError:
                assert time.monotonic() < deadline, watched.now()[-3000:]
                time.sleep(0.5)
        output = watched.now()
    finally:
        process.terminate()
        process.wait(timeout=30)
    line = next(line for line in output.splitlines() if "no_such_theme" in line)
    theme_line = conf.read_text(encoding="utf-8").splitlines().index('html_theme = "no_such_theme"') + 1
    assert line.endswith(
        f"conf.py:{theme_line}: WARNING: html_theme 'no_such_theme' is not installed; install it with: pip install "
        "no-such-theme (this build uses alabaster instead) [contrib.missing_theme]"
    )
    assert "Traceback" not in output and "Theme error" not in output


def test_serve_on_a_busy_port_is_one_line(tmp_path: Path) -> None:
    """Before: the site was built, "Serving on http://127.0.0.1:8000" printed, then "address already in use"."""
    site = init_site(tmp_path)
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        command = [sys.executable, "-m", "sphinx_contributions", "serve", "--port", str(port)]
        done = subprocess.run(command, cwd=site, capture_output=True, text=True, check=False, timeout=180)
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        f"contributions serve: port {port} on 127.0.0.1 is in use (another preview?); stop that server or choose "
        f"another port: contributions serve --port {port + 1}\n",
    )
    assert not (site / "_build").exists()  # nothing was built
