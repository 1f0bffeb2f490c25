"""``contributions.lock.json``: the forge's facts about each write-up's pull request, written by ``contributions
sync`` (sorted, atomically, one sync at a time) and read by the build, which never asks the network."""

from __future__ import annotations

import contextlib
import json
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .files import write_text_atomically
from .keys import key_lookup
from .records import ForgeFacts
from .settings import LOCK_NAME as LOCK_NAME  # the file's name, in the settings' table (its default)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

LOCK_VERSION = 1
SCHEMA_PATH = Path(__file__).parent / "schema" / "contributions.lock.schema.json"

#: an entry's fields and the JSON types each may take
_FIELDS: dict[str, tuple[type, ...]] = {
    "repository": (str,),
    "pr": (int,),
    "fetched_at": (str,),
    "state": (str,),
    "title": (str,),
    "merged_at": (str, type(None)),
    "merge_commit": (str, type(None)),
    "additions": (int, type(None)),
    "deletions": (int, type(None)),
    "changed_files": (int, type(None)),
    "issues": (list,),
    "first_release": (dict, type(None)),
}
#: the facts of how a pull request was made, each written only where the forge gives it
_MADE: dict[str, tuple[type, ...]] = {
    "opened_at": (str,),
    "commits": (int,),
    "approvals": (int,),
    "closes": (list,),
    "files": (list,),
    "files_at_least": (bool,),
}
#: fields an older sync wrote that are read and dropped (ETags now live in the cache folder)
_DROPPED = ("etags",)
STATES = ("merged", "open", "closed")


class LockError(ValueError):
    """A lock file that cannot be read or does not follow its schema; ``line``: where (1: the whole file)."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


def _line_of(text: str, key: str) -> int:
    """The line of the file where the entry ``key`` starts (1 when it cannot be found)."""
    at = text.find(json.dumps(key, ensure_ascii=False) + ":")
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def read_lock(path: Path) -> dict[str, dict[str, Any]]:
    """The entries of the lock at ``path`` (key → entry); {} when there is no such file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise LockError(f"cannot read {path.name}: {error.strerror}") from None
    except UnicodeDecodeError as error:  # the lock is written as UTF-8 (:func:`dumps_lock`)
        line = error.object.count(b"\n", 0, error.start) + 1
        byte = error.object[error.start]
        raise LockError(f"{path.name} is not UTF-8 text: byte 0x{byte:02x} cannot be read", line) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LockError(f"{path.name} is not JSON: {error.msg}", error.lineno) from None
    if (
        not isinstance(data, dict)
        or data.get("version") != LOCK_VERSION
        or not isinstance(data.get("contributions"), dict)
    ):
        raise LockError(f"{path.name} is not a version {LOCK_VERSION} lock ({{'version': 1, 'contributions': {{…}}}})")
    entries: dict[str, dict[str, Any]] = data["contributions"]
    for key, entry in entries.items():
        problem = entry_problem(entry)
        if problem:
            raise LockError(f"{path.name}: the entry {key!r} {problem}", _line_of(text, key))
        for name in _DROPPED:
            entry.pop(name, None)
    return entries


def entry_problem(entry: object) -> str | None:
    """What is wrong with one entry, or None."""
    if not isinstance(entry, dict):
        return "is not an object"
    for name, types in _FIELDS.items():
        if name not in entry:
            return f"has no {name!r}"
        if not isinstance(entry[name], types) or (types == (int,) and isinstance(entry[name], bool)):
            return f"has a {name!r} of the wrong type"
    for name, types in _MADE.items():
        value = entry.get(name)
        if value is not None and (not isinstance(value, types) or (types == (int,) and isinstance(value, bool))):
            return f"has a {name!r} of the wrong type"
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in entry.get("closes") or ()):
        return "has a 'closes' that is not a list of issue numbers"
    if not all(isinstance(path, str) for path in entry.get("files") or ()):
        return "has a 'files' that is not a list of paths"
    if entry["state"] not in STATES:
        return f"has the state {entry['state']!r}, not one of {', '.join(STATES)}"
    return None


