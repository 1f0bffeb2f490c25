"""Build benchmark: the extension's site against plain MyST pages of the same text (``make bench``).

For each N it generates two sites beside each other in a temporary folder, both built with the real
site's ``conf.py`` and ``_static`` (the twins' ``conf.py`` with the extension taken out of ``extensions``;
until 2026-12-03 they loaded it too):

- ``contrib``: N write-ups (the ``contribution`` header, the four sections, a ``metric``, tags drawn
  from a small set, two ``{contrib}`` links to other write-ups) and an index holding a
  ``contributions`` table; the extension also writes the tag and project pages, the JSON and the feed;
- ``plain``: the same text as plain MyST pages (headings, paragraphs, the figures as text, Markdown
  links instead of ``{contrib}``), each marked orphan, and the listings written by hand as plain lists:
  an index listing every write-up, and one page per project and per tag listing its write-ups, each
  entry a link with the write-up's title, so the floor is Sphinx, MyST and the theme alone, reaching the
  same pages from the same listings. (Until 2026-12-03 each hand-made entry repeated the write-up's
  project, PR, state, summary, key figure and tags, and the index was a 1,000-row Markdown table: the
  twin then took 31 s where its write-ups alone took 13.6 s, more than twice, because MyST read and Sphinx
  indexed that text three times over; the extension's listings are generated, never read, and its
  ``contributions`` directive is one line. Its 0.415x measured the twin, not the extension.)

The ``contrib`` site is built three ways: with this tree's extension, the same without PyStemmer, and
with the extension of an earlier commit (``--base``, extracted with ``git archive``) in that commit's
environment (no PyStemmer). Every variant is built from scratch in turn (rotating which goes first),
several rounds; medians are printed with the ratios of ``benchmarks/README.md``, and the peak memory
(max RSS of the build process and its reaped workers, from ``wait4``).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pages import Page, make_pages  # benchmarks/pages.py, beside this file

REPO = Path(__file__).resolve().parent.parent
#: the commit before the speed work (issue 14): the extension the ratio "whole build" compares with
BASE = "8fbdf7b"
#: a canonical address for the benchmark's builds only (``.invalid``: reserved, never a real host)
BASEURL = ("-D", "html_baseurl=https://bench.invalid/")


#: appended to the twins' ``conf.py``: the same settings, theme and extensions, the extension's left out
WITHOUT_EXTENSION = '\nextensions.remove("sphinx_contributions")  # benchmarks/run.py: the plain twin\n'


SECTION_NAMES = (("problem", "Problem"), ("root-cause", "Root cause"), ("fix", "Fix"), ("verification", "Verification"))


def contrib_page(page: Page, pages: list[Page]) -> str:
    label, before, after, unit = page.metric
    links = " and ".join(f"{{contrib}}`{pages[j].key}`" for j in page.links)
    parts = [
        f"# {page.title}\n",
        ":::{contribution}",
        f":repo: {page.repo}",
        f":pr: {page.pr}",
        f":status: {page.status}",
        f":tags: {', '.join(page.tags)}",
        f":date: {page.date}",
        f":summary: {page.summary}",
        ":::\n",
    ]
    for (name, _), text in zip(SECTION_NAMES[:3], page.sections[:3], strict=True):
        parts += [f":::{{{name}}}", text, ":::\n"]
    parts += [
        "::::{verification}",
        f":::{{metric}} {label}\n:before: {before}\n:after: {after}\n:unit: {unit}\n:::\n",
        page.sections[3],
        f"\nSee also {links}.",
        "::::\n",
    ]
    return "\n".join(parts)


def _slug(text: str) -> str:
    """The extension's slug rule, for the ASCII names used here (``C++`` → ``c-plus-plus``)."""
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower().replace("+", " plus ")).split())


def _project(page: Page) -> str:
    return page.repo.split("/")[1]


def _brief(page: Page) -> str:
    label, before, after, unit = page.metric
    return f"{label}: {before} {unit} → {after} {unit} (≈{before / after:.2g}× lower)"


