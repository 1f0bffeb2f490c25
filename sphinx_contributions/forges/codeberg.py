"""Codeberg (Forgejo, Gitea's API): addresses and the REST API v1 (``CODEBERG_API_URL`` for another
instance's). Gitea gives times with the server's offset; they are read as UTC (:mod:`.schema`)."""

from __future__ import annotations

from urllib.parse import quote

from .base import Forge, Made, MergedPull, NeedsTokenError, PullFacts, Search, approvals, closing_issues, newest_first
from .github import GitHubShapedAPI, repo_facts, reviewer
from .schema import Answer, items

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
            opened_at=data.time_or_none("created_at"),
        )

    def fetch_made(self, path: str, number: int) -> Made:
        """Gitea's and Forgejo's ``/pulls/{index}/files``, ``/pulls/{index}/commits`` and
        ``/pulls/{index}/reviews`` (codeberg.org/api/swagger#/repository), paged by ``limit``. They do not say
        which issues a pull request closes: left out."""
        pull = f"{self.base}/repos/{path}/pulls/{number}"
        files = self._listed(f"{pull}/files", dict([self.page_size]))
        commits = self._listed(f"{pull}/commits", {**dict([self.page_size]), "stat": "false", "files": "false"})
        reviews = self._listed(f"{pull}/reviews", dict([self.page_size]))
        return Made(
            files=None if files is None else tuple(item.text("filename") for item in files),
            commits=None if commits is None else len(commits),
            approvals=None
            if reviews is None
            else approvals([reviewer(item) for item in reviews if not item.flag("dismissed")]),
        )

    def _compare(self, path: str, tag: str, sha: str) -> bool:
        # the commits of ``sha`` that ``tag`` lacks: none when the tag contains it
        url = f"{self.base}/repos/{path}/compare/{quote(tag, safe='')}...{sha}"
        data = Answer(self.session.json(url, conditional=False), url)
        total = data.integer_or_none("total_commits")
        commits = data.data.get("commits")
        return not total and not commits

    def merged_by(self, user: str) -> Search:
        """Gitea's and Forgejo's issue search (``GET /repos/issues/search``, ``type=pulls``, ``state=closed``,
        ``created=true``; codeberg.org/api/swagger#/issue/issueSearchIssues), paged by ``limit`` through its
        ``Link`` header: it filters by author only as "created by the token's user", so it needs ``user``'s own
        token (``GET /user`` says whose it is). The merged ones, in repositories ``user`` does not own."""
        from .http import RateLimitError

        if self.session.credentials is None:
            raise NeedsTokenError(
                "its search finds only the pull requests of the token's own user: set CODEBERG_TOKEN to a token of "
                f"{user}'s"
            )
        me = f"{self.base}/user"
        login = Answer(self.session.json(me, conditional=False), me).text("login")
        if login.lower() != user.lower():
            raise NeedsTokenError(
                f"CODEBERG_TOKEN is {login}'s, and its search finds only the token's own user's pull requests: set "
                f"it to a token of {user}'s"
            )
        url = f"{self.base}/repos/issues/search"
        params = {"type": "pulls", "state": "closed", "created": "true", "limit": "50"}
        found, stopped = [], None
        try:
            for data, _ in self.session.walk(url, params=params):
                for item in items(data, url):
                    pull = item.child("pull_request")
                    repository = item.child("repository")
                    if pull is None or not pull.flag("merged") or repository is None:
                        continue
                    full = repository.text("full_name")
                    if full.split("/", 1)[0].lower() == login.lower():  # the user's own repository
                        continue
                    number = item.integer_or_none("number") or 0
                    found.append(
                        MergedPull(f"codeberg.org/{full}", number, item.text("title"), pull.time_or_none("merged_at"))
                    )
        except RateLimitError as error:
            stopped = str(error)
        return Search(newest_first(found), [], stopped)


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
