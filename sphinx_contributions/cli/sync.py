"""``contributions sync``: the forge's facts about each write-up's pull request, into
``contributions.lock.json`` beside ``conf.py`` (:mod:`.lock`).

For every write-up (drafts too), from its forge's REST API (:mod:`.forges`): the state, the merge's time
and commit, the title, the lines added and deleted and the files changed, the title and state of each
issue the page names, and the first release whose tag contains the merge commit, found by a binary search
over the releases in date order (at most ⌈log₂ R⌉ + 1 compare calls for R releases). Requests are
conditional on the ETags the lock keeps, so a second sync of unchanged pull requests gets only
``304 Not Modified`` answers and costs no rate limit; 5xx answers and timeouts are retried with backoff;
at a rate limit the sync stops, keeps what it fetched and says when to retry; a pull request that is gone
(404) is reported and its entry kept as it was. One progress line per write-up.

``--only KEY`` syncs one write-up, ``--dry-run`` writes nothing, ``--discover USER`` lists the user's
merged pull requests in other owners' GitHub repositories that have no write-up yet.

``contributions new URL`` also reads here (:func:`pull_facts_for_new`): the facts from the lock, else from
the API when it answers, else nothing (the scaffold as before).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import forges
from ..lock import LOCK_NAME, LockError, by_lookup, entry_json, facts, read_lock, write_lock
from ..model import ForgeFacts, OptionError, key_lookup, make_key, parse_int_list, parse_positive_int, parse_repo
from .common import PROG, CommandError, UsageError, shown, site_pages, site_root, table

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..collect.drafts import SourcePage
    from ..forges.base import Forge, ForgeAPI, Release
    from ..forges.http import Session

#: seconds an API answer may take, and the first wait before a retry (doubled for each next one)
TIMEOUT = 10.0
RETRY_WAIT = 1.0


def now_utc() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _time(value: str) -> datetime:
    stamp = datetime.fromisoformat(value)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def first_release(api: ForgeAPI, path: str, releases: list[Release], sha: str, merged_at: str | None) -> Release | None:
    """The first of ``releases`` (oldest first) whose tag contains commit ``sha``: releases published
    before the merge are passed over without a call, then a binary search over the rest, one compare call
    per step (at most ⌈log₂(R + 1)⌉ for R releases). Assumes what release histories are: a release
    contains what the releases before it (in date order) contained."""
    if merged_at:
        merged = _time(merged_at)
        releases = [r for r in releases if _time(r.published_at) >= merged]
    low, high = 0, len(releases)
    while low < high:
        middle = (low + high) // 2
        if api.contains(path, releases[middle].tag, sha):
            high = middle
        else:
            low = middle + 1
    return releases[low] if low < len(releases) else None


class Apis:
    """One API client per forge, made on first use, each with its own HTTP session and token."""

    def __init__(self, timeout: float = TIMEOUT, retry_wait: float = RETRY_WAIT) -> None:
        self.timeout = timeout
        self.retry_wait = retry_wait
        self._made: dict[str, ForgeAPI] = {}
        self.sessions: list[Session] = []

    def __call__(self, forge: Forge) -> ForgeAPI:
        if forge.name not in self._made:
            from ..forges import http

            session = http.Session(http.client(forge.token_header(), timeout=self.timeout), backoff=self.retry_wait)
            self.sessions.append(session)
            self._made[forge.name] = forge.api(session)
        return self._made[forge.name]

    def close(self) -> None:
        for session in self.sessions:
            session.client.close()


def _page_target(page: SourcePage) -> tuple[str, int, tuple[int, ...]]:
    """(repo, pr, issues) a page's header declares; :class:`OptionError` when they do not parse."""
    repo = parse_repo(page.options.get("repo"))
    pr = parse_positive_int(page.options.get("pr"), "pr")
    issues = parse_int_list(page.options["issue"], "issue") if page.options.get("issue", "").strip() else ()
    return repo, pr, issues


