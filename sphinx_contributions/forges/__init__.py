"""The forges a write-up's repository lives on: GitHub, GitLab and Codeberg, one small module each behind
one interface (:class:`Forge`).

A repository is written as ``:repo:`` takes it (its *spec*): ``owner/name`` on GitHub,
``gitlab.com/group/subgroup/name`` on GitLab, ``codeberg.org/owner/name`` on Codeberg. This package turns
a spec into its forge and path and gives the web addresses of the repository, its pull (merge) requests,
issues and commits, and reads those addresses back (``contributions new URL``). The API clients, used
only by ``contributions sync``, are in each forge's module too; they take an injected HTTP session
(:mod:`.http`), so that the build never imports an HTTP client.
"""

from __future__ import annotations

import re

from .base import Forge, PullFacts, Release, RepoError
from .codeberg import CODEBERG
from .github import GITHUB
from .gitlab import GITLAB

__all__ = [
    "FORGES",
    "GITHUB",
    "SPEC_PATTERN",
    "Forge",
    "PullFacts",
    "Release",
    "RepoError",
    "commit_url",
    "forge_of",
    "issue_url",
    "parse_pull_url",
    "parse_spec",
    "pr_url",
    "repo_url",
]

#: every forge, GitHub first (a spec without a host is GitHub's)
FORGES: tuple[Forge, ...] = (GITHUB, GITLAB, CODEBERG)

#: the forms of ``:repo:``, for messages
SPEC_FORMS = "'owner/name' (GitHub), 'gitlab.com/group/name' (subgroups too) or 'codeberg.org/owner/name'"

#: a spec, loosely (a regular expression to embed in larger ones; :func:`parse_spec` decides)
SPEC_PATTERN = r"(?:(?:gitlab\.com|codeberg\.org)/)?[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+){1,20}"


def split_spec(spec: str) -> tuple[Forge, str]:
    """``gitlab.com/group/name`` → (GitLab, ``group/name``); ``owner/name`` → (GitHub, ``owner/name``)."""
    host, _, rest = spec.partition("/")
    for forge in FORGES[1:]:
        if host.lower() == forge.host:
            return forge, rest
    return GITHUB, spec


def parse_spec(value: str) -> str:
    """A ``:repo:`` value checked and normalised (the host lowercased); :class:`RepoError` otherwise."""
    value = value.strip()
    forge, path = split_spec(value)
    if not forge.valid_path(path):
        raise RepoError(f"repo must be {SPEC_FORMS}, got {value!r}")
    return forge.spec(path)


def forge_of(spec: str) -> Forge:
    return split_spec(spec)[0]


def repo_url(spec: str) -> str:
    forge, path = split_spec(spec)
    return forge.repo_url(path)


def pr_url(spec: str, number: int) -> str:
    forge, path = split_spec(spec)
    return forge.pull_url(path, number)


def issue_url(spec: str, number: int) -> str:
    forge, path = split_spec(spec)
    return forge.issue_url(path, number)


def commit_url(spec: str, sha: str) -> str:
    forge, path = split_spec(spec)
    return forge.commit_url(path, sha)


def parse_pull_url(text: str) -> tuple[str, int] | None:
    """The web address of a pull (merge) request on any forge → (spec, number); None for another text."""
    text = text.strip()
    for forge in FORGES:
        found = forge.parse_pull_url(text)
        if found is not None:
            return found
    return None


#: the addresses of pull requests on forges the extension does not read, by their path's shape
_OTHER_FORGES = (
    (re.compile(r"^https?://(?:www\.)?bitbucket\.org/[^/]+/[^/]+/pull-requests/[0-9]+"), "a Bitbucket pull request"),
    (re.compile(r"^https?://(?P<host>[^/]+)/.+/-/merge_requests/[0-9]+"), "a merge request of the GitLab at {host}"),
    (
        re.compile(r"^https?://(?P<host>[^/]+)/[^/]+/[^/]+/pulls/[0-9]+"),
        "a pull request of the Gitea or Forgejo at {host}",
    ),
    (
        re.compile(r"^https?://(?P<host>[^/]+)/[^/]+/[^/]+/pull/[0-9]+"),
        "a pull request of the GitHub Enterprise at {host}",
    ),
)


def other_forge(text: str) -> str | None:
    """What a pull request's address on a forge the extension does not read is (``a Bitbucket pull
    request``, ``a merge request of the GitLab at gitlab.example.org``); None for any other text, and for
    an address on GitHub, gitlab.com or Codeberg (:func:`misspelt_pull` says what is wrong with it)."""
    text = text.strip()
    if parse_pull_url(text) is not None or _KNOWN_HOST.match(text):
        return None
    for pattern, said in _OTHER_FORGES:
        if match := pattern.match(text):
            host = str(match.groupdict().get("host", "")).lower().removeprefix("www.")
            # an address on a forge the extension reads that is no pull request of it (a repository path
            # with '..' or '%2F') is not another forge's: no name for it
            return None if host in {forge.host for forge in FORGES} else said.format(**match.groupdict())
    return None


_KNOWN_HOST = re.compile(
    r"^(?:https?://)?(?:www\.)?(?P<host>" + "|".join(re.escape(forge.host) for forge in FORGES) + r")/(?P<rest>.*)$",
    re.IGNORECASE,
)
#: a pull (merge) request's place in an address, however a forge or a hand writes it
_PULL_TAIL = re.compile(
    r"(?P<tail>(?:/-)?/(?:pulls?|merge[_-]requests?|pull-requests|prs?))(?:/(?P<number>[^/?#\s]*))?",
    re.IGNORECASE,
)


def misspelt_pull(text: str) -> str | None:
    """What is wrong with an address on GitHub, gitlab.com or Codeberg that is nearly a pull request's
    (``GitHub writes /pull/NUMBER, not /pulls/NUMBER``; ``'10144l' after /pull/ is not a number``); None
    for any other text."""
    text = text.strip()
    known = _KNOWN_HOST.match(text)
    if known is None or parse_pull_url(text) is not None:
        return None
    forge = next(forge for forge in FORGES if forge.host == known["host"].lower())
    after_repo = known["rest"].split("/", 2)[2:]  # a repository's path has two segments at least
    found = _PULL_TAIL.search("/" + after_repo[0]) if after_repo else None
    if found is None:
        return None
    expected = forge.pull_path.partition("{n}")[0].rstrip("/")
    number = found["number"] or ""
    if found["tail"].lower() != expected:
        shown_number = number if number.isdigit() else "NUMBER"
        return f"{forge.label} writes {expected}/{shown_number}, not {found['tail']}/{shown_number}"
    if not number.isdigit():
        return f"{number!r} after {expected}/ is not a number" if number else f"no number after {expected}/"
    return None


_SHORT = re.compile(rf"^(?P<spec>{SPEC_PATTERN})[#!](?P<number>[0-9]+)$")


def parse_short(text: str) -> tuple[str, str] | None:
    """``owner/name#N``, ``gitlab.com/group/name!N`` (GitLab's way) or ``…#N`` → (spec as written, N as
    written); None for another text."""
    match = _SHORT.match(text.strip())
    return (match["spec"], match["number"]) if match else None