def plain_page(page: Page, pages: list[Page], listing_pages: bool = True) -> str:
    """The write-up as plain MyST: a header of text and links (to the hand-made project and tag pages,
    when there are any), the sections as headings, the figure as text, Markdown links instead of
    ``{contrib}``."""
    label, before, after, unit = page.metric
    links = " and ".join(f"[{pages[j].title}]({pages[j].slug}.md)" for j in page.links)
    if listing_pages:
        tags = " ".join(f"[{tag}](../tags/{_slug(tag)}.md)" for tag in page.tags)
        project = f"[{_project(page)}](../projects/{_slug(_project(page))}.md)"
    else:
        tags, project = ", ".join(page.tags), _project(page)
    parts = [
        "---\norphan: true\n---\n",
        f"# {page.title}\n",
        f"{project} · [PR #{page.pr}](https://github.com/{page.repo}/pull/{page.pr}) · {page.status} · {page.date}\n",
        f"{page.summary}\n",
        f"Tags: {tags}\n",
        f"- {_brief(page)}\n",
    ]
    for (_, heading), text in zip(SECTION_NAMES[:3], page.sections[:3], strict=True):
        parts += [f"## {heading}\n", text + "\n"]
    parts += [
        "## Verification\n",
        f"{label}: before {before} {unit}, after {after} {unit}.\n",
        page.sections[3],
        f"\nSee also {links}.\n",
    ]
    return "\n".join(parts)


def contrib_index() -> str:
    return "# Benchmark site\n\nAll write-ups:\n\n:::{contributions}\n:layout: table\n:sort: date\n:::\n"


def _newest_first(pages: list[Page]) -> list[Page]:
    return sorted(pages, key=lambda page: page.date, reverse=True)


def plain_index(pages: list[Page]) -> str:
    """By hand, what the extension's ``contributions`` listing reaches: a plain list of every write-up,
    newest first, each a link with its title."""
    lines = ["# Benchmark site\n", "All write-ups:\n"]
    lines += [f"- [{page.title}](contributions/{page.slug}.md)" for page in _newest_first(pages)]
    return "\n".join(lines) + "\n"


def bare_index(pages: list[Page]) -> str:
    """The write-ups alone: an index that is a bare list of links, no project or tag pages."""
    lines = ["# Benchmark site\n", "All write-ups:\n"]
    lines += [f"- [{page.title}](contributions/{page.slug}.md)" for page in pages]
    return "\n".join(lines) + "\n"


def plain_listing_page(heading: str, pages: list[Page]) -> str:
    """By hand, what a generated tag or project page reaches: the count, then a plain list of its
    write-ups, newest first, each a link with its title."""
    count = f"{len(pages)} contribution" + ("" if len(pages) == 1 else "s")
    lines = ["---\norphan: true\n---\n", f"# {heading}\n", f"{count}.\n"]
    lines += [f"- [{page.title}](../contributions/{page.slug}.md)" for page in _newest_first(pages)]
    return "\n".join(lines) + "\n"


def plain_listing_pages(pages: list[Page]) -> dict[str, str]:
    """path → text of the hand-made project and tag pages (the extension generates the same set)."""
    groups: dict[str, tuple[str, list[Page]]] = {}
    for page in pages:
        project = _project(page)
        groups.setdefault(f"projects/{_slug(project)}.md", (f"Project: {project}", []))[1].append(page)
        for tag in page.tags:
            groups.setdefault(f"tags/{_slug(tag)}.md", (f"Tag: {tag}", []))[1].append(page)
    return {path: plain_listing_page(heading, listed) for path, (heading, listed) in sorted(groups.items())}


def generate(root: Path, n: int) -> dict[str, Path]:
    """The sites for N write-ups, under ``root/<kind>`` (``contrib``, ``plain``, ``bare``: the plain
    write-ups without listing pages); returns their sources."""
    pages = make_pages(n)
    sites = {}
    for kind in ("contrib", "plain", "bare"):
        src = root / kind / "src"
        (src / "contributions").mkdir(parents=True)
        shutil.copy2(REPO / "conf.py", src / "conf.py")
        if kind != "contrib":  # the twin is Sphinx, MyST and the theme alone: the extension is not loaded
            with (src / "conf.py").open("a", encoding="utf-8") as conf:
                conf.write(WITHOUT_EXTENSION)
        shutil.copytree(REPO / "_static", src / "_static")
        for page in pages:
            if kind == "contrib":
                text = contrib_page(page, pages)
            else:
                text = plain_page(page, pages, listing_pages=kind == "plain")
            (src / "contributions" / f"{page.slug}.md").write_text(text, encoding="utf-8")
        index = contrib_index() if kind == "contrib" else plain_index(pages) if kind == "plain" else bare_index(pages)
        (src / "index.md").write_text(index, encoding="utf-8")
        if kind == "plain":
            for path, text in plain_listing_pages(pages).items():
                (src / path).parent.mkdir(exist_ok=True)
                (src / path).write_text(text, encoding="utf-8")
        sites[kind] = src
    return sites


