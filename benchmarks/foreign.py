"""The extension as a guest on someone else's documentation: a site built as it is, then with
``extensions.append("sphinx_contributions")`` as the only change (issue 32, "the cost of nothing").

``python benchmarks/foreign.py DOCS [--python PY] [--rounds 3] [-b html] [--instructions]`` takes a documentation folder
(the one holding its ``conf.py``), copies it beside itself as ``<DOCS>.with-contributions`` (so paths the
site's ``conf.py`` takes relative to its folder still hold) with the one line appended, and then:

- builds each once unmeasured (the bytecode of every module written, as an installed package has it;
  the files in the OS cache), then both from scratch, ``--rounds`` times, alternating which goes first:
  the CPU time (user + system of the build process and the workers it reaped, ``os.wait4``) and the wall
  time of each, their medians and the ratio with / without, and (steadier on a shared machine) the median
  of each round's own ratio, its two builds back to back, and the ratio of the fastest builds;
- with ``--instructions``, builds each once more under valgrind's callgrind and counts the instructions it
  runs: a ratio that the machine's load does not move (the times of a small site's builds scatter by a
  third on a shared machine, more than the few percent to be read);
- compares the two output trees of the last round file by file (every file, as bytes); a file that two
  clean builds *without* the extension already write differently (a time stamp, a random id) is reported
  apart, as the site's own noise, not the extension's;
- rebuilds each with nothing changed, then after touching one source page (``--touch``, default: the
  first in name order), and counts the pages Sphinx reads and writes in each.

Builds are not strict (a fetched site offline warns about its intersphinx inventories); both get the same
command, ``PY -m sphinx -b BUILDER -d <out>/doctrees DOCS <out>/BUILDER``, with ``SOURCE_DATE_EPOCH`` and
``PYTHONHASHSEED`` fixed. ``--python`` is the interpreter whose environment has the site's own
requirements and the extension (default: this one). Run it with ``nice`` on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

LINE = "\nextensions.append({!r})  # benchmarks/foreign.py: the only change\n"
_READ = re.compile(r"^reading sources\.\.\. \[\s*\d+%\] (\S+)", re.M)
_WRITTEN = re.compile(r"^writing output\.\.\. \[\s*\d+%\] (\S+)", re.M)
SOURCE_SUFFIXES = (".rst", ".md", ".ipynb", ".txt")


@dataclass
class Run:
    wall: float
    cpu: float
    stdout: str
    stderr: str

    @property
    def read(self) -> list[str]:
        return _READ.findall(self.stdout)

    @property
    def written(self) -> list[str]:
        return _WRITTEN.findall(self.stdout)

    @property
    def warnings(self) -> int:
        return sum(1 for line in self.stderr.splitlines() if "WARNING" in line or "ERROR" in line)


def build(python: str, builder: str, src: Path, out: Path, *extra: str, under: tuple[str, ...] = ()) -> Run:
    command = [*under, python, "-m", "sphinx", "-b", builder, "--no-color", *extra, "-d", str(out / "doctrees")]
    command += [str(src), str(out / builder)]
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # bytecode written and reused, as an installed package has it: with PYTHONDONTWRITEBYTECODE (set on this
    # machine) every build of the guest compiled the extension's ~100 modules again (0.3 s of CPU), which an
    # installed wheel never does, while the site's other packages came with their bytecode
    environ |= {"SOURCE_DATE_EPOCH": "1700000000", "PYTHONHASHSEED": "0"}
    start = time.perf_counter()
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, env=environ, cwd=src)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        stdout.seek(0)
        stderr.seek(0)
        out_text, err_text = stdout.read().decode(errors="replace"), stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"build of {src} failed:\n{err_text[-4000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, out_text, err_text)


#: the build's process, as callgrind names it (``==PID== Command: …``)
_COMMAND = re.compile(r"^==(\d+)== Command: ", re.MULTILINE)


def instructions(python: str, builder: str, src: Path, out: Path) -> int:
    """The instructions one clean build runs, counted by valgrind's callgrind: the same figure on a busy
    machine as on an idle one (the time it stands for is not: a cache miss costs more than an add), so a
    ratio of a few percent can be read where the times of two builds scatter by a third."""
    shutil.rmtree(out, ignore_errors=True)
    tool = ("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p.callgrind")
    run = build(python, builder, src, out, "-q", under=tool)
    command = _COMMAND.search(run.stderr)
    # the build's own count: a process it forks (nbsphinx's pandoc, before its exec) inherits the counter
    # and reports the instructions run until the fork, first
    found = re.search(rf"^=={command[1]}== Collected : (\d+)", run.stderr, re.MULTILINE) if command else None
    if found is None:
        raise SystemExit(f"callgrind counted nothing:\n{run.stderr[-2000:]}")
    return int(found[1])


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def differing(a: dict[str, bytes], b: dict[str, bytes]) -> tuple[list[str], list[str], list[str]]:
    """Files only in ``a``, only in ``b``, and in both with other bytes."""
    return (
        sorted(set(a) - set(b)),
        sorted(set(b) - set(a)),
        sorted(name for name in set(a) & set(b) if a[name] != b[name]),
    )


def first_changed_line(a: bytes, b: bytes) -> str:
    """The first line where ``b`` differs from ``a``, shortened: what the extension changed there."""
    lines = a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines()
    for left, right in zip(*lines, strict=False):
        if left != right:
            return f"- {left.strip()[:150]}\n      + {right.strip()[:150]}"
    return "(one is a prefix of the other)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docs", type=Path, help="the site's documentation folder (holding conf.py)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that builds (default: this one)")
    parser.add_argument("--rounds", type=int, default=3, help="clean builds of each (default: 3)")
    parser.add_argument("-b", "--builder", default="html", help="the Sphinx builder (default: html)")
    parser.add_argument("--touch", help="the source page touched before the last rebuild (default: the first)")
    parser.add_argument("--out", type=Path, help="where the outputs go (default: a temporary folder, removed)")
    parser.add_argument("--extension", default="sphinx_contributions", help="the one extension appended")
    parser.add_argument("--show", type=int, default=12, help="differing files shown with their first change")
    parser.add_argument(
        "--instructions", action="store_true", help="also count each build's instructions once (valgrind)"
    )
    args = parser.parse_args(argv)
    docs = args.docs.resolve()
    if not (docs / "conf.py").is_file():
        raise SystemExit(f"{docs} holds no conf.py")
    guest = docs.with_name(f"{docs.name}.with-{args.extension}")
    shutil.rmtree(guest, ignore_errors=True)
    shutil.copytree(docs, guest, ignore=shutil.ignore_patterns("_build"))
    with (guest / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(LINE.format(args.extension))
    work = args.out or Path(tempfile.mkdtemp(prefix="contrib-foreign-"))
    sites = {"without": docs, "with": guest}
    runs: dict[str, list[Run]] = {"without": [], "with": []}
    trees: dict[str, list[dict[str, bytes]]] = {"without": [], "with": []}
    try:
        for name in ("without", "with"):  # unmeasured: bytecode written, files in the OS cache
            build(args.python, args.builder, sites[name], work / name, "-q")
        for i in range(args.rounds):
            for name in ("without", "with") if i % 2 == 0 else ("with", "without"):
                out = work / name
                shutil.rmtree(out, ignore_errors=True)
                run = build(args.python, args.builder, sites[name], out, "-q")
                runs[name].append(run)
                trees[name].append(files(out / args.builder))
                print(f"round {i + 1} {name:<8} wall {run.wall:7.2f} s  CPU {run.cpu:7.2f} s  warnings {run.warnings}")
        counted = {}
        if args.instructions:
            counted = {
                name: instructions(args.python, args.builder, sites[name], work / f"{name}.ir") for name in sites
            }
        incremental = {}
        for name in ("without", "with"):
            noop = build(args.python, args.builder, sites[name], work / name)
            found = sites[name].rglob("*")
            sources = sorted(p for p in found if p.suffix in SOURCE_SUFFIXES and "_build" not in p.parts)
            page = sites[name] / args.touch if args.touch else sources[0]
            stamp = time.time() + 1
            os.utime(page, (stamp, stamp))
            touched = build(args.python, args.builder, sites[name], work / name)
            incremental[name] = (noop, touched, page.relative_to(sites[name]).as_posix())
    finally:
        if args.out is None:
            shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(guest, ignore_errors=True)

    print(f"\nsite: {docs}\nbuilder: {args.builder}; interpreter: {args.python}; rounds: {args.rounds}")
    print(f"command: {args.python} -m sphinx -b {args.builder} -q -d <out>/doctrees <docs> <out>/{args.builder}")
    cpu = {name: statistics.median(r.cpu for r in rs) for name, rs in runs.items()}
    wall = {name: statistics.median(r.wall for r in rs) for name, rs in runs.items()}
    for name in ("without", "with"):
        each = ", ".join(f"{r.cpu:.2f}" for r in runs[name])
        print(f"{name:<8} median CPU {cpu[name]:7.2f} s (rounds {each}), median wall {wall[name]:7.2f} s")
    print(f"ratio with / without: CPU {cpu['with'] / cpu['without']:.3f}, wall {wall['with'] / wall['without']:.3f}")
    # on a shared machine a build's time swings by a third from one minute to the next: the two builds of a
    # round run back to back, so the median of each round's ratio, and the ratio of the fastest (the least
    # disturbed) builds, are steadier than the ratio of the medians
    paired = statistics.median(w.cpu / o.cpu for w, o in zip(runs["with"], runs["without"], strict=True))
    fastest = min(r.cpu for r in runs["with"]) / min(r.cpu for r in runs["without"])
    print(f"CPU ratio: median of the rounds' ratios {paired:.3f}, of the fastest builds {fastest:.3f}")
    if counted:
        print(
            f"instructions (callgrind, one build each): {counted['without']:,} without, {counted['with']:,} with, "
            f"ratio {counted['with'] / counted['without']:.4f}"
        )

    noise: set[str] = set()
    for tree in trees["without"][1:]:
        only_a, only_b, changed = differing(trees["without"][0], tree)
        noise |= set(only_a) | set(only_b) | set(changed)
    a, b = trees["without"][-1], trees["with"][-1]
    only_without, only_with, changed = differing(a, b)
    html = [name for name in a if name.endswith(".html")]
    changed_html = [name for name in changed if name.endswith(".html")]
    print(
        f"\noutput: {len(a)} files without, {len(b)} with; {len(changed)} differ "
        f"({len(changed_html)} of {len(html)} HTML pages), {len(only_with)} only with, {len(only_without)} only without"
    )
    print(f"size: {sum(map(len, a.values())):,} bytes without, {sum(map(len, b.values())):,} with")
    if noise:
        print(f"the site's own noise (two clean builds without differ): {len(noise)} files, e.g. {sorted(noise)[:5]}")
    for name in only_with[: args.show]:
        print(f"  only with: {name}")
    for name in only_without[: args.show]:
        print(f"  only without: {name}")
    kinds: dict[str, list[str]] = {}  # the first change → the files where it is the first
    for name in changed:
        if name not in noise:
            kinds.setdefault(first_changed_line(a[name], b[name]), []).append(name)
    for change, names in sorted(kinds.items(), key=lambda item: -len(item[1]))[: args.show]:
        print(f"  {len(names)} file(s) differ first at\n      {change}\n    e.g. {', '.join(names[:3])}")
    print()
    for name, (noop, touched, page) in incremental.items():
        print(
            f"{name:<8} no-op rebuild: {len(noop.read)} read, {len(noop.written)} written; "
            f"after touching {page}: {len(touched.read)} read {touched.read[:8]}, {len(touched.written)} written"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
