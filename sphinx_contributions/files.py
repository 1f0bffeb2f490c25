"""Files the extension keeps (its memories, its report, the lock, the sharing cards) are written whole or
not at all: into a ``.part`` file beside them, then renamed over them, so a build stopped half-way never
leaves a half-written file that the next build would trust; read back, a file that is missing or is no
JSON is no document."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path


def digest(value: object) -> str:
    """A short, stable digest of a value's ``repr`` (records are frozen dataclasses of plain values): what
    the memories of :mod:`.write.manifest` and the lock's entries are compared by."""
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def write_whole(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``, making its folder, in one rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    os.replace(partial, path)


def read_json(path: Path) -> Any:
    """The JSON document in ``path``; None when the file is missing, unreadable or not JSON (the caller
    checks its shape)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file of its own in the same folder (two writers never
    share one), flushed to disk, then one atomic replace."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        try:  # the file keeps its mode (mkstemp makes its own 0600)
            mode = path.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o644
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
