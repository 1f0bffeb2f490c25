"""The one interface of a forge (:class:`Forge`) and the facts its API gives (:class:`PullFacts`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .schema import Answer, items

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

#: the closing keywords of GitHub, GitLab and Gitea: "Fixes #12" in a description links issue 12
_CLOSES = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#([1-9][0-9]{0,9})\b", re.IGNORECASE)


def closing_issues(description: str) -> tuple[int, ...]:
    """The issues of its own repository a pull request's description closes (``Fixes #12``), in order, once
    each."""
    return tuple(dict.fromkeys(int(number) for number in _CLOSES.findall(description)))


@dataclass(frozen=True)
class Credentials:
    """A token as its header (``Authorization: Bearer …``, GitLab's ``PRIVATE-TOKEN``), and the environment
    variable it came from (named in messages; the value never is)."""

    header: str
    value: str
    env: str

    def __repr__(self) -> str:  # never the token, even in a traceback's locals
        return f"Credentials(header={self.header!r}, env={self.env!r})"


class Session(Protocol):
    """What an API client needs of its HTTP session (:class:`.http.Session` is the one; this module does not
    import it, so that the session may import this one)."""

    headers: dict[str, str]
    credentials: Credentials | None

    def set_base(self, base: str, env: str = "") -> None: ...

    def json(self, url: str, *, params: dict[str, str] | None = None, conditional: bool = True) -> Any: ...

    def pages(
        self, url: str, *, params: dict[str, str] | None = None, conditional: bool = True, field: str | None = None
    ) -> list[Any]: ...

    def walk(self, url: str, *, params: dict[str, str] | None = None) -> Iterator[tuple[Any, Any]]: ...


class RepoError(ValueError):
    """A repository spec or address that no forge accepts; the message is shown as is."""


@dataclass(frozen=True)
class IssueFacts:
    number: int
    title: str
    state: str  # "open" or "closed"


@dataclass(frozen=True)
class PullFacts:
    """What a forge says about one pull (merge) request. ``state`` is ``merged``, ``open`` or ``closed``;
    times are ISO 8601 in UTC (``YYYY-MM-DDTHH:MM:SSZ``, whatever offset the forge gave)."""

    number: int
    title: str
    state: str
    merged_at: str | None
    merge_commit: str | None
    additions: int | None
    deletions: int | None
    changed_files: int | None
    #: the issues its description closes (``Fixes #12``)
    issues: tuple[int, ...] = ()
    #: the repository's path as the forge now names it (a renamed repository), when the answer says
    repository: str | None = None
    #: the branch it was merged (or asks to be merged) into, and the repository's default branch
    base_branch: str | None = None
    default_branch: str | None = None
    #: when it was opened (UTC), and its commits, where the pull request's own answer says
    opened_at: str | None = None
    commits: int | None = None
    #: ``changed_files`` is a lower bound (GitLab's ``changes_count`` of ``"1000+"``)
    files_at_least: bool = False


@dataclass(frozen=True)
class Made:
    """How a pull request was made, from the forge's lists beside the pull request itself (each None where
    the forge does not say): the paths of its changed files as the forge lists them (GitHub lists at most
    3,000), its commits, its approving reviewers, the issues the forge says it closes."""

    files: tuple[str, ...] | None = None
    commits: int | None = None
    approvals: int | None = None
    closes: tuple[int, ...] | None = None


def approvals(reviews: list[tuple[str, str]]) -> int:
    """How many reviewers approve, from (reviewer, state) in the order given: each reviewer's last
    ``APPROVED``, ``CHANGES_REQUESTED`` or ``DISMISSED`` counts (a comment changes nothing), as GitHub's and
    Gitea's review lists give them."""
    last: dict[str, str] = {}
    for user, state in reviews:
        if state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED", "REQUEST_CHANGES"):
            last[user] = state
    return sum(state == "APPROVED" for state in last.values())


@dataclass(frozen=True)
class Release:
    tag: str
    #: UTC, ``YYYY-MM-DDTHH:MM:SSZ``
    published_at: str
    prerelease: bool = False


@dataclass(frozen=True)
class MergedPull:
    """A merged pull (merge) request a forge's search found: its repository's spec, number, title and when
    it was merged (UTC; None where the answer does not say)."""

    repo: str
    number: int
    title: str
    merged_at: str | None


@dataclass
class Search:
    """What one forge's search of a user's merged pull requests found; ``notes``: what the reader must know
    of how complete it is (a cap, results the forge says are incomplete); ``stopped``: why it stopped before
    the end (a rate limit), None when it read every page."""

    found: list[MergedPull]
    notes: list[str]
    stopped: str | None = None


def newest_first(found: Iterable[MergedPull]) -> list[MergedPull]:
    """Merged pull requests, the newest merge first (an unknown time last), then by repository and number."""
    ordered = sorted(found, key=lambda pull: (pull.repo.lower(), pull.number))
    return sorted(ordered, key=lambda pull: pull.merged_at or "", reverse=True)


class NeedsTokenError(Exception):
    """A search the forge answers only with a token (GitLab's merge requests across projects, Gitea's
    search by author): the message says which variable to set."""


class MissingError(Exception):
    """A 404: the pull request, issue or repository is gone, or private without a token; the message is
    the address and the API's own words."""


