"""Files the extension keeps (its memories, its report, the sharing cards) are written whole or not at
all: into a ``.part`` file beside them, then renamed over them, so a build stopped half-way never leaves a
half-written file that the next build would trust."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def write_whole(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``, making its folder, in one rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    os.replace(partial, path)
