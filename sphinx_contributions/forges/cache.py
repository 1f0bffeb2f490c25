"""The state of conditional requests, kept out of the lock: ``.contributions-cache/answers.json`` beside
``conf.py`` (``contributions init``'s ``.gitignore`` lists the folder).

For each address asked conditionally, the ETag of its last answer and the answer itself, under whether a
token was sent (GitHub's ETags vary by ``Authorization``); and, for each merge commit, each release tag's
compare found to contain it or not (a fact of the tag, whatever releases come later: a new release costs
one compare, not a new search; a search cut short by its bound goes on where it stopped). Losing the folder
costs only requests: the next sync asks everything again. The lock holds
facts only, so it changes when a fact changes, never when an ETag does.

Not hishel (an RFC 9111 cache for httpx), weighed for issue 35 (hishel 2.0): GitHub marks its answers
``max-age=60``, ``private`` with a token, which hishel's default shared cache does not store at all (with a
token every sync would ask everything unconditionally, at the cost of the rate limit: 304s cost none), and
which it serves for a minute without asking (a sync just after a merge would write the old state). It keeps answers
per response, so a list of many pages would be asked again page by page, where here a 304 on the first
page gives every page's items (``Session.pages``). The sync's "(unchanged)" count, pruning what no
write-up uses any more, and the release compares kept here are no cache's to keep (``tests/test_sync.py``:
the second sync's 304s and "(unchanged)" lines).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CACHE_DIR = ".contributions-cache"
CACHE_FILE = "answers.json"
CACHE_VERSION = 1


class AnswerCache:
    """The cache file's contents; ``path`` None keeps it in memory only (``--dry-run``, tests)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.answers: dict[str, dict[str, Any]] = {}
        #: ``repo@sha`` → {tag: whether the tag contains the commit}
        self.compared: dict[str, dict[str, bool]] = {}
        self.used: set[str] = set()
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = None
            if isinstance(data, dict) and data.get("version") == CACHE_VERSION:
                answers, compared = data.get("answers"), data.get("compared")
                if isinstance(answers, dict):
                    self.answers = {
                        k: v for k, v in answers.items() if isinstance(v, dict) and isinstance(v.get("etag"), str)
                    }
                if isinstance(compared, dict):  # (a "first_release" memo of older versions is dropped)
                    self.compared = {
                        k: {tag: found for tag, found in v.items() if isinstance(found, bool)}
                        for k, v in compared.items()
                        if isinstance(v, dict)
                    }

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

    def contains(self, key: str, tag: str) -> bool | None:
        """Whether release ``tag`` was found to contain ``key``'s commit (``repo@sha``); None: not asked yet."""
        self.used.add("compared " + key)
        return self.compared.get(key, {}).get(tag)

    def record(self, key: str, tag: str, found: bool) -> None:
        self.compared.setdefault(key, {})[tag] = found
        self.used.add("compared " + key)

    def save(self, *, prune: bool) -> None:
        """Write the file (atomically, only when its text changes); ``prune`` drops what this run did not use
        (a run over every write-up: what it did not ask for belongs to no write-up any more)."""
        if self.path is None:
            return
        from ..files import write_text_atomically

        answers = {k: v for k, v in self.answers.items() if not prune or k in self.used}
        compared = {k: v for k, v in self.compared.items() if v and (not prune or "compared " + k in self.used)}
        document = {"version": CACHE_VERSION, "answers": answers, "compared": compared}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        gitignore = self.path.parent / ".gitignore"
        if not gitignore.exists():  # a site not made by `init` commits it by mistake otherwise
            write_text_atomically(gitignore, "# written by contributions sync: conditional-request state\n*\n")
        write_text_atomically(self.path, json.dumps(document, ensure_ascii=False, sort_keys=True) + "\n")