def sync_entry(
    api: ForgeAPI, repo: str, pr: int, issues: tuple[int, ...], old: dict[str, Any] | None, fetched_at: str
) -> tuple[dict[str, Any], bool]:
    """One write-up's entry, fetched (conditionally on ``old``'s ETags); and whether the forge answered
    anything new."""
    from ..forges.base import UnchangedError

    _, path = forges.split_spec(repo)
    etags: dict[str, str] = dict(old["etags"]) if old else {}
    before = facts(old) if old else None
    new = False
    try:
        pull = api.fetch_pull(path, pr, etags)
        new = True
        state, title, merged_at, commit = pull.state, pull.title, pull.merged_at, pull.merge_commit
        sizes = (pull.additions, pull.deletions, pull.changed_files)
    except UnchangedError:
        assert before is not None  # asked conditionally only with the entry's ETag
        state, title, merged_at, commit = before.state, before.title, before.merged_at, before.merge_commit
        sizes = (before.additions, before.deletions, before.changed_files)
    known = {number: (number, t, s) for number, t, s in (before.issues if before else ())}
    for url in [url for url in etags if "/issues/" in url and not any(url.endswith(f"/issues/{n}") for n in known)]:
        etags.pop(url)  # an ETag is asked with only when its answer is in the entry
    found_issues = []
    for number in issues:
        try:
            issue = api.fetch_issue(path, number, etags)
            found_issues.append((issue.number, issue.title, issue.state))
            new = True
        except UnchangedError:
            found_issues.append(known[number])
    release = before.first_release if before and before.merge_commit == commit else None
    releases_url = [url for url in etags if url.endswith("/releases")]
    if commit is None:
        release = None
        for url in releases_url:
            etags.pop(url)
    elif release is None:
        if before is None or before.merge_commit != commit:
            for url in releases_url:
                etags.pop(url)
        try:
            found = first_release(api, path, api.releases(path, etags), commit, merged_at)
            release = (found.tag, found.published_at) if found else None
            new = True
        except UnchangedError:  # no new release since the last search: still none
            release = None
    for url in [url for url in etags if "/issues/" in url and not any(url.endswith(f"/issues/{n}") for n in issues)]:
        etags.pop(url)
    result = ForgeFacts(
        state=state,
        title=title,
        fetched_at=fetched_at,
        merged_at=merged_at,
        merge_commit=commit,
        additions=sizes[0],
        deletions=sizes[1],
        changed_files=sizes[2],
        issues=tuple(found_issues),
        first_release=release,
    )
    if before is not None and result == dataclasses.replace(before, fetched_at=fetched_at):
        result = before  # the same facts: the time they were fetched stays
    return entry_json(repo, pr, result, etags), new


def describe(entry: dict[str, Any]) -> str:
    """An entry in words, for the progress line: ``merged on 2024-05-02, first shipped in v1.2.0``."""
    found = facts(entry)
    words = [f"merged on {found.merged_on}" if found.state == "merged" and found.merged_on else found.state]
    if found.first_release:
        words.append(f"first shipped in {found.first_release[0]}")
    elif found.state == "merged":
        words.append("in no release yet")
    if found.issues:
        words.append(", ".join(f"issue #{n} {s}" for n, _, s in found.issues))
    return ", ".join(words)


def _entries(entries: dict[str, Any]) -> str:
    return f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"