def _utc(value: str | None) -> str | None:
    """A lock's time in UTC (an older sync stored Gitea's offsets as given)."""
    from .forges.schema import utc

    if value is None:
        return None
    try:
        return utc(value)
    except ValueError:
        return value


def facts(entry: dict[str, Any]) -> ForgeFacts:
    """The facts the build shows, from a checked entry."""
    release = entry["first_release"]
    given = {item.name: entry.get(item.name) for item in fields(ForgeFacts)}
    kept: dict[str, Any] = {
        **given,
        "merged_at": _utc(entry["merged_at"]),
        "issues": tuple((int(i["number"]), str(i["title"]), str(i["state"])) for i in entry["issues"]),
        "first_release": (str(release["tag"]), _utc(str(release["published_at"])) or "") if release else None,
        "opened_at": _utc(entry.get("opened_at")),
        "closes": tuple(entry["closes"]) if entry.get("closes") is not None else None,
        "files": tuple(entry["files"]) if entry.get("files") is not None else None,
        "files_at_least": bool(entry.get("files_at_least")),
    }
    return ForgeFacts(**kept)


#: the usual places and names of test files: a folder anywhere in the path, or a file name pattern (fnmatch)
TEST_FOLDERS = ("test", "tests", "testing", "__tests__", "spec", "specs", "e2e")
#: of pytest, go test, Jest, Vitest, Mocha, Playwright, JUnit, XCTest, RSpec, GoogleTest, ExUnit, xUnit, PHPUnit…
_TEST_NAMES = (
    "test_*.py *_test.py conftest.py *_test.go *.test.js *.test.jsx *.test.ts *.test.tsx *.test.mjs *.spec.js "
    "*.spec.jsx *.spec.ts *.spec.tsx *Test.java *Tests.java *Test.kt *Tests.swift *_spec.rb *_test.rb *_test.cc "
    "*_test.cpp *_unittest.cc test_*.c test_*.cpp *_test.exs *Tests.cs *Test.php"
)
TEST_NAMES = tuple(_TEST_NAMES.split())


def is_test(path: str) -> bool:
    """Whether a changed file is a test, by :data:`TEST_FOLDERS` and :data:`TEST_NAMES`."""
    from fnmatch import fnmatchcase

    *folders, name = path.split("/")
    return any(folder.lower() in TEST_FOLDERS for folder in folders) or any(
        fnmatchcase(name, pattern) for pattern in TEST_NAMES
    )


def entry_json(repo: str, pr: int, found: ForgeFacts) -> dict[str, Any]:
    return {"repository": repo, "pr": pr, **found.as_json()}


def by_lookup(entries: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The entries under their keys as compared (lowercased)."""
    return {key_lookup(key): entry for key, entry in entries.items()}


def dumps_lock(entries: dict[str, dict[str, Any]]) -> str:
    """The lock's text: sorted keys, stable order, a final newline."""
    document = {"version": LOCK_VERSION, "contributions": entries}
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_lock(path: Path, entries: dict[str, dict[str, Any]]) -> bool:
    """Write the lock when its text changes (atomically); whether it was written."""
    text = dumps_lock(entries)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    write_text_atomically(path, text)
    return True


#: how long a sync waits for another of the same site, in seconds (one sitting out a rate limit takes minutes)
LOCK_WAIT = 600.0


class LockBusyError(Exception):
    """Another process held the sync's file lock for longer than the wait allowed."""

    def __init__(self, holder: Path, waited: float) -> None:
        super().__init__(f"{holder} was held for {waited:g} s")
        self.holder = holder
        self.waited = waited


@contextlib.contextmanager
def site_lock(holder: Path, waiting: Callable[[], None] | None = None, timeout: float | None = None) -> Iterator[None]:
    """Hold the file lock ``holder`` (one sync at a time); another waits (``waiting`` called once) up to
    ``timeout`` seconds, then :class:`LockBusyError`. The system lets go of it when its process ends."""
    from filelock import FileLock, Timeout

    wait = LOCK_WAIT if timeout is None else timeout
    holder.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(holder)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        if waiting is not None:
            waiting()
        try:
            lock.acquire(timeout=wait)
        except Timeout:
            raise LockBusyError(holder, wait) from None
    try:
        yield
    finally:
        lock.release()
