"""``contributions discover``: the merged pull (merge) requests a user wrote in repositories they do not own,
on GitHub (its search API), gitlab.com (its merge requests API, with a token) and Codeberg or another Forgejo
or Gitea (its issue search, with the user's own token), newest first; each one already written up is marked
with its page. ``--new N …`` writes a draft of the pull requests numbered N in the list, as ``contributions
new`` does; ``--json`` prints the list for programs.

The user comes from ``--user`` (``ada`` on GitHub, ``gitlab.com/ada``, ``codeberg.org/ada``, or a profile's
address), else from the profile links ``contributions init`` wrote in ``conf.py``
(``contributions_profile_links``). Each forge is asked through the session ``sync`` uses
(:class:`.sync.Apis`: tokens only to their own API's origin, the forges' documented limits and pagination).
What a forge's answer says of its own completeness (GitHub's cap of 1,000 results for one search, its
``incomplete_results``, a rate limit reached halfway) is said. Offline, it says so and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import forges
from ..keys import make_key
from .common import PROG, CommandError, UsageError, one_line, shown, site_pages, site_root, table
from .new import PullRequest, write_draft
from .sync import MAX_WAIT, RETRY_WAIT, TIMEOUT, Apis

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..forges.base import Forge, MergedPull

_PROFILE = re.compile(
    r"^(?:https?://)?(?:www\.)?(?P<host>github\.com|gitlab\.com|codeberg\.org)/(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)/?$",
    re.IGNORECASE,
)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass(frozen=True)
class User:
    """A user on one forge."""

    forge: Forge
    name: str

    @property
    def shown(self) -> str:
        return f"{self.forge.label} user {self.name}"


def parse_user(text: str) -> User:
    """``ada`` (GitHub), ``gitlab.com/ada``, ``codeberg.org/ada``, ``@ada`` or a profile's address."""
    value = text.strip().removeprefix("@")
    if match := _PROFILE.match(value):
        forge = next(f for f in forges.FORGES if f.host == match["host"].lower())
        return User(forge, match["name"])
    if _NAME.match(value):
        return User(forges.GITHUB, value)
    raise UsageError(
        f"{PROG} discover: --user takes a user name (GitHub), gitlab.com/NAME, codeberg.org/NAME or a profile's "
        f"address; got {text!r}"
    )


def profile_users(root: Path) -> list[User]:
    """The users of the GitHub, GitLab and Codeberg profiles in ``conf.py``'s ``contributions_profile_links``."""
    from sphinx.config import eval_config_file
    from sphinx.util.tags import Tags

    try:
        settings = eval_config_file(root / "conf.py", Tags())
    except Exception as error:  # sphinx's ConfigError, or anything conf.py raises
        raise CommandError(f"{PROG} discover: cannot read {shown(root / 'conf.py')}: {one_line(str(error))}") from None
    links = settings.get("contributions_profile_links") or []
    users = []
    for link in links if isinstance(links, (list, tuple)) else []:
        if isinstance(link, str) and (match := _PROFILE.match(link.strip())):
            users.append(parse_user(match[0]))
    return users


@dataclass
class Row:
    """One merged pull request of the list: where it is, and the page that writes it up (None: none yet)."""

    forge: Forge
    pull: MergedPull
    page: str | None

    @property
    def url(self) -> str:
        return forges.pr_url(self.pull.repo, self.pull.number)

    def as_json(self, number: int) -> dict[str, Any]:
        return {
            "n": number,
            "forge": self.forge.name,
            "repository": self.pull.repo,
            "pr": self.pull.number,
            "key": make_key(self.pull.repo, self.pull.number),
            "url": self.url,
            "title": self.pull.title,
            "merged_at": self.pull.merged_at,
            "page": self.page,
        }


@dataclass
class Outcome:
    """What one user's search on one forge came to: ``status`` is ``complete``, ``incomplete`` (stopped
    halfway), ``skipped`` (no token, said plainly) or ``failed``; ``said``: its line."""

    user: User
    status: str
    said: str
    notes: list[str]
    found: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "forge": self.user.forge.name,
            "user": self.user.name,
            "status": self.status,
            "found": self.found,
            "said": self.said,
            "notes": self.notes,
        }


