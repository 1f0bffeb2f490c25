"""GitHub (and GitHub Enterprise, through ``GITHUB_API_URL``): addresses and the REST API v3."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from .base import Forge, ForgeAPI, IssueFacts, PullFacts, Release, closing_issues

OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?"
NAME = r"[A-Za-z0-9_.-]{1,100}"


def _time(value: str) -> datetime:
    return datetime.fromisoformat(value)


class GitHubAPI(ForgeAPI):
    """``/repos/{owner}/{repo}/pulls/{n}``, ``/issues/{n}``, ``/releases``, ``/compare/{base}...{head}``
    and ``/search/issues`` (GitHub's REST API)."""

    def fetch_pull(self, path: str, number: int, etags: dict[str, str]) -> PullFacts:
        data = self.session.json(f"{self.base}/repos/{path}/pulls/{number}", etags=etags)
        merged = bool(data.get("merged_at"))
        return PullFacts(
            number=number,
            title=str(data["title"]),
            state="merged" if merged else str(data["state"]),
            merged_at=data.get("merged_at"),
            merge_commit=data.get("merge_commit_sha") if merged else None,
            additions=data.get("additions"),
            deletions=data.get("deletions"),
            changed_files=data.get("changed_files"),
            issues=closing_issues(str(data.get("body") or "")),
        )

    def fetch_issue(self, path: str, number: int, etags: dict[str, str]) -> IssueFacts:
        data = self.session.json(f"{self.base}/repos/{path}/issues/{number}", etags=etags)
        return IssueFacts(number, str(data["title"]), str(data["state"]))

    def releases(self, path: str, etags: dict[str, str]) -> list[Release]:
        found = [
            Release(str(item["tag_name"]), str(item["published_at"]))
            for page in self.session.pages(
                f"{self.base}/repos/{path}/releases", params={"per_page": "100"}, etags=etags
            )
            for item in page
            if not item.get("draft") and not item.get("prerelease") and item.get("published_at")
        ]
        return sorted(found, key=lambda release: _time(release.published_at))

    def contains(self, path: str, tag: str, sha: str) -> bool:
        data = self.session.json(f"{self.base}/repos/{path}/compare/{sha}...{quote(tag, safe='')}")
        return data.get("status") in ("ahead", "identical")

    def merged_by(self, user: str) -> list[tuple[str, int, str]]:
        query = {"q": f"is:pr is:merged author:{user} -user:{user}", "per_page": "100", "sort": "updated"}
        found = []
        for page in self.session.pages(f"{self.base}/search/issues", params=query):
            for item in page.get("items", []):
                repo = str(item["repository_url"]).split("/repos/", 1)[1]
                found.append((repo, int(item["number"]), str(item["title"])))
        return found


GITHUB = Forge(
    name="github",
    label="GitHub",
    host="github.com",
    path_pattern=rf"{OWNER}/{NAME}",
    pull_path="/pull/{n}",
    issue_path="/issues/{n}",
    commit_path="/commit/{n}",
    api_url_env="GITHUB_API_URL",
    token_env=("GITHUB_TOKEN", "GH_TOKEN"),
    api_default="https://api.github.com",
    auth_header="Authorization: Bearer {token}",
    api_class=GitHubAPI,
)
