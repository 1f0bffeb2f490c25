"""What each output was written from: digests kept per builder and output folder, so a page is rewritten
when what it shows changed since *that* output was written (``html`` and ``dirhtml`` built on one
doctree folder, as sphinx-quickstart lays a project out, each keep their own memory).

The digests live in the domain's data, so they are pickled with the environment; nothing is kept
between builds outside it.

A build commits what its output shows only once it has written all of it: Sphinx pickles the environment
after reading and *before* writing, and keeps that pickle when the build is stopped (Ctrl-C, SIGTERM, an
OOM kill, a CI timeout). So :func:`remember` (called from ``env-get-updated``, before that pickle) keeps
this build's digests aside and marks every entry that changes as unknown in the memory that is pickled;
at ``build-finished`` without an exception they replace the memory, and the environment is pickled again.
A build stopped while it writes thus leaves the changed entries unknown, and the next build rewrites
every page they cover.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.application import ENV_PICKLE_FILENAME

from .domain import get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: the digest of an entry whose output may or may not have been written (a build stopped while writing)
UNKNOWN = "?"


def _key(app: Sphinx) -> str:
    return f"{app.builder.name}:{app.outdir}"


def _memory(app: Sphinx, part: str) -> dict[str, Any]:
    outputs: dict[str, dict[str, Any]] = get_domain(app.env).data.setdefault(part, {})
    return outputs.setdefault(_key(app), {})


def remember(app: Sphinx, name: str, new: dict[str, str]) -> dict[str, str] | None:
    """Note that this build's output shows ``new`` (key → digest) under ``name``; return what the output
    showed under it (entries unknown after a stopped build included), or None if this output never
    recorded ``name`` (its first build writes every page)."""
    memory = _memory(app, "shown")
    old: dict[str, str] | None = memory.get(name)
    if old is not None:
        memory[name] = {key: value if new.get(key) == value else UNKNOWN for key, value in old.items()}
    _memory(app, "pending")[name] = new
    return old


def this_build(app: Sphinx) -> dict[str, Any]:
    """What this build keeps for its own write phase only (never carried to the next build)."""
    return _memory(app, "this_build")


def changed_keys(old: dict[str, str], new: dict[str, str]) -> set[str]:
    """The keys added, removed or with another digest."""
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def commit(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: when every page was written, what this build's output shows becomes the memory,
    and the environment is pickled again with it (as Sphinx pickles it, replacing the file atomically)."""
    domain = get_domain(app.env)
    pending = domain.data.setdefault("pending", {}).pop(_key(app), {})
    domain.data.setdefault("this_build", {}).pop(_key(app), None)
    if exception is not None or not pending:
        return
    memory = _memory(app, "shown")
    if all(memory.get(name) == new for name, new in pending.items()):
        return  # nothing changed: the pickle on disk holds this memory already
    memory.update(pending)
    path = Path(app.doctreedir) / ENV_PICKLE_FILENAME
    partial = path.with_name(path.name + ".part")
    with open(partial, "wb") as file:
        pickle.dump(app.env, file, pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)


def setup_written(app: Sphinx) -> None:
    app.connect("build-finished", commit, priority=800)