def search(root: Path, users: Sequence[User], apis: Apis) -> tuple[list[Row], list[Outcome]]:
    """Every user's merged pull requests in others' repositories, newest first, each marked with its page."""
    from ..forges.base import MissingError, NeedsTokenError
    from ..forges.http import ForgeError
    from ..forges.schema import ShapeError

    written = {}
    for page in site_pages(root).values():
        try:
            repo, pr = forges.parse_spec(page.options.get("repo", "")), int(page.options.get("pr", "").strip())
        except (ValueError, forges.RepoError):
            continue
        written[repo.lower(), pr] = page.path.relative_to(root).as_posix()
    rows: list[Row] = []
    outcomes = []
    for user in users:
        try:
            found = apis(user.forge).merged_by(user.name)
        except NeedsTokenError as error:
            outcomes.append(Outcome(user, "skipped", f"{user.shown}: not searched: {error}", []))
            continue
        except (ForgeError, ShapeError, MissingError) as error:
            outcomes.append(Outcome(user, "failed", f"{user.shown}: the search failed: {error}", []))
            continue
        count = len(found.found)
        words = f"{count} merged pull request{'s' * (count != 1)} in others' repositories"
        if found.stopped:
            said = f"{user.shown}: stopped after {words}: {found.stopped}; the list is incomplete"
            outcomes.append(Outcome(user, "incomplete", said, found.notes, count))
        else:
            outcomes.append(Outcome(user, "complete", f"{user.shown}: {words}", found.notes, count))
        rows += [Row(user.forge, pull, written.get((pull.repo.lower(), pull.number))) for pull in found.found]
    rows.sort(key=lambda row: (row.pull.repo.lower(), row.pull.number))  # newest_first's order
    return sorted(rows, key=lambda row: row.pull.merged_at or "", reverse=True), outcomes


def run_discover(
    root: Path,
    users: Sequence[User],
    *,
    apis: Apis,
    chosen: Sequence[int] = (),
    as_json: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
    ask: Callable[[str], str] | None = None,
) -> int:
    """List (or print as JSON) the users' merged pull requests, write the drafts of those ``chosen`` (or, with
    ``ask``, a terminal's ``input``, of those the user then names); the exit status: 0 when every search read
    to its end, 1 when one failed, stopped or none could be made."""
    out, err = out or sys.stdout, err or sys.stderr
    if os.environ.get("CONTRIBUTIONS_OFFLINE"):
        raise CommandError(
            f"{PROG} discover: offline (CONTRIBUTIONS_OFFLINE is set): discover asks the forges' search APIs; "
            "run it with a network"
        )
    rows, outcomes = search(root, users, apis)
    for n in chosen:
        if not 1 <= n <= len(rows):
            raise UsageError(
                f"{PROG} discover: --new {n}: the list has {'no pull requests' if not rows else f'1 to {len(rows)}'}"
            )
    incomplete = any(outcome.status in ("failed", "incomplete") for outcome in outcomes)
    searched = any(outcome.status != "skipped" for outcome in outcomes)
    if as_json:
        document = {
            "searches": [outcome.as_json() for outcome in outcomes],
            "complete": searched and not incomplete,
            "pull_requests": [row.as_json(i) for i, row in enumerate(rows, start=1)],
        }
        out.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    else:
        for outcome in outcomes:
            print(outcome.said, file=out)
            for note in outcome.notes:
                print(f"  {note}", file=out)
        if rows:
            cells = [
                (str(i), (row.pull.merged_at or "")[:10] or "-", row.url, clip(row.pull.title), row.page or "-")
                for i, row in enumerate(rows, start=1)
            ]
            print("\n" + table(("#", "merged", "pull request", "title", "write-up"), cells), file=out)
        todo = [str(i) for i, row in enumerate(rows, start=1) if row.page is None]
        if todo and not chosen and ask is not None:
            chosen = chosen_in(ask(f"\nWrite drafts of which? ({' '.join(todo)}; Enter: none) "), len(rows))
        elif todo and not chosen:
            print(
                f"\n{len(todo)} without a write-up: '{PROG} discover --new {' '.join(todo)}' writes their drafts",
                file=out,
            )
    status = 1 if incomplete or not searched else 0
    said = err if as_json else out
    for n in chosen:
        row = rows[n - 1]
        if row.page is not None:
            print(f"{n}: {row.url} is written up in {row.page}; no draft written", file=said)
            continue
        try:
            lines = write_draft(root, PullRequest(row.pull.repo, row.pull.number), list(site_pages(root).values()))
        except CommandError as error:
            print(f"{n}: {str(error).removeprefix(f'{PROG} new: ')}", file=said)
            status = 1
            continue
        for line in lines:
            print(f"{n}: {line}", file=said)
    return status


