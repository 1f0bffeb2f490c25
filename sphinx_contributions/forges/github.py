"""GitHub (and GitHub Enterprise, through ``GITHUB_API_URL``): addresses and the REST API v3, asked with
GitHub's media type and a pinned API version."""

from __future__ import annotations

from urllib.parse import quote

from .base import Forge, ForgeAPI, IssueFacts, MissingError, PullFacts, Release, closing_issues
from .schema import Answer, items

OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?"
NAME = r"[A-Za-z0-9_.-]{1,100}"
#: the REST API version the sync is written against (GitHub's ``X-GitHub-Api-Version``)
API_VERSION = "2022-11-28"


def repo_facts(pull: Answer) -> tuple[str | None, str | None, str | None]:
    """(the repository's full name now, the base branch, the default branch) from a pull request's
    ``base`` (GitHub's and Gitea's shape), each None when the answer does not say."""
    base = pull.child("base")
    if base is None:
        return None, None, None
    repo = base.child("repo")
    name = repo.text_or_none("full_name") if repo else None
    default = repo.text_or_none("default_branch") if repo else None
    return name, base.text_or_none("ref"), default


class GitHubShapedAPI(ForgeAPI):
    """What GitHub's REST API and Gitea's (Codeberg, Forgejo), made in its shape, answer alike:
    ``/repos/{owner}/{repo}/issues/{n}`` and ``/releases``, paged by ``page_size``."""

    #: the query parameter and value of a full page of releases
    page_size: tuple[str, str] = ("per_page", "100")

    def branch_now(self, path: str, branch: str) -> str | None:
        """GitHub's "Get a branch" answers a renamed branch's old name with a 301 to the new one (followed:
        the same origin), whose ``name`` is the branch's name now; a branch that is gone is None."""
        url = f"{self.base}/repos/{path}/branches/{quote(branch, safe='')}"
        try:
            return Answer(self.session.json(url), url).text_or_none("name")
        except MissingError:
            return None

    def fetch_issue(self, path: str, number: int) -> IssueFacts:
        url = f"{self.base}/repos/{path}/issues/{number}"
        data = Answer(self.session.json(url), url)
        return IssueFacts(number, data.text("title"), data.choice("state", ("open", "closed")))

    def _fetch_releases(self, path: str) -> list[Release]:
        url = f"{self.base}/repos/{path}/releases"
        found = []
        for item in items(self.session.pages(url, params=dict([self.page_size])), url):
            published = item.time_or_none("published_at")
            if not item.flag("draft") and published:  # a draft has no published_at
                found.append(Release(item.text("tag_name"), published, item.flag("prerelease")))
        return found


class GitHubAPI(GitHubShapedAPI):
    """``/repos/{owner}/{repo}/pulls/{n}``, ``/compare/{base}...{head}`` and ``/search/issues`` (GitHub's
    REST API), and the issues and releases of :class:`GitHubShapedAPI`."""

    def fetch_pull(self, path: str, number: int) -> PullFacts:
        url = f"{self.base}/repos/{path}/pulls/{number}"
        data = Answer(self.session.json(url), url)
        merged_at = data.time_or_none("merged_at")
        state = data.choice("state", ("open", "closed"))
        repository, base_branch, default_branch = repo_facts(data)
        return PullFacts(
            number=number,
            title=data.text("title"),
            state="merged" if merged_at else state,
            merged_at=merged_at,
            merge_commit=data.sha_or_none("merge_commit_sha") if merged_at else None,
            additions=data.integer_or_none("additions"),
            deletions=data.integer_or_none("deletions"),
            changed_files=data.integer_or_none("changed_files"),
            issues=closing_issues(data.text_or_none("body") or ""),
            repository=repository,
            base_branch=base_branch,
            default_branch=default_branch,
        )

    def _compare(self, path: str, tag: str, sha: str) -> bool:
        # base = the merge commit, head = the tag: the tag contains the commit when it is ahead or identical
        url = f"{self.base}/repos/{path}/compare/{sha}...{quote(tag, safe='')}"
        data = Answer(self.session.json(url, conditional=False), url)
        return data.choice("status", ("ahead", "behind", "identical", "diverged")) in ("ahead", "identical")

    def merged_by(self, user: str) -> list[tuple[str, int, str]]:
        query = {"q": f"is:pr is:merged author:{user} -user:{user}", "per_page": "100", "sort": "updated"}
        url = f"{self.base}/search/issues"
        found = []
        for item in items(self.session.pages(url, params=query, conditional=False, field="items"), url):
            repo = item.text("repository_url").split("/repos/", 1)[-1]
            found.append((repo, int(item.integer_or_none("number") or 0), item.text("title")))
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
    # gh's order: GH_TOKEN first
    token_env=("GH_TOKEN", "GITHUB_TOKEN"),
    api_default="https://api.github.com",
    auth_header="Authorization: Bearer {token}",
    api_class=GitHubAPI,
    api_headers=(("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", API_VERSION)),
)