def run_sync(
    root: Path,
    *,
    only: str | None = None,
    dry_run: bool = False,
    apis: Callable[[Forge], ForgeAPI],
    clock: Callable[[], str] = now_utc,
    out: TextIO | None = None,
) -> int:
    """Sync the lock of the site at ``root``; the exit status (0: every write-up synced)."""
    out = out or sys.stdout
    from ..forges.base import MissingError
    from ..forges.http import ForgeError, RateLimitError

    lock_path = root / LOCK_NAME
    try:
        old = read_lock(lock_path)
    except LockError as error:
        raise CommandError(f"{PROG} sync: {error}; fix or delete it, then sync again") from None
    pages = sorted(site_pages(root).values(), key=lambda page: key_lookup(page.key))
    if only is not None:
        pages = [page for page in pages if key_lookup(page.key) == key_lookup(only)]
        if not pages:
            raise UsageError(f"{PROG} sync: no write-up has the key {only!r}")
    entries = dict(old)
    previous = by_lookup(old)
    failed = 0
    total = len(pages)
    for i, page in enumerate(pages, start=1):
        where = f"[{i}/{total}] {page.key}"
        try:
            repo, pr, issues = _page_target(page)
        except OptionError as error:
            print(f"{where}: skipped, its header does not parse ({error})", file=out)
            failed += 1
            continue
        key = make_key(repo, pr)
        earlier = previous.get(key_lookup(key))
        for name in [name for name in entries if key_lookup(name) == key_lookup(key)]:
            del entries[name]
        if earlier is not None:
            entries[key] = earlier
        try:
            entry, new = sync_entry(apis(forges.forge_of(repo)), repo, pr, issues, earlier, clock())
        except MissingError as error:
            print(f"{where}: not found on the forge (deleted, or private and no token): {error}", file=out)
            failed += 1
            continue
        except RateLimitError as error:
            print(f"{where}: stopped: {error}", file=out)
            if not dry_run:
                write_lock(lock_path, entries)
            print(
                f"kept what was fetched: {shown(lock_path)} ({_entries(entries)}); run '{PROG} sync' again then",
                file=out,
            )
            return 1
        except ForgeError as error:
            print(f"{where}: failed: {error}", file=out)
            failed += 1
            continue
        entries[key] = entry
        print(f"{where}: {describe(entry)}{'' if new else ' (unchanged)'}", file=out)
    if only is None:
        keys = {key_lookup(page.key) for page in pages}
        for name in sorted(entries):
            if key_lookup(name) not in keys:
                print(f"dropped {name}: no write-up has this key", file=out)
                del entries[name]
    if not entries and not lock_path.exists():
        print(f"{shown(lock_path)} not written: no entries", file=out)
    elif dry_run:
        changed = entries != old
        print(
            f"dry run: {shown(lock_path)} {'would change' if changed else 'would not change'}; nothing written",
            file=out,
        )
    elif write_lock(lock_path, entries):
        print(f"wrote {shown(lock_path)} ({_entries(entries)})", file=out)
    else:
        print(f"{shown(lock_path)} unchanged ({_entries(entries)})", file=out)
    if failed:
        print(f"{failed} write-up{'s' * (failed != 1)} not synced", file=out)
    return 1 if failed else 0


def run_discover(root: Path, user: str, *, apis: Callable[[Forge], ForgeAPI], out: TextIO | None = None) -> int:
    """The user's merged pull requests in other owners' GitHub repositories that have no write-up."""
    out = out or sys.stdout
    from ..forges.http import ForgeError

    have = {key_lookup(page.key) for page in site_pages(root).values()}
    try:
        merged = apis(forges.GITHUB).merged_by(user)
    except ForgeError as error:
        raise CommandError(f"{PROG} sync --discover: {error}") from None
    todo = [
        (make_key(repo, n), repo, str(n), title)
        for repo, n, title in merged
        if key_lookup(make_key(repo, n)) not in have
    ]
    print(f"Merged pull requests by {user} without a write-up ({len(todo)}):", file=out)
    if todo:
        rows = [(key, f"{PROG} new {forges.pr_url(repo, int(n))}", title) for key, repo, n, title in todo]
        print(table(("key", "to start one", "title"), rows), file=out)
    else:
        print("  none", file=out)
    return 0


# -- contributions new ---------------------------------------------------------------------------------


def facts_for_new(root: Path, repo: str, number: int) -> tuple[ForgeFacts, str] | None:
    """The forge's facts for ``contributions new``, and where they came from: the lock's entry, else the API
    (one quick attempt; not when ``CONTRIBUTIONS_OFFLINE`` is set or httpx is missing), else None."""
    try:
        entries = by_lookup(read_lock(root / LOCK_NAME))
    except LockError:
        entries = {}
    entry = entries.get(key_lookup(make_key(repo, number)))
    if entry is not None:
        return facts(entry), LOCK_NAME
    if os.environ.get("CONTRIBUTIONS_OFFLINE"):
        return None
    try:
        from ..forges.base import MissingError, UnchangedError
        from ..forges.http import ForgeError, Session, client
    except ImportError:  # httpx is the sync extra
        return None
    forge, path = forges.split_spec(repo)
    session = Session(client(forge.token_header(), timeout=5.0), attempts=1)
    try:
        pull = forge.api(session).fetch_pull(path, number, {})
    except (ForgeError, MissingError, UnchangedError):
        return None
    finally:
        session.client.close()
    found = ForgeFacts(
        state=pull.state,
        title=pull.title,
        fetched_at=now_utc(),
        merged_at=pull.merged_at,
        issues=tuple((n, "", "") for n in pull.issues),
    )
    return found, f"the {forge.label} API"


