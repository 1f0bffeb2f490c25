"""GitLab (gitlab.com, or another instance's API through ``GITLAB_API_URL``): addresses and the REST API v4.

A repository is ``group/subgroup/…/name``; its merge requests and issues live below ``/-/``."""

from __future__ import annotations

from urllib.parse import quote

from .base import Forge, ForgeAPI, IssueFacts, PullFacts, Release, closing_issues
from .schema import Answer, items

SEGMENT = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}"
_STATES = {"opened": "open", "locked": "open", "closed": "closed", "merged": "merged"}


class GitLabAPI(ForgeAPI):
    """``/projects/{id}/merge_requests/{iid}``, ``/issues/{iid}``, ``/releases`` and
    ``/repository/compare`` (GitLab's REST API v4; ``id`` is the URL-encoded path)."""

    def _project(self, path: str) -> str:
        return f"{self.base}/projects/{quote(path, safe='')}"

    def fetch_pull(self, path: str, number: int) -> PullFacts:
        url = f"{self._project(path)}/merge_requests/{number}"
        data = Answer(self.session.json(url), url)
        state = _STATES[data.choice("state", tuple(_STATES))]
        changes = data.text_or_none("changes_count") or ""  # a string: "3", or "1000+"
        merged = state == "merged"
        commit = None
        if merged:
            commit = (
                data.sha_or_none("merge_commit_sha") or data.sha_or_none("squash_commit_sha") or data.sha_or_none("sha")
            )
        references = data.child("references")
        full = references.text_or_none("full") if references else None
        return PullFacts(
            number=number,
            title=data.text("title"),
            state=state,
            merged_at=data.time_or_none("merged_at") if merged else None,
            merge_commit=commit,
            additions=None,  # GitLab gives the count of changed files only
            deletions=None,
            issues=closing_issues(data.text_or_none("description") or ""),
            changed_files=int(changes) if changes.isdigit() else None,
            repository=full.rpartition("!")[0] if full and "!" in full else None,
            base_branch=data.text_or_none("target_branch"),
        )

    def fetch_issue(self, path: str, number: int) -> IssueFacts:
        url = f"{self._project(path)}/issues/{number}"
        data = Answer(self.session.json(url), url)
        return IssueFacts(number, data.text("title"), _STATES[data.choice("state", ("opened", "closed", "locked"))])

    def _fetch_releases(self, path: str) -> list[Release]:
        url = f"{self._project(path)}/releases"
        found = []
        for item in items(self.session.pages(url, params={"per_page": "100"}), url):
            released = item.time_or_none("released_at")
            if released and not item.flag("upcoming_release"):
                found.append(Release(item.text("tag_name"), released))
        return found

    def _compare(self, path: str, tag: str, sha: str) -> bool:
        # the commits reachable from ``sha`` and not from ``tag``: none when the tag contains it
        url = f"{self._project(path)}/repository/compare"
        data = Answer(self.session.json(url, params={"from": tag, "to": sha}, conditional=False), url)
        commits = data.data.get("commits")
        if not isinstance(commits, list):
            items(commits, f"{url} commits")  # raises: the field's shape
        return not commits


GITLAB = Forge(
    name="gitlab",
    label="GitLab",
    host="gitlab.com",
    path_pattern=rf"{SEGMENT}(?:/{SEGMENT}){{1,20}}",
    pull_path="/-/merge_requests/{n}",
    issue_path="/-/issues/{n}",
    commit_path="/-/commit/{n}",
    api_url_env="GITLAB_API_URL",
    token_env=("GITLAB_TOKEN",),
    api_default="https://gitlab.com/api/v4",
    auth_header="PRIVATE-TOKEN: {token}",
    api_class=GitLabAPI,
)
