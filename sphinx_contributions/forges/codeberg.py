"""Codeberg (Forgejo, Gitea's API): addresses and the REST API v1 (``CODEBERG_API_URL`` for another
instance's). Gitea gives times with the server's offset; they are read as UTC (:mod:`.schema`)."""

from __future__ import annotations

from urllib.parse import quote

from .base import Forge, PullFacts, closing_issues
from .github import GitHubShapedAPI, repo_facts
from .schema import Answer

NAME = r"[A-Za-z0-9_.-]{1,100}"


class CodebergAPI(GitHubShapedAPI):
    """``/repos/{owner}/{repo}/pulls/{n}`` and ``/compare/{base}...{head}`` (Gitea's and Forgejo's API),
    and the issues and releases of :class:`~.github.GitHubShapedAPI`, paged by ``limit``."""

    page_size = ("limit", "50")

    def fetch_pull(self, path: str, number: int) -> PullFacts:
        url = f"{self.base}/repos/{path}/pulls/{number}"
        data = Answer(self.session.json(url), url)
        merged = data.flag("merged")
        repository, base_branch, default_branch = repo_facts(data)
        return PullFacts(
            number=number,
            title=data.text("title"),
            state="merged" if merged else data.choice("state", ("open", "closed")),
            merged_at=data.time_or_none("merged_at") if merged else None,
            merge_commit=data.sha_or_none("merge_commit_sha") if merged else None,
            additions=data.integer_or_none("additions"),
            deletions=data.integer_or_none("deletions"),
            issues=closing_issues(data.text_or_none("body") or ""),
            changed_files=data.integer_or_none("changed_files"),
            repository=repository,
            base_branch=base_branch,
            default_branch=default_branch,
        )

    def _compare(self, path: str, tag: str, sha: str) -> bool:
        # the commits of ``sha`` that ``tag`` lacks: none when the tag contains it
        url = f"{self.base}/repos/{path}/compare/{quote(tag, safe='')}...{sha}"
        data = Answer(self.session.json(url, conditional=False), url)
        total = data.integer_or_none("total_commits")
        commits = data.data.get("commits")
        return not total and not commits


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
