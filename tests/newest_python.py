"""The newest Python 3.12 or later on this machine, for ``make test-latest`` (Read the Docs builds a new
site on 3.12, where it installs the newest Sphinx; 3.11 gets no Sphinx newer than 9.0.4): the path of its
interpreter, or nothing when there is none. Looked for on ``PATH`` (``python3.13``, ``python3.12`` …) and
among pyenv's versions (``$(pyenv root)/versions/3.x.y/bin/python3``), each one run to ask its version.

    python tests/newest_python.py     # prints /root/.pyenv/versions/3.13.0/bin/python3, or nothing
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

#: the oldest Python that counts as "what a new site gets"
OLDEST = (3, 12)


def candidates() -> list[str]:
    found = [shutil.which(f"python3.{minor}") for minor in range(OLDEST[1], 20)]
    root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    found += [str(path) for path in sorted(Path(root, "versions").glob("3.*/bin/python3"))]
    return [path for path in found if path]


def version(python: str) -> tuple[int, int, int] | None:
    """The interpreter's version, or None when it does not run (a pyenv shim of an inactive version)."""
    try:
        done = subprocess.run(
            [python, "-c", "import sys; print(*sys.version_info[:3])"],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
    except OSError:
        return None
    parts = done.stdout.split()
    if done.returncode != 0 or len(parts) != 3:
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def newest() -> str | None:
    known = [(found, python) for python in candidates() if (found := version(python)) and found[:2] >= OLDEST]
    return max(known)[1] if known else None


if __name__ == "__main__":
    print(newest() or "")
    sys.exit(0)
