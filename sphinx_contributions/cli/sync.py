"""``contributions sync``: the forge's facts about each write-up's pull request, into
``contributions.lock.json`` beside ``conf.py`` (:mod:`.lock`).

For every write-up (drafts too), from its forge's REST API (:mod:`.forges`): the state, the merge's time
and commit, the title, the lines added and deleted and the files changed, the title and state of each
issue the page names, how the pull request was made (when it was opened, the paths of its changed files,
its commits, approving reviews, the issues the forge says it closes: each only where the forge gives it),
and the first release that contains the merge commit (the rule and its bound:
:mod:`.forges.releases`). Requests are conditional on the ETags kept in the cache folder
(:mod:`.forges.cache`), never in the lock, which holds facts only. Credentials go only to each API's own
origin (:mod:`.forges.http`). Each answer is checked before a fact is taken from it (:mod:`.forges.schema`):
a wrong shape fails that write-up, naming the field, and the run goes on. A rate limit, a refused token or
a host that cannot be reached stops that forge's write-ups with one line; the other forges go on. Whatever
was fetched is written on every stop (a limit, Ctrl-C, a crash). One sync of a site at a time (a file
lock). One progress line per write-up.

``--only KEY`` syncs one write-up, ``--dry-run`` writes nothing (``contributions discover``, :mod:`.discover`,
finds the pull requests that have no write-up yet).

``contributions new URL`` also reads here (:func:`pull_facts_for_new`): the facts from the lock, else from
the API when it answers, else nothing (the scaffold as before).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import forges
from ..forges.cache import CACHE_DIR, CACHE_FILE, AnswerCache
from ..keys import key_lookup
from ..lock import LockBusyError, LockError, by_lookup, entry_json, facts, read_lock, site_lock, write_lock
from ..options import OptionError, parse_int_list, parse_positive_int, parse_repo
from ..records import ForgeFacts
from ..settings import LOCK_NAME
from .common import PROG, CommandError, UsageError, shown, site_pages, site_root

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..collect.drafts import SourcePage
    from ..forges.base import Forge, ForgeAPI, PullFacts
    from ..forges.http import Session

#: seconds a whole API request may take, the first wait before a retry (doubled for each next one), and the
#: longest rate-limit or Retry-After wait the sync waits out instead of stopping the forge
TIMEOUT = 10.0
RETRY_WAIT = 1.0
MAX_WAIT = 60.0


def now_utc() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Apis:
    """One API client per forge, made on first use, each with its own HTTP session, its credentials (sent
    only to its API's origin) and the run's cache of conditional requests."""

    def __init__(
        self,
        timeout: float = TIMEOUT,
        retry_wait: float = RETRY_WAIT,
        max_wait: float = MAX_WAIT,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.timeout = timeout
        self.retry_wait = retry_wait
        self.max_wait = max_wait
        self.sleep = sleep
        self.cache = AnswerCache(None)
        self._made: dict[str, ForgeAPI] = {}
        self.sessions: list[Session] = []

    def __call__(self, forge: Forge) -> ForgeAPI:
        if forge.name not in self._made:
            from ..forges import http

            session = http.Session(
                http.client(timeout=self.timeout),
                credentials=forge.credentials(),
                token_names=forge.token_env,
                label=forge.label,
                backoff=self.retry_wait,
                timeout=self.timeout,
                max_wait=self.max_wait,
                sleep=self.sleep,
                cache=self.cache,
            )
            self.sessions.append(session)
            self._made[forge.name] = forge.api(session)  # InsecureError: an http address with a token
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


@dataclass
class Synced:
    """One write-up's entry, notes for its progress line (a renamed repository, a merge into another branch
    than the default one), why its first release is not known (None: known, or in no release yet), and
    the failure that cut the release search short (the entry keeps the pull request's facts)."""

    entry: dict[str, Any]
    notes: list[str]
    unknown: str | None = None
    error: Exception | None = None


def sync_entry(
    api: ForgeAPI,
    repo: str,
    pr: int,
    issues: tuple[int, ...],
    old: dict[str, Any] | None,
    fetched_at: str,
    cache: AnswerCache,
    *,
    prereleases: bool = False,
) -> Synced:
    """One write-up's entry from its forge (:class:`Synced`)."""
    from ..forges.base import MissingError
    from ..forges.http import ForgeError, HostError, RateLimitError
    from ..forges.schema import ShapeError

    forge, path = forges.split_spec(repo)
    before = facts(old) if old else None
    pull = api.fetch_pull(path, pr)
    made = api.fetch_made(path, pr)
    found_issues = []
    for number in issues:
        issue = api.fetch_issue(path, number)
        found_issues.append((issue.number, issue.title, issue.state))
    release, unknown, error = None, None, None
    commit = pull.merge_commit
    if pull.state == "merged":
        try:
            key = f"{forge.spec(path).lower()}@{commit}"
            release, unknown = _first_release(api, path, key, pull, cache, prereleases)
        except (ForgeError, ShapeError, MissingError) as failed:  # the pull request's facts are kept
            error, unknown = failed, f"the release search failed: {failed}"
        if unknown and commit and before is not None and before.merge_commit == commit and before.first_release:
            release = before.first_release  # found by an earlier sync: not lost to this one's stop
            if error is None:
                unknown = f"{release[0]} as the lock says, not checked again yet: {unknown}"
        elif unknown and error is None:
            unknown = f"first release not known{'' if commit is None else ' yet'}: {unknown}"
    result = ForgeFacts(
        state=pull.state,
        title=pull.title,
        fetched_at=fetched_at,
        merged_at=pull.merged_at,
        merge_commit=commit,
        additions=pull.additions,
        deletions=pull.deletions,
        changed_files=pull.changed_files,
        issues=tuple(found_issues),
        first_release=release,
        opened_at=pull.opened_at,
        commits=made.commits if made.commits is not None else pull.commits,
        approvals=made.approvals,
        closes=made.closes,
        files=made.files,
        files_at_least=pull.files_at_least,
    )
    if before is not None and result == ForgeFacts(**{**before.__dict__, "fetched_at": fetched_at}):
        result = before  # the same facts: the time they were first fetched stays, the lock keeps its bytes
    notes = []
    if pull.repository and pull.repository.lower() != path.lower():
        notes.append(
            f"the forge now names the repository {forge.spec(pull.repository)}: write ':repo: "
            f"{forge.spec(pull.repository)}'"
        )
    base_branch, default_branch = pull.base_branch, pull.default_branch
    other_branch = bool(base_branch and default_branch and base_branch != default_branch)
    # a pull request merged into master before master was renamed main was merged into the default branch
    if base_branch and other_branch and pull.state == "merged":
        # (not asked of a forge that just stopped the search: a limit, a host that cannot be reached)
        asked = not isinstance(error, (RateLimitError, HostError))
        other_branch = asked and api.branch_now(path, base_branch) != default_branch
    if other_branch:
        into = "merged into" if pull.state == "merged" else "asks to be merged into"
        notes.append(f"{into} {pull.base_branch}, not the default branch {pull.default_branch}")
    return Synced(entry_json(repo, pr, result), notes, unknown, error)


def _first_release(
    api: ForgeAPI, path: str, key: str, pull: PullFacts, cache: AnswerCache, prereleases: bool
) -> tuple[tuple[str, str] | None, str | None]:
    """A merged pull request's first release (tag, published_at) by the rule of :mod:`.forges.releases`,
    or None with why it is not known (no merge commit; the bound on compares), None too when no release
    ships it yet. Each tag's compare is kept in the cache under ``key`` (``repo@sha``)."""
    from ..forges.releases import MAX_COMPARES, candidates, first_release

    releases = api.releases(path)
    since = candidates(releases, pull.merged_at, prereleases=prereleases)
    commit = pull.merge_commit
    if commit is None:  # GitHub gives none for some old merges: no compare can tell, unless no release came since
        if not since:
            return None, None
        count = f"{len(since)} release{'s' * (len(since) != 1)}"
        return None, f"the forge gives no merge commit to compare with the {count} published since the merge"

    def compare(tag: str) -> bool:
        found = api.contains(path, tag, commit)
        cache.record(key, tag, found)
        return found

    found, left = first_release(
        releases, pull.merged_at, lambda tag: cache.contains(key, tag), compare, prereleases=prereleases
    )
    if left:
        return None, (
            f"{left} of the {len(since)} releases since the merge not compared (at most {MAX_COMPARES} compares "
            "per pull request and sync; the next sync goes on)"
        )
    return ((found.tag, found.published_at) if found else None), None


def describe(entry: dict[str, Any], *, release_known: bool = True) -> str:
    """An entry in words, for the progress line: ``merged on 2024-05-02, first shipped in v1.2.0``
    (``release_known`` False: no "in no release yet", the line says why the release is not known)."""
    found = facts(entry)
    words = [f"merged on {found.merged_on}" if found.state == "merged" and found.merged_on else found.state]
    if found.first_release:
        words.append(f"first shipped in {found.first_release[0]}")
    elif found.state == "merged" and release_known:
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
    apis: Apis,
    clock: Callable[[], str] = now_utc,
    out: TextIO | None = None,
    prereleases: bool = False,
    lock_wait: float | None = None,
) -> int:
    """Sync the lock of the site at ``root``; the exit status (0: every write-up synced; 130: interrupted).
    Another sync of the site that holds the lock is waited for up to ``lock_wait`` seconds
    (:data:`~.lock.LOCK_WAIT`), then the sync stops with a :class:`CommandError` that says what to do."""
    out = out or sys.stdout
    lock_path = root / LOCK_NAME
    if dry_run:
        return _sync(root, lock_path, only, True, apis, clock, out, prereleases)
    try:
        with site_lock(
            root / CACHE_DIR / "sync.lock",
            waiting=lambda: print(f"waiting for another '{PROG} sync' of this site to finish…", file=out, flush=True),
            timeout=lock_wait,
        ):
            return _sync(root, lock_path, only, False, apis, clock, out, prereleases)
    except LockBusyError as error:
        raise CommandError(
            f"{PROG} sync: another '{PROG} sync' of this site has held its lock ({shown(error.holder)}) for "
            f"{error.waited:g} s: let it finish, or stop it, then sync again (a sync that has stopped holds no lock, "
            "whether or not the file is left)"
        ) from None


