"""The state of conditional requests, kept out of the lock: ``.contributions-cache/answers.json`` beside
``conf.py`` (``contributions init``'s ``.gitignore`` lists the folder).

For each address asked conditionally, the ETag of its last answer and the answer itself, under whether a
token was sent (GitHub's ETags vary by ``Authorization``); and, for each merge commit, the first release
found for it with the list of releases it was found in (:data:`RULE` says by which rule, so a better rule
searches again). Losing the folder costs only requests: the next sync asks everything again. The lock holds
facts only, so it changes when a fact changes, never when an ETag does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CACHE_DIR = ".contributions-cache"
CACHE_FILE = "answers.json"
CACHE_VERSION = 1
#: the first-release rule of :mod:`.releases`; a memo made by another rule is searched again
RULE = 2


class AnswerCache:
    """The cache file's contents; ``path`` None keeps it in memory only (``--dry-run``, tests)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.answers: dict[str, dict[str, Any]] = {}
        self.memos: dict[str, dict[str, Any]] = {}
        self.used: set[str] = set()
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = None
            if isinstance(data, dict) and data.get("version") == CACHE_VERSION:
                answers, memos = data.get("answers"), data.get("first_release")
                if isinstance(answers, dict):
                    self.answers = {
                        k: v for k, v in answers.items() if isinstance(v, dict) and isinstance(v.get("etag"), str)
                    }
                if isinstance(memos, dict):
                    self.memos = {k: v for k, v in memos.items() if isinstance(v, dict)}

    def get(self, key: str) -> tuple[str, Any] | None:
        """(ETag, answer) stored under ``key``, or None."""
        found = self.answers.get(key)
        if found is None:
            return None
        self.used.add(key)
        return found["etag"], found.get("data")

    def put(self, key: str, etag: str, data: Any) -> None:
        self.answers[key] = {"etag": etag, "data": data}
        self.used.add(key)

    def memo(self, key: str, releases: str) -> tuple[bool, tuple[str, str] | None]:
        """The first release found for ``key`` (``repo@sha``) among the same releases (``releases``, a digest
        of their list) by this rule: (known, (tag, published_at) or None)."""
        found = self.memos.get(key)
        if found is None or found.get("rule") != RULE or found.get("releases") != releases:
            return False, None
        self.used.add("memo " + key)
        release = found.get("release")
        if isinstance(release, list) and len(release) == 2:
            return True, (str(release[0]), str(release[1]))
        return True, None

    def remember(self, key: str, releases: str, release: tuple[str, str] | None) -> None:
        self.memos[key] = {"rule": RULE, "releases": releases, "release": list(release) if release else None}
        self.used.add("memo " + key)

    def save(self, *, prune: bool) -> None:
        """Write the file (atomically, only when its text changes); ``prune`` drops what this run did not use
        (a run over every write-up: what it did not ask for belongs to no write-up any more)."""
        if self.path is None:
            return
        from ..files import write_text_atomically

        answers = {k: v for k, v in self.answers.items() if not prune or k in self.used}
        memos = {k: v for k, v in self.memos.items() if not prune or "memo " + k in self.used}
        document = {"version": CACHE_VERSION, "answers": answers, "first_release": memos}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        gitignore = self.path.parent / ".gitignore"
        if not gitignore.exists():  # a site not made by `init` commits it by mistake otherwise
            write_text_atomically(gitignore, "# written by contributions sync: conditional-request state\n*\n")
        write_text_atomically(self.path, json.dumps(document, ensure_ascii=False, sort_keys=True) + "\n")
