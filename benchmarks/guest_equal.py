"""A real site as a guest finds it: each builder once without the extension and once with
``extensions.append("sphinx_contributions")`` as the only change, in the same folders one after the other
(so the paths the builds print are the same), then the two output trees and the two printed outputs
compared whole, byte for byte (issue 44, item 3).

``python benchmarks/guest_equal.py DOCS WORK [--python PY] [-b html -b dirhtml -b epub]``: ``DOCS`` is the
folder holding the site's ``conf.py``, ``WORK`` an empty folder for the outputs; ``--python`` the
interpreter whose environment holds the site's own docs requirements and the extension. Left out of the
tree comparison, as in tests/test_foreign.py, because any extension changes them: ``.buildinfo`` (the hash
of the settings) and the extension's entry in ``searchindex.js``'s ``envversion``; an ePub is compared
member by member (its zip dates aside). Prints one line per builder and exits 1 when anything differs.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

LINE = '\nextensions.append("sphinx_contributions")  # benchmarks/guest_equal.py: the only change\n'
_ENVVERSION_ENTRY = re.compile(rb',"sphinx_contributions":\d+')


def build(python: str, builder: str, docs: Path, out: Path) -> tuple[int, str, str]:
    environ = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "PYTHONHASHSEED": "0", "NO_COLOR": "1"}
    command = [python, "-m", "sphinx", "-b", builder, "-d", str(out / "doctrees"), str(docs), str(out / builder)]
    done = subprocess.run(command, capture_output=True, text=True, env=environ, cwd=docs, check=False)
    return done.returncode, done.stdout, done.stderr


def files(out: Path) -> dict[str, bytes]:
    """Every file of an output, less what any extension changes; an ePub's members by name."""
    found: dict[str, bytes] = {}
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.name == ".buildinfo":
            continue
        name = path.relative_to(out).as_posix()
        data = path.read_bytes()
        if path.suffix == ".epub":
            with zipfile.ZipFile(path) as book:
                found |= {f"{name}!{info.filename}": book.read(info) for info in book.infolist()}
            continue
        found[name] = _ENVVERSION_ENTRY.sub(b"", data) if path.name == "searchindex.js" else data
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("docs", type=Path)
    parser.add_argument("work", type=Path)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("-b", "--builder", action="append", dest="builders")
    args = parser.parse_args()
    args.docs, args.work = args.docs.absolute(), args.work.absolute()
    if os.sep in args.python:  # the builds run in the site's folder
        args.python = str(Path(args.python).absolute())
    conf = args.docs / "conf.py"
    original = conf.read_text(encoding="utf-8")
    out = args.work / "out"
    differ = False
    for builder in args.builders or ["html", "dirhtml", "epub"]:
        runs, trees = [], []
        for with_extension in (False, True):
            shutil.rmtree(out, ignore_errors=True)
            conf.write_text(original + (LINE if with_extension else ""), encoding="utf-8")
            try:
                runs.append(build(args.python, builder, args.docs, out))
            finally:
                conf.write_text(original, encoding="utf-8")
            trees.append(files(out / builder))
            kept = args.work / f"{builder}-{'with' if with_extension else 'without'}"
            shutil.rmtree(kept, ignore_errors=True)
            shutil.move(out / builder, kept)
        without, with_ext = trees
        pages = [name for name in without if name.endswith((".html", ".xhtml"))]
        changed = sorted(name for name in without.keys() | with_ext.keys() if without.get(name) != with_ext.get(name))
        same_print = runs[0] == runs[1]
        # intersphinx fetches its inventories in threads: offline, their warnings come in any order
        reordered = runs[0][0] == runs[1][0] and all(
            sorted(a.splitlines()) == sorted(b.splitlines())
            for a, b in ((runs[0][1], runs[1][1]), (runs[0][2], runs[1][2]))
        )
        differ |= bool(changed) or not (same_print or reordered)
        printed = "identical" if same_print else "the same lines, in another order" if reordered else "DIFFERS"
        print(
            f"{builder}: exit {runs[0][0]}/{runs[1][0]}, {len(without)} files ({len(pages)} pages) compared, "
            f"{len(changed)} differ{': ' + ', '.join(changed[:10]) if changed else ''}; "
            f"printed output {printed}"
        )
        if not (same_print or reordered):
            for name, a, b in (("stdout", runs[0][1], runs[1][1]), ("stderr", runs[0][2], runs[1][2])):
                if a != b:
                    extra = [line for line in b.splitlines() if line not in a.splitlines()]
                    print(f"  {name} with the extension, lines not printed without: {extra[:10]}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