@dataclass(frozen=True)
class Variant:
    """What builds a site: its name in the table, the site it builds, and what goes first on ``sys.path``."""

    name: str
    site: str  # "contrib", "plain" or "bare"
    pythonpath: tuple[Path, ...] = ()
    options: tuple[str, ...] = ()
    #: the build's working folder: not the repository, whose ``sphinx_contributions`` would come first
    cwd: Path = Path(tempfile.gettempdir())


#: put first on ``sys.path``, hides PyStemmer (snowballstemmer then stems in pure Python)
NO_STEMMER = 'raise ImportError("PyStemmer hidden by benchmarks/run.py")\n'


def extract_base(commit: str, workdir: Path) -> Path:
    """The extension as it was at ``commit`` (``git archive``), to build the same site with it."""
    dest = workdir / f"base-{commit}"
    dest.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "sphinx_contributions"], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {commit} failed: {archive.stderr.decode()}")
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest


def no_stemmer_dir(workdir: Path) -> Path:
    shim = workdir / "no-stemmer"
    shim.mkdir(exist_ok=True)
    (shim / "Stemmer.py").write_text(NO_STEMMER, encoding="utf-8")
    return shim


def has_social_cards(package: Path) -> bool:
    """Whether this tree's extension has the social cards switch (it is turned off for the benchmark)."""
    return any("contributions_social_cards" in p.read_text(encoding="utf-8") for p in package.rglob("*.py"))


def environ(variant: Variant) -> dict[str, str]:
    paths = [*map(str, variant.pythonpath), *filter(None, [os.environ.get("PYTHONPATH")])]
    # bytecode written and reused, as an installed package has it (see compile_trees): with
    # PYTHONDONTWRITEBYTECODE (set on this machine) every contrib build compiled the extension's ~100
    # modules again (about 0.3 s of CPU) while the plain twin's packages came with their bytecode
    return {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "SOURCE_DATE_EPOCH": "1700000000",
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": os.pathsep.join(paths),
    }


def compile_trees(*trees: Path) -> None:
    """The bytecode of each extension tree, before any build is timed (as pip writes it on install)."""
    for tree in trees:
        package = tree / "sphinx_contributions"
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True, capture_output=True)


def describe(variant: Variant) -> str:
    """Which extension and which stemmer a variant's build process imports (checked, not assumed)."""
    code = (
        "import importlib.util as u, snowballstemmer as s; "
        "spec = u.find_spec('sphinx_contributions'); "
        "print(spec.origin if spec else '-', 'PyStemmer' if s.stemmer.__module__ == 'Stemmer' else 'pure Python')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ(variant), cwd=variant.cwd
    )
    return done.stdout.strip() or done.stderr.strip()[-300:]


@dataclass
class Run:
    seconds: float  # wall clock
    cpu: float  # user + system time of the build process and the workers it reaped
    maxrss_mb: float


