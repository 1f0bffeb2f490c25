"""``contributions new <PR URL or owner/repo#N>``: writes ``contributions/<repo>-<N>.md``, a draft with the
header filled in (from the forge's facts where they answer: :func:`.sync.scaffold_from_forge`) and a prompt (a
MyST comment) in each section; ``contributions discover --new`` writes its drafts the same way
(:func:`write_draft`)."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import forges
from ..collect.drafts import SourcePage
from ..keys import key_lookup, label, make_key
from ..options import OptionError, parse_positive_int, parse_repo
from .common import PROG, CommandError, UsageError, shown, site_pages, site_root

if TYPE_CHECKING:
    from collections.abc import Iterable

ACCEPTED_FORMS = (
    "a pull request's address (https://github.com/OWNER/REPO/pull/NUMBER, "
    "https://gitlab.com/GROUP/NAME/-/merge_requests/NUMBER, https://codeberg.org/OWNER/REPO/pulls/NUMBER) "
    "or REPO#NUMBER (OWNER/REPO, gitlab.com/GROUP/NAME, codeberg.org/OWNER/REPO)"
)

SCAFFOLD = """\
# TODO: the title of {key}

:::{{contribution}}
:repo: {repo}
:pr: {pr}
:status: draft
:summary: TODO: one sentence: what this pull request changed, and for whom.
:::

% More header options: :issue: 123 (or 123, 456), :tags: tag one, tag two, :project: Display name
% and :date: YYYY-MM-DD. When the page is ready, set :status: to merged, open or closed (or remove it).

:::{{problem}}
% What was wrong, for whom, and how did it show? Replace these comment lines with the write-up.
:::

:::{{root-cause}}
% Why did it happen? Name the change that introduced it, e.g. {{pr}}`#123` (this repository).
:::

:::{{fix}}
% What did the pull request change, and why this way rather than another?
:::

