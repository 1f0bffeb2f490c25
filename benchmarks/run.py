"""Build benchmark: the extension's site against plain MyST pages of the same text (``make bench``).

For each N it generates two sites beside each other in a temporary folder, both built with the real
site's ``conf.py`` and ``_static``:

- ``contrib``: N write-ups (the ``contribution`` header, the four sections, a ``metric``, tags drawn
  from a small set, two ``{contrib}`` links to other write-ups) and an index holding a
  ``contributions`` listing; the extension also writes the tag and project pages, the JSON and the feed;
- ``plain``: the same text as plain MyST pages (headings, paragraphs, the figures as text, Markdown
  links instead of ``{contrib}``), each marked orphan and linked from one plain index page: the same
  navigation design as the extension's (write-ups reached from a listing, not one sidebar entry each),
  so the floor is Sphinx, MyST and the theme alone.

Both are built from scratch in turn (alternating which goes first), several rounds; medians are
printed with the ratios of ``benchmarks/README.md``, and the peak memory (max RSS of the build process
and its reaped workers, from ``wait4``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PROJECTS = [
    ("huggingface/transformers", ""),
    ("OpenNMT/CTranslate2", ""),
    ("vllm-project/vllm-metal", ""),
    ("pytorch/pytorch", ""),
    ("triton-lang/triton", ""),
]
TAGS = [
    "attention correctness",
    "SDPA",
    "seq2seq training",
    "inference runtime",
    "model conversion",
    "C++",
    "paged attention",
    "MLX/Metal",
    "kernels",
    "memory",
]
STATUSES = ["merged", "merged", "merged", "open", "closed"]
VOCABULARY = (
    "the decoder attention mask cache layer kernel batch token request model weight tensor shape "
    "position logit bias scale path config loader runtime server queue scheduler stream buffer page "
    "block head query key value output input gradient loss step epoch trainer collator checkpoint "
    "precision float half bfloat rounding overflow underflow drift parity regression release commit "
    "fix test bug issue review merge branch device memory bandwidth latency throughput"
)
WORDS = VOCABULARY.split()


@dataclass(frozen=True)
class Page:
    """One synthetic write-up: everything both variants show."""

    slug: str
    title: str
    repo: str
    pr: int
    status: str
    tags: tuple[str, ...]
    date: str
    summary: str
    sections: tuple[str, ...]  # problem, root cause, fix, verification text
    metric: tuple[str, float, float, str]
    links: tuple[int, ...]  # indices of other pages linked to

    @property
    def key(self) -> str:
        return f"{self.repo.split('/')[1]}#{self.pr}"


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(_sentence(rng, rng.randint(8, 16)) for _ in range(sentences))


def make_pages(n: int, seed: int = 1) -> list[Page]:
    rng = random.Random(seed)
    pages = []
    for i in range(n):
        repo, _ = PROJECTS[i % len(PROJECTS)]
        pr = 1000 + i
        name = repo.split("/")[1].lower()
        pages.append(
            Page(
                slug=f"{name}-{pr}",
                title=f"Fix {rng.choice(WORDS)} {rng.choice(WORDS)} in the {rng.choice(WORDS)} path ({i})",
                repo=repo,
                pr=pr,
                status=STATUSES[i % len(STATUSES)],
                tags=tuple(rng.sample(TAGS, rng.randint(1, 3))),
                date=f"{2020 + i % 6}-{1 + i % 12:02d}-{1 + i % 28:02d}",
                summary=_sentence(rng, 18),
                sections=tuple(
                    "\n\n".join(_paragraph(rng, 4) for _ in range(paragraphs)) for paragraphs in (2, 2, 2, 1)
                ),
                metric=(rng.choice(["Latency", "Drift", "Throughput", "Peak memory"]), 10.0 + i, 1.5, "ms"),
                links=tuple(rng.sample(range(n), min(2, n))),
            )
        )
    return pages


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


def plain_page(page: Page, pages: list[Page]) -> str:
    label, before, after, unit = page.metric
    links = " and ".join(f"[{pages[j].title}]({pages[j].slug}.md)" for j in page.links)
    parts = [
        "---\norphan: true\n---\n",
        f"# {page.title}\n",
        f"{page.repo.split('/')[1]} · [PR #{page.pr}](https://github.com/{page.repo}/pull/{page.pr}) · "
        f"{page.status} · {page.date}\n",
        f"{page.summary}\n",
        f"Tags: {', '.join(page.tags)}\n",
        f"- {label}: {before} {unit} → {after} {unit}\n",
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


def plain_index(pages: list[Page]) -> str:
    lines = ["# Benchmark site\n", "All write-ups:\n"]
    for page in pages:
        lines.append(
            f"- [{page.title}](contributions/{page.slug}.md) · {page.repo.split('/')[1]} · "
            f"[#{page.pr}](https://github.com/{page.repo}/pull/{page.pr}) · {page.status} · {page.summary}"
        )
    return "\n".join(lines) + "\n"


def generate(root: Path, n: int) -> dict[str, Path]:
    """The two sites for N write-ups, under ``root/contrib`` and ``root/plain``; returns their sources."""
    pages = make_pages(n)
    sites = {}
    for kind in ("contrib", "plain"):
        src = root / kind / "src"
        (src / "contributions").mkdir(parents=True)
        shutil.copy2(REPO / "conf.py", src / "conf.py")
        shutil.copytree(REPO / "_static", src / "_static")
        render = contrib_page if kind == "contrib" else plain_page
        for page in pages:
            (src / "contributions" / f"{page.slug}.md").write_text(render(page, pages), encoding="utf-8")
        index = contrib_index() if kind == "contrib" else plain_index(pages)
        (src / "index.md").write_text(index, encoding="utf-8")
        sites[kind] = src
    return sites


@dataclass
class Run:
    seconds: float
    maxrss_mb: float


def build(src: Path, out: Path, *extra: str) -> Run:
    """One strict HTML build in a fresh process; wall time and peak RSS (build process and workers)."""
    command = [sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", "html"]
    command += ["-d", str(out / "doctrees"), *extra, str(src), str(out / "html")]
    environ = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "PYTHONHASHSEED": "0"}
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environ)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"build of {src} failed ({process.returncode}):\n{stderr[-4000:]}")
    return Run(seconds, usage.ru_maxrss / 1024)


def clean_build(src: Path, out: Path, *extra: str) -> Run:
    shutil.rmtree(out, ignore_errors=True)
    return build(src, out, *extra)


def edit_one(src: Path) -> None:
    """Change one paragraph of one write-up's body, as the owner does between two previews."""
    page = sorted((src / "contributions").glob("*.md"))[0]
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(":::{problem}\n", ":::{problem}\nOne more sentence for this edit.\n", 1))
    stamp = time.time() + 1
    os.utime(page, (stamp, stamp))