@dataclass(frozen=True)
class Forge:
    """A forge: its name and web host, how its repository paths look, its web addresses, how to read its
    pull request addresses back, and its API (:meth:`api`). Each forge's module makes one."""

    name: str
    #: the forge's name as written (GitHub, GitLab, Codeberg)
    label: str
    host: str
    #: the path of a repository, as a regular expression (``owner/name``; GitLab: ``group/…/name``)
    path_pattern: str
    #: the pull (merge) request page below the repository's address, ``{n}`` the number
    pull_path: str
    issue_path: str
    commit_path: str
    #: the environment variables of the API's address and of a token, and the API's default address
    api_url_env: str
    token_env: tuple[str, ...]
    api_default: str
    #: the token's header, ``{token}`` the token
    auth_header: str

    def valid_path(self, path: str) -> bool:
        parts = path.split("/")
        return re.fullmatch(self.path_pattern, path) is not None and not {".", ".."} & set(parts)

    def spec(self, path: str) -> str:
        """How ``:repo:`` writes a repository of this forge."""
        return path if self.name == "github" else f"{self.host}/{path}"

    def repo_url(self, path: str) -> str:
        return f"https://{self.host}/{path}"

    def pull_url(self, path: str, number: int) -> str:
        return self.repo_url(path) + self.pull_path.format(n=number)

    def issue_url(self, path: str, number: int) -> str:
        return self.repo_url(path) + self.issue_path.format(n=number)

    def commit_url(self, path: str, sha: str) -> str:
        return self.repo_url(path) + self.commit_path.format(n=sha)

    def parse_pull_url(self, text: str) -> tuple[str, int] | None:
        """This forge's pull request address (any tab of it, with or without ``https://``) → (spec, N)."""
        tail = re.escape(self.pull_path).replace(r"\{n\}", "(?P<number>[0-9]+)")
        pattern = (
            rf"^(?:https?://)?(?:www\.)?{re.escape(self.host)}/(?P<path>{self.path_pattern}){tail}"
            r"(?:/[^\s?#]*)?(?:[?#]\S*)?$"
        )
        match = re.match(pattern, text, re.IGNORECASE)
        if match is None or not self.valid_path(match["path"]):
            return None
        return self.spec(match["path"]), int(match["number"])

    #: the API client of this forge (a :class:`ForgeAPI`)
    api_class: type[ForgeAPI]

    #: headers of every API request (GitHub: its media type and a pinned API version)
    api_headers: tuple[tuple[str, str], ...] = (("Accept", "application/json"),)
    #: the tabs of a pull request's page below its address: its changed files, its commits
    files_tab: str = "/files"
    commits_tab: str = "/commits"

    def api(self, session: Session, base: str | None = None) -> ForgeAPI:
        """The API client, talking through ``session`` to ``base`` (default: the address in
        :attr:`api_url_env`, else :attr:`api_default`). Raises :class:`~.http.InsecureError` when a token
        would go over plain http to a host that is not loopback."""
        from_env = os.environ.get(self.api_url_env)
        where = "given" if base else (self.api_url_env if from_env else "the default")
        session.headers.update(dict(self.api_headers))
        return self.api_class(session, base or from_env or self.api_default, where)

    def credentials(self) -> Credentials | None:
        """The token from the first of :attr:`token_env` that is set, as its header, or None (the anonymous
        limit)."""
        env = next((name for name in self.token_env if os.environ.get(name, "").strip()), None)
        if env is None:
            return None
        name, _, value = self.auth_header.partition(": ")
        return Credentials(name, value.format(token=os.environ[env].strip()), env)


class ForgeAPI:
    """The REST calls ``contributions sync`` makes, the same for every forge. Each answer is checked
    (:mod:`.schema`) before a fact is taken from it; the session asks conditionally and answers a 304 from
    its cache. A repository's releases are fetched once per run, and each compare asked once."""

    def __init__(self, session: Session, base: str, where: str = "given") -> None:
        self.session = session
        self.base = base.rstrip("/")
        session.set_base(self.base, where)
        self._releases: dict[str, list[Release]] = {}
        self._compared: dict[tuple[str, str, str], bool] = {}

    def fetch_pull(self, path: str, number: int) -> PullFacts:
        raise NotImplementedError

    def fetch_issue(self, path: str, number: int) -> IssueFacts:
        raise NotImplementedError

    def fetch_made(self, path: str, number: int) -> Made:
        """How the pull request was made (:class:`Made`): one list call per fact, each left out (None) where
        the forge answers 404 (a list an older server does not have)."""
        raise NotImplementedError

    def _listed(self, url: str, params: dict[str, str]) -> list[Answer] | None:
        """The objects of a list (every page), or None where the forge answers 404."""
        try:
            return items(self.session.pages(url, params=params), url)
        except MissingError:
            return None

    def branch_now(self, path: str, branch: str) -> str | None:
        """The name ``branch`` of ``path`` goes by now (a renamed branch: its new name), or None where the
        forge does not say (the branch is gone, or this forge has no such answer)."""
        return None

    def releases(self, path: str) -> list[Release]:
        """Every published release (no drafts; pre-releases marked), oldest first, once per run."""
        if path not in self._releases:
            found = self._fetch_releases(path)
            self._releases[path] = sorted(found, key=lambda release: (release.published_at, release.tag))
        return self._releases[path]

    def _fetch_releases(self, path: str) -> list[Release]:
        raise NotImplementedError

    def contains(self, path: str, tag: str, sha: str) -> bool:
        """Whether release ``tag`` contains commit ``sha`` (one compare call, once per run)."""
        if (path, tag, sha) not in self._compared:
            self._compared[path, tag, sha] = self._compare(path, tag, sha)
        return self._compared[path, tag, sha]

    def _compare(self, path: str, tag: str, sha: str) -> bool:
        raise NotImplementedError

    def merged_by(self, user: str) -> Search:
        """The pull requests ``user`` wrote that were merged into repositories ``user`` does not own, newest
        first (:class:`Search`)."""
        raise NotImplementedError
