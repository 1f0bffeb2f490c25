"""GitHub (and GitHub Enterprise, through ``GITHUB_API_URL``): addresses and the REST API v3, asked with
GitHub's media type and a pinned API version."""

from __future__ import annotations

from urllib.parse import quote

from .base import (
    Forge,
    ForgeAPI,
    IssueFacts,
    Made,
    MergedPull,
    MissingError,
    PullFacts,
    Release,
    Search,
    approvals,
    closing_issues,
    newest_first,
)
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


def reviewer(review: Answer) -> tuple[str, str]:
    """(the reviewer's login, the review's state) of one review (GitHub's and Gitea's shape)."""
    user = review.child("user")
    return (user.text_or_none("login") or "") if user else "", review.text("state")


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
            opened_at=data.time_or_none("created_at"),
            commits=data.integer_or_none("commits"),
        )

    def fetch_made(self, path: str, number: int) -> Made:
        """ "List pull requests files" (``/pulls/{n}/files``, docs.github.com/rest/pulls/pulls#list-pull-requests-
        files: "a maximum of 3000 files") and "List reviews for a pull request" (``/pulls/{n}/reviews``,
        docs.github.com/rest/pulls/reviews), 100 a page. GitHub's REST API does not say which issues a pull
        request closes: left out."""
        pull = f"{self.base}/repos/{path}/pulls/{number}"
        files = self._listed(f"{pull}/files", {"per_page": "100"})
        reviews = self._listed(f"{pull}/reviews", {"per_page": "100"})
        return Made(
            files=None if files is None else tuple(item.text("filename") for item in files),
            approvals=None if reviews is None else approvals([reviewer(item) for item in reviews]),
        )

    def _compare(self, path: str, tag: str, sha: str) -> bool:
        # base = the merge commit, head = the tag: the tag contains the commit when it is ahead or identical
        url = f"{self.base}/repos/{path}/compare/{sha}...{quote(tag, safe='')}"
        data = Answer(self.session.json(url, conditional=False), url)
        return data.choice("status", ("ahead", "behind", "identical", "diverged")) in ("ahead", "identical")

    def merged_by(self, user: str) -> Search:
        """GitHub's "Search issues and pull requests" (``GET /search/issues``,
        docs.github.com/rest/search/search#search-issues-and-pull-requests): ``is:pr is:merged author:USER
        -user:USER``, by creation date, newest first, 100 a page through its ``Link`` header. One search gives
        at most 1,000 results: past that, the next search asks for those created up to the oldest seen
        (``created:<=``), until a search brings nothing new. ``incomplete_results`` (the search timed out) is
        said; a rate limit halfway keeps what was read (:class:`Search`)."""
        from .http import RateLimitError

        url = f"{self.base}/search/issues"
        found: dict[tuple[str, int], MergedPull] = {}
        notes: list[str] = []
        searches, total, before, incomplete = 0, None, None, False
        stopped = None
        while True:
            query = f"is:pr is:merged author:{user} -user:{user}" + (f" created:<={before}" if before else "")
            params = {"q": query, "sort": "created", "order": "desc", "per_page": "100"}
            searches += 1
            read, oldest, new, count = 0, None, 0, None
            try:
                for data, _ in self.session.walk(url, params=params):
                    page = Answer(data, url)
                    count = page.integer_or_none("total_count") if count is None else count
                    incomplete = incomplete or page.flag("incomplete_results")
                    for item in items(page.data.get("items"), f"{url} items"):
                        read += 1
                        repo = item.text("repository_url").split("/repos/", 1)[-1]
                        number = item.integer_or_none("number") or 0
                        pull = item.child("pull_request")
                        merged_at = pull.time_or_none("merged_at") if pull else None
                        created = item.time_or_none("created_at")
                        oldest = created if oldest is None or (created and created < oldest) else oldest
                        if (repo.lower(), number) not in found:
                            new += 1
                            found[repo.lower(), number] = MergedPull(repo, number, item.text("title"), merged_at)
            except RateLimitError as error:
                stopped = str(error)
                if self.session.credentials is None:
                    stopped += "; a token (GH_TOKEN) raises GitHub's search limit from 10 to 30 requests a minute"
                break
            total = count if total is None else total
            if count is None or read < SEARCH_CAP or count <= read or not new or oldest is None:
                break
            before = oldest
        if searches > 1 and total is not None:
            notes.append(
                f"GitHub's search gives at most {SEARCH_CAP:,} results: its {total:,} were read in {searches} "
                "searches, each of those created before the last"
            )
        elif total is not None and total > len(found) and stopped is None:
            notes.append(f"GitHub's search counts {total:,} but gave {len(found):,}")
        if incomplete:
            notes.append(
                "GitHub's search says its results are incomplete (incomplete_results: it timed out): some merged "
                "pull requests may be missing; run discover again later"
            )
        return Search(newest_first(found.values()), notes, stopped)


#: the most results one GitHub search gives (docs.github.com/rest/search/search: "up to 1,000 results for each
#: search")
SEARCH_CAP = 1000


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
