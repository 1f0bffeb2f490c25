"""This tree's extension against an earlier commit's on ``run.py``'s site of N write-ups: a clean ``-j 1``
build, then one edit of one write-up's body built incrementally, per round, who goes first alternating;
both with this environment (PyStemmer) and cards off. A shorter run than ``make bench`` for a before/after
on a busy machine: compare the CPU medians.

    .venv/bin/python benchmarks/ab.py --base 7434b26 --n 1000 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from run import REPO, Run, Variant, build, clean_build, compile_trees, describe, edit_one, extract_base, generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="contrib-ab-"))
    base = extract_base(args.base, work)
    compile_trees(base, REPO)
    cards = ("-D", "contributions_social_cards=0")
    variants = [
        Variant("this tree", "contrib", (REPO,), cards, work),
        Variant(args.base, "contrib", (base,), cards, work),
    ]
    for variant in variants:
        print(f"{variant.name:<10} {describe(variant)}", flush=True)
    src = generate(work / f"n{args.n}", args.n)["contrib"]
    runs: dict[tuple[str, str], list[Run]] = {}
    for i in range(args.rounds):
        for variant in variants[i % 2 :] + variants[: i % 2]:
            out = work / f"out-{variants.index(variant)}"
            full = clean_build(variant, src, out)
            edit_one(src)
            edit = build(variant, src, out)
            runs.setdefault((variant.name, "clean build"), []).append(full)
            runs.setdefault((variant.name, "one edit"), []).append(edit)
            print(
                f"round {i + 1} {variant.name:<10} clean CPU {full.cpu:6.2f} s, one edit CPU {edit.cpu:5.2f} s",
                flush=True,
            )
    for kind in ("clean build", "one edit"):
        this, then = (statistics.median(r.cpu for r in runs[(v.name, kind)]) for v in variants)
        print(f"{kind}: median CPU {this:.2f} s against {then:.2f} s, ratio {this / then:.3f}")


if __name__ == "__main__":
    main()