def _sync(
    root: Path,
    lock_path: Path,
    only: str | None,
    dry_run: bool,
    apis: Apis,
    clock: Callable[[], str],
    out: TextIO,
    prereleases: bool,
) -> int:
    from ..forges.base import MissingError
    from ..forges.http import ForgeError, HostError, RateLimitError, UnreachableError, api_origin
    from ..forges.schema import ShapeError

    def origin(forge: Forge) -> object:
        try:
            return api_origin(os.environ.get(forge.api_url_env) or forge.api_default)
        except Exception:  # an address httpx cannot read: the forge's own failure says so
            return forge.name

    try:
        old = read_lock(lock_path)
    except LockError as error:
        raise CommandError(f"{PROG} sync: {error}; fix or delete it, then sync again") from None
    apis.cache = AnswerCache(root / CACHE_DIR / CACHE_FILE)
    pages = sorted(site_pages(root).values(), key=lambda page: key_lookup(page.key))
    if only is not None:
        pages = [page for page in pages if key_lookup(page.key) == key_lookup(only)]
        if not pages:
            raise UsageError(f"{PROG} sync: no write-up has the key {only!r}")
    targets: list[tuple[str, int, tuple[int, ...]] | OptionError] = []
    for page in pages:
        try:
            targets.append(_page_target(page))
        except OptionError as error:
            targets.append(error)
    entries = dict(old)
    previous = by_lookup(old)
    failed = 0
    #: forge name → why its write-ups are skipped (said once, on the line of the write-up that met it)
    stopped: dict[str, str] = {}
    #: the API origins that could not be reached: every forge there is skipped
    unreachable: set[object] = set()
    limited = False
    total = len(pages)

    def stop(forge: Forge, error: Exception, i: int) -> str:
        """Stop ``forge`` (or, for a host that cannot be reached, every forge there) after write-up ``i``:
        what the line says."""
        nonlocal limited
        host = isinstance(error, UnreachableError)
        # the later write-ups this stop skips: not those an earlier stop already skips (and said so)
        later = [
            f
            for f in (forges.forge_of(t[0]) for t in targets[i:] if not isinstance(t, OptionError))
            if f.name not in stopped and origin(f) not in unreachable
        ]
        if host:
            unreachable.add(origin(forge))
            rest = [f for f in later if origin(f) in unreachable]
        else:
            rest = [f for f in later if f.name == forge.name]
        stopped[forge.name] = str(error)
        skip = ""
        if host and rest:  # which forges' write-ups, and how many of each: a host may serve several
            counts = {f.label: sum(g.label == f.label for g in rest) for f in rest}
            skip = "; skipping the other write-ups on that host: " + ", ".join(
                f"{label}'s {n}" for label, n in counts.items()
            )
        elif rest:
            skip = f"; skipping {forge.label}'s {len(rest)} other write-up{'s' * (len(rest) != 1)}"
        limited = limited or isinstance(error, RateLimitError)
        return f"{'stopped' if isinstance(error, RateLimitError) else 'failed'}: {error}{skip}"

    def keep(why: str) -> None:
        """Write what was fetched so far (every stop but a dry run's)."""
        if dry_run:
            return
        write_lock(lock_path, entries)
        apis.cache.save(prune=False)
        print(f"{why}: kept what was fetched: {shown(lock_path)} ({_entries(entries)})", file=out)

    try:
        for i, (page, target) in enumerate(zip(pages, targets, strict=True), start=1):
            where = f"[{i}/{total}] {page.key}"
            if isinstance(target, OptionError):
                print(f"{where}: skipped, its header does not parse ({target})", file=out)
                failed += 1
                continue
            repo, pr, issues = target
            forge = forges.forge_of(repo)
            if forge.name in stopped or origin(forge) in unreachable:
                failed += 1
                continue
            key = page.key  # the page's own (its :key:, else repository name and number), as the build looks up
            earlier = previous.get(key_lookup(key))
            for name in [name for name in entries if key_lookup(name) == key_lookup(key)]:
                del entries[name]
            if earlier is not None:
                entries[key] = earlier
            try:
                synced = sync_entry(
                    apis(forge), repo, pr, issues, earlier, clock(), apis.cache, prereleases=prereleases
                )
            except MissingError as error:
                print(f"{where}: not found on the forge (deleted, or private and no token): {error}", file=out)
                failed += 1
                continue
            except (RateLimitError, HostError) as error:
                print(f"{where}: {stop(forge, error, i)}", file=out)
                failed += 1
                continue
            except (ForgeError, ShapeError) as error:
                print(f"{where}: failed: {error}", file=out)
                failed += 1
                continue
            entry = entries[key] = synced.entry
            unchanged = earlier is not None and entry == earlier
            extra = "".join(f"; {note}" for note in synced.notes)
            said = describe(entry, release_known=synced.unknown is None)
            if isinstance(synced.error, (RateLimitError, HostError)):
                extra += f"; the release search {stop(forge, synced.error, i)}"
            elif synced.unknown:
                extra += f"; {synced.unknown}"
            if synced.error is not None:
                failed += 1
            print(f"{where}: {said}{extra}{' (unchanged)' if unchanged else ''}", file=out)
    except KeyboardInterrupt:
        keep("interrupted")
        return 130
    except BaseException as error:
        keep(f"stopped by {type(error).__name__}")
        raise
    if only is None and not stopped:
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
    if not dry_run:
        apis.cache.save(prune=only is None and not stopped and not failed)
    if limited:
        print(f"kept what was fetched; run '{PROG} sync' again once the rate limit lifts", file=out)
    if failed:
        print(f"{failed} write-up{'s' * (failed != 1)} not synced", file=out)
    return 1 if failed else 0