def scaffold_from_forge(root: Path, repo: str, number: int, text: str) -> tuple[str, str | None]:
    """``contributions new``'s scaffold with what the forge says filled in (the title, ``:issue:``,
    ``:date:`` of the merge, a comment with the state and first release), and a line saying where it came
    from; the scaffold as it is when nothing answers."""
    got = facts_for_new(root, repo, number)
    if got is None:
        return text, None
    found, source = got
    lines = text.splitlines(keepends=True)
    if found.title.strip():
        lines[0] = f"# {' '.join(found.title.split())}\n"
    at = next(i for i, line in enumerate(lines) if line.startswith(":pr: "))
    extra = []
    if found.issues:
        extra.append(f":issue: {', '.join(str(n) for n, _, _ in found.issues)}\n")
    if found.merged_on:
        extra.append(f":date: {found.merged_on}\n")
    lines[at + 1 : at + 1] = extra
    words = [found.state] + ([f"merged on {found.merged_on}"] if found.merged_on else [])
    if found.first_release:
        words.append(f"first shipped in {found.first_release[0]}")
    end = next(i for i, line in enumerate(lines) if line.strip() == ":::")
    lines.insert(end + 1, f"\n% The forge says ({source}): {', '.join(words)}.\n")
    return "".join(lines), f"filled in from {source}: the title, {', '.join(words)}"


def command_sync(args: argparse.Namespace) -> int:
    root = site_root(args.root, "sync")
    try:
        import httpx  # noqa: F401
    except ImportError:
        raise CommandError(f"{PROG} sync needs httpx: pip install 'sphinx-contributions[sync]'") from None
    apis = Apis(timeout=args.timeout, retry_wait=args.retry_wait)
    try:
        if args.discover:
            return run_discover(root, args.discover, apis=apis)
        return run_sync(root, only=args.only, dry_run=args.dry_run, apis=apis)
    finally:
        apis.close()


def add_sync_command(commands: Any, root_option: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register ``contributions sync`` with the CLI's subcommands."""
    sync = commands.add_parser(
        "sync",
        help="fetch each write-up's facts from its forge into contributions.lock.json",
        description=(
            f"For every write-up (drafts too), ask its forge's API (GitHub, GitLab, Codeberg) for the pull "
            f"request's state, merge date and commit, title, size, its issues' titles and states, and the first "
            f"release that contains it; write them to {LOCK_NAME} beside conf.py. The build reads only that file. "
            "Tokens: GITHUB_TOKEN or GH_TOKEN, GITLAB_TOKEN, CODEBERG_TOKEN (without one, the anonymous limit). "
            "API addresses: GITHUB_API_URL, GITLAB_API_URL, CODEBERG_API_URL."
        ),
    )
    root_option(sync)
    sync.add_argument("--only", metavar="KEY", help="sync only the write-up with this key (e.g. transformers#49135)")
    sync.add_argument("--dry-run", action="store_true", help="fetch and report, write nothing")
    sync.add_argument(
        "--discover",
        metavar="USER",
        help="list USER's merged GitHub pull requests in others' repositories without a write-up",
    )
    sync.add_argument(
        "--timeout", type=float, default=TIMEOUT, metavar="SECONDS", help=f"per request (default {TIMEOUT:g})"
    )
    sync.add_argument(
        "--retry-wait",
        type=float,
        default=RETRY_WAIT,
        metavar="SECONDS",
        help=f"the first wait before a retry, doubled for each next one (default {RETRY_WAIT:g})",
    )
    sync.set_defaults(handler=command_sync)