def report(n: int, kind: str, how: str, round_: int, run: Run) -> None:
    print(f"N={n:<5} {kind:<8} {how:<5} round {round_}: {run.seconds:7.2f} s  {run.maxrss_mb:6.0f} MB", flush=True)


def median(runs: list[Run]) -> float:
    return statistics.median(run.seconds for run in runs)


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
    return (
        f"{cpu}, {os.cpu_count()} cores{memory}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000", help="comma-separated N (default: 10,100,1000)")
    parser.add_argument("--rounds", default="5,3,2", help="rounds per size, same order (default: 5,3,2)")
    parser.add_argument("--keep", action="store_true", help="keep the generated sites (prints where)")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.sizes.split(",")]
    rounds = [int(r) for r in args.rounds.split(",")]
    rounds += [rounds[-1]] * (len(sizes) - len(rounds))
    largest = max(sizes)
    import sphinx

    print(f"machine: {machine()}; Sphinx {sphinx.__version__}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="contrib-bench-"))
    results: dict[tuple[str, int], list[Run]] = {}
    started = time.perf_counter()
    try:
        for n, count in zip(sizes, rounds, strict=True):
            sites = generate(workdir / f"n{n}", n)
            for i in range(count):
                order = ("contrib", "plain") if i % 2 == 0 else ("plain", "contrib")
                for kind in order:
                    run = clean_build(sites[kind], sites[kind].parent / "out")
                    results.setdefault((kind, n), []).append(run)
                    print(
                        f"N={n:<5} {kind:<8} -j 1  round {i + 1}: {run.seconds:7.2f} s  {run.maxrss_mb:6.0f} MB",
                        flush=True,
                    )
                if n == largest:
                    for kind in order:
                        run = clean_build(sites[kind], sites[kind].parent / "out-j2", "-j", "2")
                        results.setdefault((kind + " -j2", n), []).append(run)
                        print(
                            f"N={n:<5} {kind:<8} -j 2  round {i + 1}: {run.seconds:7.2f} s  {run.maxrss_mb:6.0f} MB",
                            flush=True,
                        )
                    for kind in order:  # one edited page on top of the full -j 1 build just made
                        edit_one(sites[kind])
                        run = build(sites[kind], sites[kind].parent / "out")
                        results.setdefault((kind + " incremental", n), []).append(run)
                        print(
                            f"N={n:<5} {kind:<8} incr  round {i + 1}: {run.seconds:7.2f} s  {run.maxrss_mb:6.0f} MB",
                            flush=True,
                        )
    finally:
        if args.keep:
            print(f"sites kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)

    print(f"\ntotal {time.perf_counter() - started:.0f} s\n")
    print(f"{'N':>5} | {'variant':<22} | {'median s':>9} | {'peak MB':>8} | runs")
    print("-" * 60)
    for (kind, n), runs in sorted(results.items(), key=lambda item: (item[0][1], item[0][0])):
        print(f"{n:>5} | {kind:<22} | {median(runs):9.2f} | {peak(runs):8.0f} | {len(runs)}")
    big, mid = largest, sorted(sizes)[-2] if len(sizes) > 1 else None
    contrib, plain = results[("contrib", big)], results[("plain", big)]
    print()
    incremental = results[("contrib incremental", big)]
    ratios: list[tuple[str, float, float | None]] = [
        (f"extension overhead (contrib / plain, N={big})", median(contrib) / median(plain), 1.10),
    ]
    if mid is not None:
        ratios += [
            (f"growth contrib (N={big} / N={mid})", median(contrib) / median(results[("contrib", mid)]), 11.0),
            (f"growth plain   (N={big} / N={mid})", median(plain) / median(results[("plain", mid)]), None),
        ]
    ratios += [
        (f"incremental contrib (one edit / full, N={big})", median(incremental) / median(contrib), 0.05),
        (
            f"incremental plain   (one edit / full, N={big})",
            median(results[("plain incremental", big)]) / median(plain),
            None,
        ),
        (f"parallel contrib (-j 2 / -j 1, N={big})", median(results[("contrib -j2", big)]) / median(contrib), None),
        (f"parallel plain   (-j 2 / -j 1, N={big})", median(results[("plain -j2", big)]) / median(plain), None),
        (f"peak memory (contrib / plain, N={big})", peak(contrib) / peak(plain), 1.2),
    ]
    for name, value, target in ratios:
        verdict = "" if target is None else f"  (target ≤ {target:g}: {'met' if value <= target else 'MISSED'})"
        print(f"{name:<48} {value:6.3f}{verdict}")
    __import__("cards").report_cards(1000)  # benchmarks/cards.py: social cards drawn alone, N = 1000
    return 0


if __name__ == "__main__":
    sys.exit(main())