# -- contributions new ---------------------------------------------------------------------------------


def facts_for_new(root: Path, repo: str, number: int) -> tuple[ForgeFacts, str] | None:
    """The forge's facts for ``contributions new``, and where they came from: the lock's entry, else the API
    (one quick attempt; not when ``CONTRIBUTIONS_OFFLINE`` is set or httpx is missing), else None."""
    try:
        entries = by_lookup(read_lock(root / LOCK_NAME))
    except LockError:
        entries = {}
    # the entry fetched for this repository and number, whatever page key it is under (two owners of one
    # repository name have two keys, see :func:`run_sync`)
    entry = next(
        (e for e in entries.values() if (str(e.get("repository", "")).lower(), e.get("pr")) == (repo.lower(), number)),
        None,
    )
    if entry is not None:
        return facts(entry), LOCK_NAME
    if os.environ.get("CONTRIBUTIONS_OFFLINE"):
        return None
    try:
        from ..forges.base import MissingError
        from ..forges.http import ForgeError, Session, client
        from ..forges.schema import ShapeError
    except ImportError:  # httpx is the sync extra
        return None
    forge, path = forges.split_spec(repo)
    session = Session(
        client(timeout=5.0), credentials=forge.credentials(), label=forge.label, attempts=1, timeout=5.0, max_wait=0
    )
    try:
        pull = forge.api(session).fetch_pull(path, number)
    except (ForgeError, MissingError, ShapeError):
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
        import filelock  # noqa: F401
        import httpx  # noqa: F401
    except ImportError as error:
        raise CommandError(f"{PROG} sync needs {error.name}: pip install 'sphinx-contributions[sync]'") from None
    apis = Apis(timeout=args.timeout, retry_wait=args.retry_wait, max_wait=args.max_wait)
    try:
        return run_sync(root, only=args.only, dry_run=args.dry_run, apis=apis, prereleases=args.prereleases)
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
            "Tokens: GH_TOKEN or GITHUB_TOKEN, GITLAB_TOKEN, CODEBERG_TOKEN (without one, the anonymous limit), sent "
            "only to the API's own address. "
            "API addresses: GITHUB_API_URL, GITLAB_API_URL, CODEBERG_API_URL."
        ),
    )
    root_option(sync)
    sync.add_argument("--only", metavar="KEY", help="sync only the write-up with this key (e.g. transformers#49135)")
    sync.add_argument("--dry-run", action="store_true", help="fetch and report, write nothing")
    sync.add_argument(
        "--prereleases", action="store_true", help="let a pre-release be the first release that shipped a merge"
    )
    sync.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        metavar="SECONDS",
        help=f"for each whole request (default {TIMEOUT:g})",
    )
    sync.add_argument(
        "--max-wait",
        type=float,
        default=MAX_WAIT,
        metavar="SECONDS",
        help=f"the longest rate-limit or Retry-After wait to sit out before stopping a forge (default {MAX_WAIT:g})",
    )
    sync.add_argument(
        "--retry-wait",
        type=float,
        default=RETRY_WAIT,
        metavar="SECONDS",
        help=f"the first wait before a retry, doubled for each next one (default {RETRY_WAIT:g})",
    )
    sync.set_defaults(handler=command_sync)