def chosen_in(answer: str, count: int) -> list[int]:
    """The numbers of the list named in a terminal's answer (``2 5``, ``2,5``); a word that is none of them
    is said and left out."""
    chosen = []
    for word in answer.replace(",", " ").split():
        if word.isdigit() and 1 <= int(word) <= count:
            chosen.append(int(word))
        else:
            print(f"{PROG} discover: {word!r} is not a number of the list (1 to {count}); left out", file=sys.stderr)
    return list(dict.fromkeys(chosen))


def clip(text: str, width: int = 48) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def command_discover(args: argparse.Namespace) -> int:
    root = site_root(args.root, "discover")
    users = [parse_user(value) for value in args.user or ()] or profile_users(root)
    if not users:
        raise UsageError(
            f"{PROG} discover: whose pull requests? Give --user NAME (GitHub), gitlab.com/NAME or codeberg.org/NAME, "
            f"or list your profiles in conf.py's contributions_profile_links ('{PROG} init --github NAME' writes one)"
        )
    try:
        import httpx  # noqa: F401
    except ImportError as error:
        raise CommandError(f"{PROG} discover needs {error.name}: pip install 'sphinx-contributions[sync]'") from None
    apis = Apis(timeout=args.timeout, retry_wait=args.retry_wait, max_wait=args.max_wait)
    try:
        # in a terminal, without --new or --json: ask which drafts to write once the list is shown
        terminal = sys.stdin.isatty() and sys.stdout.isatty() and not args.new and not args.json
        return run_discover(
            root, users, apis=apis, chosen=args.new or (), as_json=args.json, ask=input if terminal else None
        )
    finally:
        apis.close()


def add_discover_command(commands: Any, root_option: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register ``contributions discover`` with the CLI's subcommands."""
    discover = commands.add_parser(
        "discover",
        help="list your merged pull requests in others' repositories, and start write-ups of them",
        description=(
            "List the pull requests (merge requests) a user wrote that were merged into repositories the user does "
            "not own, newest first: on GitHub through its search API, on gitlab.com through its merge requests "
            "API (it needs GITLAB_TOKEN), on Codeberg through its issue search (it needs CODEBERG_TOKEN, the "
            "user's own). Each one already written up is marked with its page. The user: --user, else the "
            "GitHub, GitLab and Codeberg profiles in conf.py's contributions_profile_links. Tokens (GH_TOKEN or "
            "GITHUB_TOKEN, GITLAB_TOKEN, CODEBERG_TOKEN) go only to their own API's address; API addresses: "
            "GITHUB_API_URL, GITLAB_API_URL, CODEBERG_API_URL. Exit status 1 when a search failed or stopped "
            "before its end (offline, a rate limit), or none could be made."
        ),
        epilog=f"examples: {PROG} discover --user ada ; {PROG} discover --new 2 5 ; {PROG} discover --json",
    )
    root_option(discover)
    discover.add_argument(
        "--user",
        action="append",
        metavar="USER",
        help="whose pull requests: NAME (GitHub), gitlab.com/NAME, codeberg.org/NAME or a profile's address; "
        "repeatable (default: the profiles in conf.py)",
    )
    discover.add_argument(
        "--new",
        nargs="+",
        type=int,
        metavar="N",
        help="write a draft of each pull request numbered N in the list, as 'contributions new' does",
    )
    discover.add_argument("--json", action="store_true", help="print the list as JSON")
    discover.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        metavar="SECONDS",
        help=f"for each whole request (default {TIMEOUT:g})",
    )
    discover.add_argument(
        "--max-wait",
        type=float,
        default=MAX_WAIT,
        metavar="SECONDS",
        help=f"the longest rate-limit wait to sit out before stopping a search (default {MAX_WAIT:g})",
    )
    discover.add_argument(
        "--retry-wait",
        type=float,
        default=RETRY_WAIT,
        metavar="SECONDS",
        help=f"the first wait before a retry, doubled for each next one (default {RETRY_WAIT:g})",
    )
    discover.set_defaults(handler=command_discover)
