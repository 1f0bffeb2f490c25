"""Codeberg (Forgejo, Gitea's API): addresses and the REST API v1 (``CODEBERG_API_URL`` for another
instance's)."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from .base import Forge, ForgeAPI, IssueFacts, PullFacts, Release, closing_issues

NAME = r"[A-Za-z0-9_.-]{1,100}"


class CodebergAPI(ForgeAPI):
    """``/repos/{owner}/{repo}/pulls/{n}``, ``/issues/{n}``, ``/releases`` and ``/compare/{base}...{head}``
    (Gitea's and Forgejo's API)."""

    def fetch_pull(self, path: str, number: int, etags: dict[str, str]) -> PullFacts:
        data = self.session.json(f"{self.base}/repos/{path}/pulls/{number}", etags=etags)
        merged = bool(data.get("merged"))
        return PullFacts(
            number=number,
            title=str(data["title"]),
            state="merged" if merged else str(data["state"]),
            merged_at=data.get("merged_at") if merged else None,
            merge_commit=data.get("merge_commit_sha") if merged else None,
            additions=data.get("additions"),
            deletions=data.get("deletions"),
            issues=closing_issues(str(data.get("body") or "")),
            changed_files=data.get("changed_files"),
        )

    def fetch_issue(self, path: str, number: int, etags: dict[str, str]) -> IssueFacts:
        data = self.session.json(f"{self.base}/repos/{path}/issues/{number}", etags=etags)
        return IssueFacts(number, str(data["title"]), str(data["state"]))

    def releases(self, path: str, etags: dict[str, str]) -> list[Release]:
        found = [
            Release(str(item["tag_name"]), str(item["published_at"]))
            for page in self.session.pages(f"{self.base}/repos/{path}/releases", params={"limit": "50"}, etags=etags)
            for item in page
            if not item.get("draft") and not item.get("prerelease") and item.get("published_at")
        ]
        return sorted(found, key=lambda release: datetime.fromisoformat(release.published_at))

    def contains(self, path: str, tag: str, sha: str) -> bool:
        # the commits of ``sha`` that ``tag`` lacks: none when the tag contains it
        data = self.session.json(f"{self.base}/repos/{path}/compare/{quote(tag, safe='')}...{sha}")
        return not data.get("total_commits") and not data.get("commits")


CODEBERG = Forge(
    name="codeberg",
    label="Codeberg",
    host="codeberg.org",
    path_pattern=rf"{NAME}/{NAME}",
    pull_path="/pulls/{n}",
    issue_path="/issues/{n}",
    commit_path="/commit/{n}",
    api_url_env="CODEBERG_API_URL",
    token_env=("CODEBERG_TOKEN",),
    api_default="https://codeberg.org/api/v1",
    auth_header="Authorization: token {token}",
    api_class=CodebergAPI,
)