::::{{verification}}
% How do you know it works: tests added, measurements, parity checks. A before/after figure
% (uncomment it, and keep the four-colon fence around this section):
%
% :::{{metric}} What was measured
% :before: 1.03e-1
% :after: 1.91e-6
% :unit: ms
% :better: lower
% :::
::::
"""


@dataclass(frozen=True)
class PullRequest:
    repo: str
    number: int

    @property
    def key(self) -> str:
        return make_key(self.repo, self.number)

    @property
    def filename(self) -> str:
        name = re.sub(r"[^a-z0-9._-]+", "-", self.repo.rpartition("/")[2].lower()).strip(".-") or "repo"
        return f"{name}-{self.number}.md"

    @property
    def qualified_key(self) -> str:
        """The key for a page beside another owner's repository of the same name: the owner, ``-``, the
        name (``ROCm/sglang#1`` → ``ROCm-sglang#1``; ``gitlab.com/group/sub/name`` → ``group-sub-name``)."""
        owner, _, name = forges.split_spec(self.repo)[1].rpartition("/")
        qualified = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{owner}-{name}").strip(".-_")
        return f"{qualified}#{self.number}"

    @property
    def qualified_filename(self) -> str:
        return f"{label(self.qualified_key)}.md"


#: the facts ``new`` fills in from the forge, named when it could not
BY_HAND = "the title, :status: (merged, open or closed), :date: (the day it merged) and :issue: (the issues it closes)"


def not_asked(repo: str) -> str:
    """Why ``new`` has no facts of the forge (the forge's answer was nothing)."""
    import importlib.util
    import os

    label = forges.forge_of(repo).label
    if os.environ.get("CONTRIBUTIONS_OFFLINE"):
        return f"{label} was not asked (CONTRIBUTIONS_OFFLINE is set)"
    if importlib.util.find_spec("httpx") is None:
        return f"{label} was not asked (that needs httpx: pip install 'sphinx-contributions[sync]')"
    return f"{label} did not answer"


def parse_pull_request(text: str) -> PullRequest:
    """A pull (merge) request's address on GitHub, GitLab or Codeberg (any tab of it), or ``REPO#N``."""
    text = text.strip()
    found = forges.parse_pull_url(text)
    short = forges.parse_short(text) if found is None else (found[0], str(found[1]))
    if short is None and (other := forges.other_forge(text)):  # before: "is not a pull request"
        raise UsageError(
            f"{PROG} new: {text!r} is {other}; the extension knows pull requests on GitHub, gitlab.com and "
            "Codeberg only (a write-up's :repo: is a repository there)"
        )
    if short is None and (wrong := forges.misspelt_pull(text)):
        raise UsageError(f"{PROG} new: {text!r} is not a pull request's address: {wrong}")
    if short is None:
        raise UsageError(f"{PROG} new: {text!r} is not a pull request; give {ACCEPTED_FORMS}")
    try:
        repo = parse_repo(short[0])
        number = parse_positive_int(short[1], "pull request number")
    except OptionError as error:
        raise UsageError(f"{PROG} new: {text!r} is not a pull request ({error}); give {ACCEPTED_FORMS}") from None
    return PullRequest(repo, number)


def _same_repo(page: SourcePage, repo: str) -> bool:
    try:
        return parse_repo(page.options.get("repo", "")).lower() == repo.lower()
    except OptionError:
        return False


def holder_of(key: str, pages: Iterable[SourcePage]) -> str:
    """The repository and page that hold ``key``: ``sgl-project/sglang, contributions/sglang-1.md``."""
    page = next(page for page in pages if key_lookup(page.key) == key_lookup(key))
    return f"{page.options.get('repo', '').strip()} ({shown(page.path)})"


def command_new(args: argparse.Namespace) -> int:
    pull = parse_pull_request(args.pr)
    root = site_root(args.root, "new")
    for line in write_draft(root, pull, list(site_pages(root).values())):
        print(line)
    return 0


def write_draft(root: Path, pull: PullRequest, pages: list[SourcePage]) -> list[str]:
    """Write the draft of ``pull`` (``contributions new``, ``contributions discover --new``); the lines that
    say so. The page ``contributions/<repo>-<N>.md``, key ``<repo>#<N>``; when a page of another owner's
    repository of that name holds that key (``sgl-project/sglang#1`` beside ``ROCm/sglang#1``), the
    owner-qualified ``contributions/<owner>-<repo>-<N>.md`` with ``:key: <owner>-<repo>#<N>``."""
    key, filename = pull.key, pull.filename
    holder = next((page for page in pages if key_lookup(page.key) == key_lookup(key)), None)
    if holder is not None and not _same_repo(holder, pull.repo):  # one name, another owner: a key of its own
        key, filename = pull.qualified_key, pull.qualified_filename
        holder = next((page for page in pages if key_lookup(page.key) == key_lookup(key)), None)
    path = root / "contributions" / filename
    if path.exists():
        raise CommandError(f"{PROG} new: {shown(path)} already exists; not overwritten")
    if holder is not None:
        raise CommandError(f"{PROG} new: {holder.key} already has a page, {shown(holder.path)}; not written")
    from .sync import scaffold_from_forge  # the forge's facts, from the lock or the API, when it answers

    scaffold = SCAFFOLD.format(key=key, repo=pull.repo, pr=pull.number)
    if key != pull.key:
        scaffold = scaffold.replace(f":pr: {pull.number}\n", f":pr: {pull.number}\n:key: {key}\n", 1)
    text, filled = scaffold_from_forge(root, pull.repo, pull.number, scaffold)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as stream:
        stream.write(text)
    check = PROG + " check" + ("" if root == Path.cwd().resolve() else f" --root {shown(root)}")
    said = [f"wrote {shown(path)}: a draft of {key}, left out of the published site"]
    if key != pull.key:
        said.append(f"its key is {key} (':key:'): {pull.key} is {holder_of(pull.key, pages)}'s")
    said.append(filled or f"{not_asked(pull.repo)}: fill in by hand {BY_HAND}")
    said.append(f"next: write its title, summary and sections (preview: {PROG} serve), then run: {check}")
    return said
