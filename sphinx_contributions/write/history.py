"""When each page's source was last committed (one ``git log`` pass), for undated feed entries; a shallow clone's
boundary time is *uncertain*."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

TIMEOUT = 60  # seconds a git command may take


@dataclass(frozen=True)
class History:
    """What git says of some pages' sources."""

    #: docname → time of the last commit that touched its source (pages git does not know are left out)
    times: dict[str, datetime] = field(default_factory=dict)
    #: whether the clone is shallow
    shallow: bool = False
    #: the docnames whose time is that of a shallow clone's boundary commit: their last commit may be older
    uncertain: tuple[str, ...] = ()


def _git(srcdir: Path, *args: str) -> list[str] | None:
    try:
        done = subprocess.run(["git", *args], cwd=srcdir, capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.splitlines() if done.returncode == 0 else None


def boundary_commits(srcdir: Path) -> frozenset[str] | None:
    """A shallow clone's boundary commits (empty: whole history); None outside a git work tree."""
    lines = _git(srcdir, "rev-parse", "--is-shallow-repository", "--git-path", "shallow")
    if lines is None or len(lines) < 2:
        return None
    if lines[0].strip() != "true":
        return frozenset()
    try:
        text = (srcdir / lines[1].strip()).read_text(encoding="ascii")
    except OSError:
        return frozenset({"?"})  # shallow, but its boundary cannot be read: nothing is certain
    return frozenset(text.split()) or frozenset({"?"})


def last_updated_times(env: object, docnames: Iterable[str]) -> History | None:
    """The times sphinx-last-updated-by-git found for ``docnames``; None where it is not loaded."""
    known = getattr(env, "git_last_updated", None)
    if not isinstance(known, dict):
        return None
    times = {}
    for docname in docnames:
        entry = known.get(docname)
        stamp = entry[0] if isinstance(entry, tuple) and entry else None
        if isinstance(stamp, bytes):  # as git printed it (0.3.8: b'1775001600')
            stamp = stamp.decode("ascii", "replace")
        if isinstance(stamp, str) and stamp.isascii() and stamp.isdigit():
            stamp = int(stamp)
        if isinstance(stamp, int) and not isinstance(stamp, bool):
            times[docname] = datetime.fromtimestamp(stamp, UTC)
    return History(times)


def last_commits(srcdir: Path, paths: dict[str, str]) -> History:
    """When each page's source (``paths``: docname → path relative to ``srcdir``) was last committed."""
    if not paths:
        return History()
    boundary = boundary_commits(srcdir)
    if boundary is None:
        return History()
    wanted = {path: docname for docname, path in paths.items()}
    found: dict[str, tuple[str, int]] = {}  # path → (commit, time)
    command = ["git", "log", "--relative", "--format=%x00%H %ct", "--name-only", "--", *sorted(wanted)]
    try:
        process = subprocess.Popen(command, cwd=srcdir, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return History()
    commit, stamp = "", 0
    try:
        assert process.stdout is not None
        for line in process.stdout:
            line = line.rstrip("\n")
            if line.startswith("\0"):
                commit, _, when = line[1:].partition(" ")
                stamp = int(when) if when.isascii() and when.isdigit() else 0
            elif line in wanted and stamp and line not in found:
                found[line] = (commit, stamp)  # git log lists the newest commit first
                if len(found) == len(wanted):
                    break  # every page has its commit: the rest of the history is not read
    finally:
        process.kill()
        process.wait()
    times = {wanted[path]: datetime.fromtimestamp(when, UTC) for path, (_, when) in found.items()}
    uncertain = sorted(wanted[path] for path, (sha, _) in found.items() if sha in boundary or "?" in boundary)
    return History(times, bool(boundary), tuple(uncertain))
