"""The one interface of a forge (:class:`Forge`) and the facts its API gives (:class:`PullFacts`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .http import Session


#: the closing keywords of GitHub, GitLab and Gitea: "Fixes #12" in a description links issue 12
_CLOSES = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#([1-9][0-9]{0,9})\b", re.IGNORECASE)


def closing_issues(description: str) -> tuple[int, ...]:
    """The issues of its own repository a pull request's description closes (``Fixes #12``), in order, once
    each."""
    return tuple(dict.fromkeys(int(number) for number in _CLOSES.findall(description)))


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
    times are ISO 8601 in UTC as the forge gives them."""

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


@dataclass(frozen=True)
class Release:
    tag: str
    published_at: str


class UnchangedError(Exception):
    """A conditional request answered 304 Not Modified: what was stored still holds."""


class MissingError(Exception):
    """A 404: the pull request, issue or repository is gone, or private without a token."""


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

    def api(self, session: Session, base: str | None = None) -> ForgeAPI:
        """The API client, talking through ``session`` to ``base`` (default: the address in
        :attr:`api_url_env`, else :attr:`api_default`)."""
        return self.api_class(session, base or os.environ.get(self.api_url_env) or self.api_default)

    def token_header(self) -> tuple[str, str] | None:
        """The header that carries the token from the first of :attr:`token_env` that is set, or None
        (the anonymous limit)."""
        token = next((os.environ[name] for name in self.token_env if os.environ.get(name)), None)
        if token is None:
            return None
        name, _, value = self.auth_header.partition(": ")
        return name, value.format(token=token)


class ForgeAPI:
    """The REST calls ``contributions sync`` makes, the same for every forge. ``etags`` maps an API path
    to the ETag of its last answer: asked conditionally, an unchanged answer raises :class:`UnchangedError`."""

    def __init__(self, session: Session, base: str) -> None:
        self.session = session
        self.base = base.rstrip("/")
        session.api_base = self.base

    def fetch_pull(self, path: str, number: int, etags: dict[str, str]) -> PullFacts:
        raise NotImplementedError

    def fetch_issue(self, path: str, number: int, etags: dict[str, str]) -> IssueFacts:
        raise NotImplementedError

    def releases(self, path: str, etags: dict[str, str]) -> list[Release]:
        """Every published release (no drafts or pre-releases), oldest first; :class:`UnchangedError` when the
        first page has not changed since ``etags`` was stored."""
        raise NotImplementedError

    def contains(self, path: str, tag: str, sha: str) -> bool:
        """Whether release ``tag`` contains commit ``sha`` (one compare call)."""
        raise NotImplementedError

    def merged_by(self, user: str) -> list[tuple[str, int, str]]:
        """The pull requests ``user`` wrote that were merged into other owners' repositories: (spec, number,
        title), newest first. Only GitHub's API answers this; other forges keep this default."""
        raise NotImplementedError("--discover reads GitHub only")
