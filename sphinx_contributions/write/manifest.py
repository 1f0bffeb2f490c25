"""What each output was written from: digests kept per builder in the output folder itself
(``<output folder>/.contributions-written.json``, as Sphinx keeps ``.buildinfo`` there), so a page is
rewritten when what it shows changed since *that* output was written. The memory goes where the output
goes: a new doctree folder (``-d NEW``, ``contributions check --outdir`` builds with a fresh temporary one),
``-E``, or output and doctree folders moved together all find what the output holds (``html`` and
``dirhtml`` built on one doctree folder, as sphinx-quickstart lays a project out, each keep their own).

The memory describes the output folder, not the environment, and must not run ahead of it. Sphinx
pickles the environment after reading and *before* writing, and keeps that pickle when the build is
stopped (Ctrl-C, SIGTERM, an OOM kill, a CI timeout): digests kept in it would claim pages were written
that never were. So the memory is a file of its own, and a build changes it twice at most:

- when writing starts (``write-started``), every entry whose digest this build changes is marked
  unknown (:data:`UNKNOWN`): a build stopped while writing leaves those entries unknown, and the next
  build rewrites every page they cover, even if the sources went back to what they were;
- when the build finished without an exception (``build-finished``), this build's digests become the
  memory.

A build that changes nothing writes nothing. A missing or unreadable file is an empty memory: the output
is rewritten whole (:func:`.fixes.navigation.navigation_changed`), as after a first build.

On a site where the extension is a guest with nothing to show (no write-up, listing or project intro read,
and no memory file in the output from a build that had one), there is no memory at all: no file is
written, and every question to it answers "as last time", so the build reads and writes what Sphinx alone
would and the output folder is the same as without the extension (``in_use`` in :func:`_state`). The
build that finds the last of those gone removes what the output held for them, then the memory itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..collect.domain import get_domain
from ..files import read_json, write_whole

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder

#: the digest of an entry whose output may or may not have been written (a build stopped while writing)
UNKNOWN = "?"
#: bump when the file's layout changes; a file of another version is an empty memory
MEMORY_VERSION = 2
#: the file's name in the output folder (the ePub builder leaves it out of the book, :mod:`.fixes.epub_bookkeeping`)
MEMORY_NAME = ".contributions-written.json"

#: one output's memory: name (``records``, ``nav`` …) → key → digest
Memory = dict[str, dict[str, str]]


def _key(app: Sphinx) -> str:
    """The output's entry in its folder's file: the builder's name (the folder is where the file is, so the
    entry stays right when the folder moves)."""
    return app.builder.name


def _path(app: Sphinx) -> Path:
    return Path(app.outdir) / MEMORY_NAME


def _state(app: Sphinx) -> dict[str, Any]:
    """This build's view of the memory file (read once per build, kept on the domain object, which is
    not pickled): ``outputs`` (the file's content), ``pending`` (this build's digests), ``dirty``,
    ``in_use`` (whether this output keeps a memory: its folder holds the file already, or the pages read
    hold the extension's work, a write-up, a listing or a project intro; decided once, after reading),
    ``works`` (the second of those)."""
    domain = get_domain(app.env)
    if domain.written is None:
        path = _path(app)
        data = read_json(path)
        ok = isinstance(data, dict) and data.get("version") == MEMORY_VERSION and isinstance(data.get("outputs"), dict)
        works = any(domain.data[name] for name in ("contributions", "listings", "project_intros"))
        domain.written = {
            "outputs": data["outputs"] if ok else {},
            "pending": {},
            "this_build": {},
            "dirty": False,
            "in_use": works or path.is_file(),
            "works": works,
        }
    return domain.written


def in_use(app: Sphinx) -> bool:
    """Whether this output keeps a memory (:func:`_state`); asked once the pages are read."""
    return bool(_state(app)["in_use"])


def _save(app: Sphinx, outputs: dict[str, Memory]) -> None:
    text = json.dumps({"version": MEMORY_VERSION, "outputs": outputs}, indent=1, sort_keys=True) + "\n"
    write_whole(_path(app), text)


def remember(app: Sphinx, name: str, new: dict[str, str]) -> dict[str, str] | None:
    """Note that this build's output shows ``new`` (key → digest) under ``name``; return what the output
    showed under it (entries unknown after a stopped build included), or None if this output never
    recorded ``name`` (its first build writes every page). Where no memory is kept (``in_use``):
    ``new``, as if the output showed it already."""
    state = _state(app)
    if not state["in_use"]:
        return dict(new)
    memory: Memory = state["outputs"].setdefault(_key(app), {})
    old = memory.get(name)
    if old is not None:
        forgotten = {key: value if new.get(key) == value else UNKNOWN for key, value in old.items()}
        if forgotten != old:
            memory[name] = forgotten
            state["dirty"] = True
    state["pending"][name] = new
    return dict(old) if old is not None else None


def recalled(app: Sphinx, name: str) -> dict[str, str]:
    """What this output showed under ``name`` when its last build finished (empty if none), without
    noting anything for this build (:func:`remember` does that)."""
    memory: Memory = _state(app)["outputs"].get(_key(app), {})
    return dict(memory.get(name, {}))


def this_build(app: Sphinx) -> dict[str, Any]:
    """What this build keeps for its own write phase only (never carried to the next build)."""
    this: dict[str, Any] = _state(app)["this_build"]
    return this


def changed_keys(old: dict[str, str], new: dict[str, str]) -> set[str]:
    """The keys added, removed or with another digest."""
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def forget_before_writing(app: Sphinx, builder: Builder) -> None:
    """``write-started``: the entries this build changes are unknown until it has written everything."""
    state = _state(app)
    if state["dirty"]:
        _save(app, state["outputs"])


def commit(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: when every page was written, this build's digests become the memory."""
    domain = get_domain(app.env)
    state, domain.written = domain.written, None  # the next build of this application reads the file again
    if exception is not None or state is None:
        return
    if state["in_use"] and not state["works"]:
        # the last write-up, listing and intro are gone, and with them (this build's write-started) what
        # the output held for them: no memory is left, and the output is the host's own again
        state["outputs"].pop(_key(app), None)
        if state["outputs"]:
            _save(app, state["outputs"])
        else:
            _path(app).unlink(missing_ok=True)
        return
    if not state["pending"]:
        return
    memory: Memory = state["outputs"].setdefault(_key(app), {})
    if state["dirty"] or any(memory.get(name) != new for name, new in state["pending"].items()):
        memory.update(state["pending"])
        _save(app, state["outputs"])