def build(variant: Variant, src: Path, out: Path, *extra: str) -> Run:
    """One strict HTML build in a fresh process; wall time and peak RSS (``wait4``: the build process
    and the workers it reaped)."""
    # one canonical address for every variant (the site sets none outside Read the Docs, and a tree from before
    # it could do without one would warn): the same sitemap, feed and absolute URLs are built by each
    command = [sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", "html", *BASEURL, *variant.options]
    command += ["-d", str(out / "doctrees"), *extra, str(src), str(out / "html")]
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environ(variant), cwd=variant.cwd
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"{variant.name}: build of {src} failed ({process.returncode}):\n{stderr[-4000:]}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def out_dir(src: Path, variant: Variant) -> Path:
    """Each variant's own output folder beside the site it builds."""
    return src.parent / ("out-" + "".join(c if c.isalnum() else "-" for c in variant.name))


def clean_build(variant: Variant, src: Path, out: Path, *extra: str) -> Run:
    shutil.rmtree(out, ignore_errors=True)
    return build(variant, src, out, *extra)


def edit_one(src: Path) -> None:
    """Change one paragraph of one write-up's body, as the owner does between two previews."""
    page = sorted((src / "contributions").glob("*.md"))[0]
    text = page.read_text(encoding="utf-8")
    for start in (":::{problem}\n", "## Problem\n\n"):
        text = text.replace(start, start + "One more sentence for this edit.\n", 1)
    page.write_text(text, encoding="utf-8")
    stamp = time.time() + 1
    os.utime(page, (stamp, stamp))


def median(runs: list[Run]) -> float:
    return statistics.median(run.seconds for run in runs)


def median_cpu(runs: list[Run]) -> float:
    return statistics.median(run.cpu for run in runs)


def peak(runs: list[Run]) -> float:
    return max(run.maxrss_mb for run in runs)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 1024 / 1024:.1f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    load = f"; load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return (
        f"{cpu}, {os.cpu_count()} cores{memory}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}{load}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000", help="comma-separated N (default: 10,100,1000)")
    parser.add_argument("--rounds", default="5,3,3", help="rounds per size, same order (default: 5,3,3)")
    parser.add_argument("--base", default=BASE, help=f"commit to compare the extension with (default: {BASE})")
    parser.add_argument("--keep", action="store_true", help="keep the generated sites (prints where)")
    parser.add_argument(
        "--quick", action="store_true", help="contrib and plain only: no other variant, no -j 2, no edit"
    )
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.sizes.split(",")]
    rounds = [int(r) for r in args.rounds.split(",")]
    rounds += [rounds[-1]] * (len(sizes) - len(rounds))
    largest = max(sizes)
    import sphinx

    print(f"machine: {machine()}; Sphinx {sphinx.__version__}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="contrib-bench-"))
    no_stemmer = no_stemmer_dir(workdir)
    cards_off = ("-D", "contributions_social_cards=0") if has_social_cards(REPO / "sphinx_contributions") else ()
    base = f"{args.base} (its pinned set: no PyStemmer)"
    base_tree = extract_base(args.base, workdir)
    # the earlier commit's cards off too where it has them: otherwise its ratio counts drawing ~1000 cards
    base_cards_off = cards_off if has_social_cards(base_tree / "sphinx_contributions") else ()
    variants = [
        Variant("contrib", "contrib", (REPO,), cards_off, workdir),
        Variant("contrib, no PyStemmer", "contrib", (no_stemmer, REPO), cards_off, workdir),
        Variant(f"contrib {args.base}", "contrib", (no_stemmer, base_tree), base_cards_off, workdir),
        Variant("plain", "plain", (), (), workdir),
        Variant("plain, write-ups only", "bare", (), (), workdir),
    ]
    current, old, plain = variants[0], variants[2], variants[3]
    if args.quick:
        variants = [current, plain]
    compile_trees(REPO, base_tree)
    for variant in variants:
        print(f"{variant.name:<24} {describe(variant)} {' '.join(variant.options)}", flush=True)
    print(f"social cards: {'off (-D contributions_social_cards=0)' if cards_off else 'not in this tree'}")
    results: dict[tuple[str, int], list[Run]] = {}

    def record(name: str, n: int, how: str, round_: int, run: Run) -> None:
        results.setdefault((name, n), []).append(run)
        print(
            f"N={n:<5} {name:<30} {how:<5} round {round_}: {run.seconds:7.2f} s (CPU {run.cpu:6.2f} s) "
            f"{run.maxrss_mb:6.0f} MB",
            flush=True,
        )

    started = time.perf_counter()
    try:
        for n, count in zip(sizes, rounds, strict=True):
            sites = generate(workdir / f"n{n}", n)
            for i in range(count):
                order = variants[i % len(variants) :] + variants[: i % len(variants)]  # who goes first rotates
                for variant in order:
                    src = sites[variant.site]
                    record(variant.name, n, "-j 1", i + 1, clean_build(variant, src, out_dir(src, variant)))
                if n == largest and not args.quick:
                    for variant in (current, plain):
                        src = sites[variant.site]
                        run = clean_build(variant, src, src.parent / "out-j2", "-j", "2")
                        record(variant.name + " -j 2", n, "-j 2", i + 1, run)
                    for variant in (current, plain):  # one edited page on top of its full -j 1 build
                        src = sites[variant.site]
                        edit_one(src)
                        run = build(variant, src, out_dir(src, variant))
                        record(variant.name + ", one edit", n, "incr", i + 1, run)
    finally:
        if args.keep:
            print(f"sites kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)

    print(f"\ntotal {time.perf_counter() - started:.0f} s; {old.name}: {base}\n")
    print(f"{'N':>5} | {'variant':<30} | {'median s':>9} | {'CPU s':>7} | {'peak MB':>8} | runs")
    print("-" * 80)
    names = [v.name for v in variants] + [f"{v.name}{how}" for how in (" -j 2", ", one edit") for v in (current, plain)]
    for n in sizes:
        for name in names:
            if (name, n) in results:
                runs = results[(name, n)]
                print(
                    f"{n:>5} | {name:<30} | {median(runs):9.2f} | {median_cpu(runs):7.2f} | {peak(runs):8.0f} "
                    f"| {len(runs)}"
                )
    big, mid = largest, sorted(sizes)[-2] if len(sizes) > 1 else None

    def ratio(a: str, b: str, n_a: int = big, n_b: int = big) -> tuple[float, float]:
        """wall-clock and CPU ratio of the medians of ``a`` and ``b`` (nan where one was not built)"""
        if (a, n_a) not in results or (b, n_b) not in results:
            return math.nan, math.nan
        runs_a, runs_b = results[(a, n_a)], results[(b, n_b)]
        return median(runs_a) / median(runs_b), median_cpu(runs_a) / median_cpu(runs_b)

    print()
    ratios: list[tuple[str, tuple[float, float], str]] = [
        (f"extension overhead (contrib / plain, N={big})", ratio("contrib", "plain"), "≤ 1.05"),
        (f"whole build (contrib / {old.name}, N={big})", ratio("contrib", old.name), "≤ 0.75"),
        (f"  contrib without PyStemmer / {old.name}", ratio("contrib, no PyStemmer", old.name), ""),
        (f"  {old.name} / plain", ratio(old.name, "plain"), ""),
        ("  contrib / plain, write-ups only (no listing pages)", ratio("contrib", "plain, write-ups only"), ""),
    ]
    if mid is not None:
        ratios += [
            (f"growth contrib (N={big} / N={mid})", ratio("contrib", "contrib", big, mid), "≤ 11"),
            (f"growth plain   (N={big} / N={mid})", ratio("plain", "plain", big, mid), ""),
        ]
    ratios += [
        (f"incremental contrib (one edit / full, N={big})", ratio("contrib, one edit", "contrib"), "≤ 0.05"),
        (f"incremental plain   (one edit / full, N={big})", ratio("plain, one edit", "plain"), ""),
        (f"parallel contrib (-j 2 / -j 1, N={big})", ratio("contrib -j 2", "contrib"), ""),
        (f"parallel plain   (-j 2 / -j 1, N={big})", ratio("plain -j 2", "plain"), ""),
    ]
    print(f"{'ratio':<52} {'wall':>6} {'CPU':>6}  target")
    for name, (wall, cpu), target in ratios:
        verdict = ""
        if math.isnan(cpu):
            continue
        if target:
            limit = float(target.removeprefix("≤ "))
            verdict = (
                f"  {target}: wall {'met' if wall <= limit else 'MISSED'}, CPU {'met' if cpu <= limit else 'MISSED'}"
            )
        print(f"{name:<52} {wall:6.3f} {cpu:6.3f}{verdict}")
    if args.quick:
        return 0
    memory = peak(results[("contrib", big)]) / peak(results[("plain", big)])
    verdict = "met" if memory <= 1.2 else "MISSED"
    print(f"{f'peak memory (contrib / plain, N={big})':<52} {memory:6.3f} {'':>6}  ≤ 1.2: {verdict}")
    __import__("cards").report_cards(1000)  # benchmarks/cards.py: social cards drawn alone, N = 1000
    return 0


if __name__ == "__main__":
    sys.exit(main())
