"""Compare two build output trees file by file, byte for byte.

``first_difference(a, b)`` returns ``None`` when both trees hold the same files with the same bytes,
otherwise a short report naming the first differing file (in sorted path order) and, for text files,
the first differing line of each side. ``python tests/treediff.py A B`` prints that report.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: files left out of the comparison: none (Sphinx's `.buildinfo.bak` too: an ePub packs what its folder holds)
IGNORED: frozenset[str] = frozenset()


def files(root: Path) -> dict[str, Path]:
    """Relative POSIX path → file, for every file under ``root``."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name not in IGNORED
    }


def _clip(text: str, width: int = 300) -> str:
    return text if len(text) <= width else text[:width] + "…"


def _first_line_difference(name: str, a: bytes, b: bytes) -> str:
    try:
        left, right = a.decode("utf-8").splitlines(), b.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        offset = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        return f"{name}: binary files differ at byte {offset} ({len(a)} vs {len(b)} bytes)"
    for number, (x, y) in enumerate(zip(left, right, strict=False), start=1):
        if x != y:
            column = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
            start = max(column - 120, 0)
            return f"{name}, line {number}, column {column + 1}:\n  - {_clip(x[start:])}\n  + {_clip(y[start:])}"
    shorter, longer, sign = (left, right, "+") if len(left) < len(right) else (right, left, "-")
    if len(left) == len(right):  # only line endings differ
        return f"{name}: same lines, different bytes (line endings or a final newline)"
    return f"{name}, line {len(shorter) + 1}: only on one side:\n  {sign} {_clip(longer[len(shorter)])}"


def first_difference(a: Path, b: Path) -> str | None:
    """``None`` when the trees are byte-identical; else the first differing file and line, and a count."""
    left, right = files(a), files(b)
    report = None
    count = 0
    for name in sorted(left.keys() | right.keys()):
        if name not in right:
            line = f"{name}: only in {a}"
        elif name not in left:
            line = f"{name}: only in {b}"
        else:
            data_a, data_b = left[name].read_bytes(), right[name].read_bytes()
            if data_a == data_b:
                continue
            line = _first_line_difference(name, data_a, data_b)
        count += 1
        report = report or line
    if report is None:
        return None
    return f"{count} file(s) differ between {a} and {b}; first: {report}"


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: treediff.py DIR_A DIR_B", file=sys.stderr)
        return 2
    report = first_difference(Path(argv[0]), Path(argv[1]))
    print(report or "identical")
    return 0 if report is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
