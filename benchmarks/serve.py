"""Edit → served, and the preview's memory over many saves (issue 47).

``python benchmarks/serve.py`` copies the portfolio's site (this repository without its package, tests and
build folders) twice into a temporary folder, and in one run, round after round on the same edit of a
write-up's text (a new word in a paragraph):

- **warm**: ``contributions serve`` (this process's Python) on the first copy; the time from the save to the
  served page holding the new word, polled over HTTP every 5 ms;
- **new process**: ``python -m sphinx build`` of the second copy with the preview's settings (drafts
  included, its own output and doctree folders), after the same edit: the time from starting the process to
  its end (the rebuild a new process makes of the edit);
- **cold preview** (``--cold-preview``): ``contributions serve --cold`` (sphinx-autobuild, one process per
  save) on a third copy, measured as the warm one.

The rounds alternate the variants, so the machine's neighbours weigh on each alike. Then ``--saves`` more
saves (default 200) go to the warm preview, each awaited on the page, and its resident memory (``VmRSS``)
is read after save 20 and after the last.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: what the copy of the site leaves out: the package, its tests and tools, and build folders
SKIPPED = shutil.ignore_patterns(
    ".git", ".venv", "_build", "node_modules", "tests", "benchmarks", "sphinx_contributions", "*.egg-info",
    "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "docs",
)  # fmt: skip
PAGE = "contributions/transformers-49135"
#: the sentence each save changes (its last word)
ANCHOR = "After the fix, the drift matched the last known-good release."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def save(site: Path, word: str) -> None:
    """The write-up's sentence ends with ``word`` (each save a new one)."""
    path = site / f"{PAGE}.md"
    text = path.read_text(encoding="utf-8")
    start = text.index(ANCHOR)
    end = text.index("\n", start)
    path.write_text(text[:start] + ANCHOR + f" {word}" + text[end:], encoding="utf-8")


class Preview:
    def __init__(self, site: Path, *extra: str) -> None:
        self.port = free_port()
        self.log = open(site.parent / f"{site.name}.log", "w", encoding="utf-8")  # noqa: SIM115
        command = [sys.executable, "-m", "sphinx_contributions", "serve", "--port", str(self.port), *extra]
        environ = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(command, cwd=site, stdout=self.log, stderr=subprocess.STDOUT, env=environ)
        self.served(f"{PAGE}.html", "", timeout=600)
        time.sleep(2.0)  # the watcher is running

    def page(self, name: str) -> str:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{name}", timeout=10) as answer:
                return str(answer.read().decode("utf-8"))
        except (OSError, http.client.HTTPException):  # a page being written as it is read
            return ""

    def served(self, name: str, word: str, timeout: float = 120) -> float:
        """Poll the page until it holds ``word``; the time it took."""
        start = time.perf_counter()
        while True:
            text = self.page(name)
            if text and word in text:
                return time.perf_counter() - start
            if time.perf_counter() - start > timeout:
                raise SystemExit(f"{name} never showed {word!r} (log: {self.log.name})")
            time.sleep(0.005)

    def edit(self, site: Path, word: str) -> tuple[float, float]:
        """Save ``word``; the wall time until the page shows it, and the CPU time the preview spent."""
        start, cpu = time.perf_counter(), self.cpu()
        save(site, word)
        self.served(f"{PAGE}.html", word)
        return time.perf_counter() - start, self.cpu() - cpu

    def cpu(self) -> float:
        """User + system time of the preview's process so far (not of the processes it started and reaped:
        ``--cold``'s builds are counted by their own wall time only)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise SystemExit("no VmRSS")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def sphinx_command(site: Path) -> list[str]:
    out = site.parent / f"{site.name}-build"
    return [
        sys.executable, "-m", "sphinx", "build", "-q", "-b", "html", "-D", "contributions_include_drafts=1",
        "-d", str(out / "doctrees"), str(site), str(out / "html"),
    ]  # fmt: skip


def new_process_rebuild(site: Path, word: str) -> tuple[float, float]:
    """Save ``word``, rebuild in a new process; its wall time and CPU time (user + system, ``wait4``)."""
    save(site, word)
    start = time.perf_counter()
    process = subprocess.Popen(sphinx_command(site), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, process.returncode
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--saves", type=int, default=200, help="saves for the memory figure (0: none)")
    parser.add_argument("--cold-preview", action="store_true", help="time contributions serve --cold too")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="serve-bench-"))
    sites = {name: Path(shutil.copytree(REPO, work / name, ignore=SKIPPED)) for name in ("warm", "new", "cold")}
    subprocess.run(sphinx_command(sites["new"]), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    warm = Preview(sites["warm"])
    cold = Preview(sites["cold"], "--cold") if args.cold_preview else None
    times: dict[str, list[tuple[float, float]]] = {"warm": [], "new": [], "cold": []}
    try:
        for number in range(args.rounds):
            word = f"round{number}x"
            times["warm"].append(warm.edit(sites["warm"], word))
            times["new"].append(new_process_rebuild(sites["new"], word))
            if cold is not None:
                times["cold"].append(cold.edit(sites["cold"], word))
            time.sleep(0.5)
        if cold is not None:
            cold.stop()
            cold = None
        memory = {}
        for number in range(1, args.saves + 1):
            warm.edit(sites["warm"], f"save{number}x")
            time.sleep(0.3)  # the build's end (its report, its line) after the page
            if number in (20, args.saves):
                memory[number] = warm.rss_kib()
    finally:
        warm.stop()
        if cold is not None:
            cold.stop()
    print(f"the portfolio's site, page {PAGE}; {args.rounds} rounds; {work}")
    medians = {}
    for name, pairs in times.items():
        if not pairs:
            continue
        for column, label in ((0, "wall"), (1, "CPU")):
            values = [pair[column] for pair in pairs]
            medians[name, label] = statistics.median(values)
            shown = " ".join(f"{value:.3f}" for value in values)
            print(
                f"{name:5} {label:4} median {medians[name, label]:.3f} s  min {min(values):.3f}  "
                f"max {max(values):.3f}  [{shown}]"
            )
    for label in ("wall", "CPU"):
        print(f"warm / new process ({label}): {medians['warm', label] / medians['new', label]:.3f}")
    if ("cold", "wall") in medians:
        print(f"warm / cold preview (wall): {medians['warm', 'wall'] / medians['cold', 'wall']:.3f}")
    for number, kib in memory.items():
        print(f"resident memory after {number} saves: {kib / 1024:.1f} MiB")
    if 20 in memory and args.saves in memory:
        print(f"after {args.saves} / after 20: {memory[args.saves] / memory[20]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
