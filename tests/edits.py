"""Editing a test site's sources between builds, as an author would: the change, then a modification time
clearly after the last build read the file (file systems with coarse clocks would hide it otherwise)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def touch(path: Path) -> None:
    """A modification time clearly after the last build read ``path``."""
    stamp = time.time() + 2
    os.utime(path, (stamp, stamp))


def edit(path: Path, old: str, new: str) -> None:
    """``old`` (which must be there) replaced by ``new`` once in ``path``, touched after."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    touch(path)
