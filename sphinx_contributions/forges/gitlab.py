"""GitLab (gitlab.com, or another instance's API through ``GITLAB_API_URL``): addresses and the REST API v4.

A repository is ``group/subgroup/…/name``; its merge requests and issues live below ``/-/``."""

from __future__ import annotations

from urllib.parse import quote

from .base import (
    Forge,
    ForgeAPI,
    IssueFacts,
    Made,
    MergedPull,
    MissingError,
    NeedsTokenError,
    PullFacts,
    Release,
    Search,
    closing_issues,
    newest_first,
)
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
        changes = data.text_or_none("changes_count") or ""  # a string: "3", or "1000+" (at least 1,000)
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
            changed_files=int(changes.rstrip("+")) if changes.rstrip("+").isdigit() else None,
            files_at_least=changes.endswith("+"),
            repository=full.rpartition("!")[0] if full and "!" in full else None,
            base_branch=data.text_or_none("target_branch"),
            opened_at=data.time_or_none("created_at"),
        )

    def fetch_made(self, path: str, number: int) -> Made:
        """ "List merge request diffs" (``/diffs``), "Get single merge request commits" (``/commits``), the
        approvals (``/approvals``: ``approved_by``) and "List issues that close on merge" (``/closes_issues``)
        of docs.gitlab.com/api/merge_requests and merge_request_approvals, 100 a page."""
        mr = f"{self._project(path)}/merge_requests/{number}"
        page = {"per_page": "100"}
        diffs = self._listed(f"{mr}/diffs", page)
        commits = self._listed(f"{mr}/commits", page)
        closes = self._listed(f"{mr}/closes_issues", page)
        try:
            approved = Answer(self.session.json(f"{mr}/approvals"), f"{mr}/approvals").data.get("approved_by")
        except MissingError:
            approved = None
        return Made(
            files=None if diffs is None else tuple(item.text("new_path") for item in diffs),
            commits=None if commits is None else len(commits),
            approvals=None if approved is None else len(items(approved, f"{mr}/approvals approved_by")),
            closes=None if closes is None else tuple(item.integer_or_none("iid") or 0 for item in closes),
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

    def merged_by(self, user: str) -> Search:
        """GitLab's "List merge requests" (``GET /merge_requests``, docs.gitlab.com/api/merge_requests:
        ``author_username``, ``scope=all``, ``state=merged``), 100 a page through its ``Link`` header. It
        answers only with a token (:class:`NeedsTokenError` without one). A merge request into a project of
        ``user``'s own namespace is left out."""
        from .http import RateLimitError

        if self.session.credentials is None:
            raise NeedsTokenError(
                "its merge requests API lists another project's merge requests only with a token: set GITLAB_TOKEN "
                "(a personal access token with the read_api scope)"
            )
        url = f"{self.base}/merge_requests"
        params = {
            "author_username": user,
            "scope": "all",
            "state": "merged",
            "order_by": "created_at",
            "sort": "desc",
            "per_page": "100",
        }
        found, stopped = [], None
        try:
            for data, _ in self.session.walk(url, params=params):
                for item in items(data, url):
                    references = item.child("references")
                    full = references.text_or_none("full") if references else None
                    if not full or "!" not in full:
                        continue
                    path = full.rpartition("!")[0]
                    if path.split("/", 1)[0].lower() == user.lower():  # the user's own namespace
                        continue
                    number = item.integer_or_none("iid") or 0
                    found.append(
                        MergedPull(f"gitlab.com/{path}", number, item.text("title"), item.time_or_none("merged_at"))
                    )
        except RateLimitError as error:
            stopped = str(error)
        return Search(newest_first(found), [], stopped)


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
    files_tab="/diffs",
)
