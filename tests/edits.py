"""Editing a test site's sources between builds, as an author would: the change, then a modification time
of now, after the last build read the file (a file system's coarse clock could stamp the write a little
earlier).

Not in the future: Sphinx reads a page again whenever its modification time is later than the time it was
last read, so a stamp ahead of the clock makes every build that reads the page before that moment read it
once more in the next build, and "the same command again has nothing to do" would depend on the
machine's speed."""

from __future__ import annotations

import os
import time
from pathlib import Path


def touch(path: Path) -> None:
    """A modification time of now, after the last build read ``path``."""
    stamp = time.time_ns()
    os.utime(path, ns=(stamp, stamp))


def edit(path: Path, old: str, new: str) -> None:
    """``old`` (which must be there) replaced by ``new`` once in ``path``, touched after."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    touch(path)
