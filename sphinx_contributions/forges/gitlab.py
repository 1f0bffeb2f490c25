"""GitLab (gitlab.com, or another instance's API through ``GITLAB_API_URL``): addresses and the REST API v4.

A repository is ``group/subgroup/…/name``; its merge requests and issues live below ``/-/``."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from .base import Forge, ForgeAPI, IssueFacts, PullFacts, Release, closing_issues

SEGMENT = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}"
_STATES = {"opened": "open", "locked": "open", "closed": "closed", "merged": "merged"}


class GitLabAPI(ForgeAPI):
    """``/projects/{id}/merge_requests/{iid}``, ``/issues/{iid}``, ``/releases`` and
    ``/repository/compare`` (GitLab's REST API v4; ``id`` is the URL-encoded path)."""

    def _project(self, path: str) -> str:
        return f"{self.base}/projects/{quote(path, safe='')}"

    def fetch_pull(self, path: str, number: int, etags: dict[str, str]) -> PullFacts:
        data = self.session.json(f"{self._project(path)}/merge_requests/{number}", etags=etags)
        state = _STATES.get(str(data["state"]), str(data["state"]))
        changes = str(data.get("changes_count") or "")
        return PullFacts(
            number=number,
            title=str(data["title"]),
            state=state,
            merged_at=data.get("merged_at") if state == "merged" else None,
            merge_commit=(data.get("merge_commit_sha") or data.get("squash_commit_sha") or data.get("sha"))
            if state == "merged"
            else None,
            additions=None,  # GitLab gives the count of changed files only
            deletions=None,
            issues=closing_issues(str(data.get("description") or "")),
            changed_files=int(changes) if changes.isdigit() else None,
        )

    def fetch_issue(self, path: str, number: int, etags: dict[str, str]) -> IssueFacts:
        data = self.session.json(f"{self._project(path)}/issues/{number}", etags=etags)
        return IssueFacts(number, str(data["title"]), _STATES.get(str(data["state"]), str(data["state"])))

    def releases(self, path: str, etags: dict[str, str]) -> list[Release]:
        found = [
            Release(str(item["tag_name"]), str(item["released_at"]))
            for page in self.session.pages(f"{self._project(path)}/releases", params={"per_page": "100"}, etags=etags)
            for item in page
            if not item.get("upcoming_release") and item.get("released_at")
        ]
        return sorted(found, key=lambda release: datetime.fromisoformat(release.published_at))

    def contains(self, path: str, tag: str, sha: str) -> bool:
        # the commits reachable from ``sha`` and not from ``tag``: none when the tag contains it
        data = self.session.json(f"{self._project(path)}/repository/compare", params={"from": tag, "to": sha})
        return not data.get("commits")


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
