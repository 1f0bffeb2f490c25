"""A fake GitHub, GitLab and Codeberg API on 127.0.0.1, for ``contributions sync``'s tests: a real HTTP
server (``http.server`` in a thread) answering in the shapes the forges' REST documentation gives
(``/repos/{owner}/{repo}/pulls/{n}``, ``/issues/{n}``, ``/releases``, ``/compare/{base}...{head}``;
GitLab's ``/projects/{id}/merge_requests/{iid}``, ``/issues/{iid}``, ``/releases``,
``/repository/compare``; Gitea's ``/repos/{owner}/{repo}/pulls/{n}`` …), with ``Link`` pagination, ETags
and ``304 Not Modified``, and scripted faults (a status, headers, a delay) for a path's next answers.

It counts every call: (path with query, status). The three forges live under ``/github``,
``/gitlab/api/v4`` and ``/codeberg/api/v1``, the addresses given to ``GITHUB_API_URL`` and friends.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Repo:
    """One repository's data: pull requests (number → fields), issues, releases (oldest first) and which
    release first contains each commit (sha → index into releases)."""

    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    issues: dict[int, dict[str, Any]] = field(default_factory=dict)
    releases: list[dict[str, Any]] = field(default_factory=list)
    first_containing: dict[str, int] = field(default_factory=dict)

    def contains(self, tag: str, sha: str) -> bool:
        index = next(i for i, release in enumerate(self.releases) if release["tag_name"] == tag)
        first = self.first_containing.get(sha)
        return first is not None and index >= first


def _user(login: str = "octocat") -> dict[str, Any]:
    return {"login": login, "id": 1, "type": "User", "html_url": f"https://github.com/{login}"}


def github_pull(
    repo: str,
    number: int,
    title: str,
    state: str,
    merged_at: str | None,
    sha: str | None,
    sizes: tuple[int, int, int],
    body: str = "",
) -> dict[str, Any]:
    """A pull request as ``GET /repos/{owner}/{repo}/pulls/{pull_number}`` gives it (the fields that matter
    here, and the usual neighbours)."""
    return {
        "url": f"https://api.github.com/repos/{repo}/pulls/{number}",
        "id": 1000 + number,
        "html_url": f"https://github.com/{repo}/pull/{number}",
        "number": number,
        "state": "closed" if merged_at else state,
        "locked": False,
        "title": title,
        "user": _user(),
        "body": body,
        "created_at": "2024-01-01T00:00:00Z",
        "updated_at": merged_at or "2024-01-02T00:00:00Z",
        "closed_at": merged_at,
        "merged_at": merged_at,
        "merge_commit_sha": sha,
        "draft": False,
        "head": {"label": "octocat:fix", "ref": "fix", "sha": "f" * 40},
        "base": {"label": f"{repo.split('/')[0]}:main", "ref": "main", "sha": "b" * 40},
        "merged": bool(merged_at),
        "mergeable": None,
        "comments": 0,
        "commits": 1,
        "additions": sizes[0],
        "deletions": sizes[1],
        "changed_files": sizes[2],
    }


def github_issue(repo: str, number: int, title: str, state: str) -> dict[str, Any]:
    return {
        "url": f"https://api.github.com/repos/{repo}/issues/{number}",
        "html_url": f"https://github.com/{repo}/issues/{number}",
        "id": 2000 + number,
        "number": number,
        "state": state,
        "state_reason": "completed" if state == "closed" else None,
        "title": title,
        "user": _user(),
        "labels": [],
        "comments": 0,
        "created_at": "2023-12-01T00:00:00Z",
        "closed_at": "2024-01-05T00:00:00Z" if state == "closed" else None,
    }


def github_release(repo: str, i: int, tag: str, published_at: str, prerelease: bool = False) -> dict[str, Any]:
    return {
        "url": f"https://api.github.com/repos/{repo}/releases/{3000 + i}",
        "html_url": f"https://github.com/{repo}/releases/tag/{tag}",
        "id": 3000 + i,
        "tag_name": tag,
        "target_commitish": "main",
        "name": tag,
        "body": "",
        "draft": False,
        "prerelease": prerelease,
        "created_at": published_at,
        "published_at": published_at,
        "author": _user(),
        "assets": [],
    }


def gitlab_mr(project: str, iid: int, title: str, state: str, merged_at: str | None, sha: str | None) -> dict[str, Any]:
    """A merge request as ``GET /projects/:id/merge_requests/:merge_request_iid`` gives it."""
    return {
        "id": 4000 + iid,
        "iid": iid,
        "project_id": 77,
        "title": title,
        "description": "",
        "state": state,
        "created_at": "2024-01-01T00:00:00.000Z",
        "updated_at": merged_at or "2024-01-02T00:00:00.000Z",
        "merged_at": merged_at,
        "closed_at": None,
        "target_branch": "main",
        "source_branch": "fix",
        "author": {"id": 1, "username": "someone", "name": "Some One"},
        "sha": "e" * 40,
        "merge_commit_sha": sha,
        "squash_commit_sha": None,
        "squash": False,
        "changes_count": "3",
        "web_url": f"https://gitlab.com/{project}/-/merge_requests/{iid}",
    }


def gitlab_issue(project: str, iid: int, title: str, state: str) -> dict[str, Any]:
    return {
        "id": 5000 + iid,
        "iid": iid,
        "project_id": 77,
        "title": title,
        "state": state,
        "created_at": "2023-12-01T00:00:00.000Z",
        "web_url": f"https://gitlab.com/{project}/-/issues/{iid}",
    }


def gitlab_release(project: str, tag: str, released_at: str) -> dict[str, Any]:
    return {
        "tag_name": tag,
        "name": tag,
        "description": "",
        "created_at": released_at,
        "released_at": released_at,
        "upcoming_release": False,
        "author": {"id": 1, "username": "someone"},
        "commit": {"id": "c" * 40},
        "_links": {"self": f"https://gitlab.com/{project}/-/releases/{tag}"},
    }


def gitea_pull(
    repo: str, number: int, title: str, state: str, merged_at: str | None, sha: str | None
) -> dict[str, Any]:
    """A pull request as Gitea's and Forgejo's ``GET /repos/{owner}/{repo}/pulls/{index}`` gives it."""
    return {
        "id": 6000 + number,
        "url": f"https://codeberg.org/{repo}/pulls/{number}",
        "number": number,
        "user": {"id": 1, "login": "someone"},
        "title": title,
        "body": "",
        "state": "closed" if merged_at else state,
        "html_url": f"https://codeberg.org/{repo}/pulls/{number}",
        "mergeable": True,
        "merged": bool(merged_at),
        "merged_at": merged_at,
        "merge_commit_sha": sha,
        "additions": 4,
        "deletions": 1,
        "changed_files": 2,
        "created_at": "2024-01-01T00:00:00Z",
        "updated_at": "2024-01-02T00:00:00Z",
    }


def gitea_issue(repo: str, number: int, title: str, state: str) -> dict[str, Any]:
    return {
        "id": 7000 + number,
        "number": number,
        "title": title,
        "state": state,
        "html_url": f"https://codeberg.org/{repo}/issues/{number}",
    }


class FakeForges:
    """The server and its data: ``github``, ``gitlab`` and ``codeberg`` map a repository path to its
    :class:`Repo`; ``script`` maps a request path to the replies its next calls get (then the data's)."""

    def __init__(self) -> None:
        self.github: dict[str, Repo] = {}
        self.gitlab: dict[str, Repo] = {}
        self.codeberg: dict[str, Repo] = {}
        self.script: dict[str, list[Reply]] = {}
        self.search: dict[str, list[dict[str, Any]]] = {}
        self.calls: list[tuple[str, int]] = []
        #: every request's path and query, as it arrives (a slow answer counts before it is sent)
        self.arrivals: list[str] = []
        self.lock = threading.Lock()
        forges = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                forges.handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> FakeForges:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def reset(self) -> None:
        with self.lock:
            self.calls.clear()
            self.arrivals.clear()

    def statuses(self) -> list[int]:
        return [status for _, status in self.calls]

    def count(self, part: str) -> int:
        return sum(1 for path in self.arrivals if part in path)

    # -- answering ----------------------------------------------------------------------------------

    def handle(self, request: BaseHTTPRequestHandler) -> None:
        split = urlsplit(request.path)
        query = {name: values[0] for name, values in parse_qs(split.query).items()}
        with self.lock:
            self.arrivals.append(request.path)
            scripted = self.script.get(split.path)
            reply = scripted.pop(0) if scripted else None
        if reply is None:
            reply = self.answer([unquote(part) for part in split.path.strip("/").split("/")], split.path, query)
        if reply.delay:
            time.sleep(reply.delay)
        status, headers = reply.status, dict(reply.headers)
        data = b""
        if reply.body is not None:
            data = json.dumps(reply.body, sort_keys=True).encode()
            headers.setdefault("Content-Type", "application/json; charset=utf-8")
            if status == 200:
                headers["ETag"] = '"' + hashlib.sha1(data).hexdigest() + '"'
                if request.headers.get("If-None-Match") == headers["ETag"]:
                    status, data = 304, b""
        with self.lock:
            self.calls.append((request.path, status))
        try:
            request.send_response(status)
            for name, value in headers.items():
                request.send_header(name, value)
            request.send_header("Content-Length", str(len(data)))
            request.end_headers()
            if data:
                request.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting (the timeout test)
            pass

    def _page(self, raw_path: str, query: dict[str, str], items: list[Any], size_name: str, default: int) -> Reply:
        """One page of a list, newest first, with a ``Link`` header to the next and last pages."""
        size = int(query.get(size_name, default))
        page = int(query.get("page", 1))
        chunk = items[(page - 1) * size : page * size]
        last = max(1, -(-len(items) // size))
        links = []
        if page < last:
            links.append(f'<{self.url}{raw_path}?{size_name}={size}&page={page + 1}>; rel="next"')
            links.append(f'<{self.url}{raw_path}?{size_name}={size}&page={last}>; rel="last"')
        return Reply(200, chunk, {"Link": ", ".join(links)} if links else {})

    def answer(self, parts: list[str], raw_path: str, query: dict[str, str]) -> Reply:
        missing = Reply(404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
        if parts[0] == "github":
            if parts[1:3] == ["search", "issues"]:
                return Reply(
                    200,
                    {
                        "total_count": len(self.search.get(query.get("q", ""), [])),
                        "incomplete_results": False,
                        "items": self.search.get(query.get("q", ""), []),
                    },
                )
            repo_path, rest = "/".join(parts[2:4]), parts[4:]
            repo = self.github.get(repo_path)
            if parts[1] != "repos" or repo is None:
                return missing
            return self._github(repo, repo_path, rest, raw_path, query) or missing
        if parts[:3] == ["gitlab", "api", "v4"] and parts[3] == "projects":
            repo = self.gitlab.get(parts[4])
            if repo is None:
                return Reply(404, {"message": "404 Project Not Found"})
            return self._gitlab(repo, parts[5:], raw_path, query) or Reply(404, {"message": "404 Not found"})
        if parts[:3] == ["codeberg", "api", "v1"] and parts[3] == "repos":
            repo_path, rest = "/".join(parts[4:6]), parts[6:]
            repo = self.codeberg.get(repo_path)
            if repo is None:
                return Reply(404, {"message": "The target couldn't be found.", "errors": []})
            return self._codeberg(repo, rest, raw_path, query) or Reply(
                404, {"message": "The target couldn't be found."}
            )
        return missing

    def _github(self, repo: Repo, name: str, rest: list[str], raw_path: str, query: dict[str, str]) -> Reply | None:
        if rest[:1] == ["pulls"] and int(rest[1]) in repo.pulls:
            return Reply(200, repo.pulls[int(rest[1])])
        if rest[:1] == ["issues"] and int(rest[1]) in repo.issues:
            return Reply(200, repo.issues[int(rest[1])])
        if rest == ["releases"]:
            return self._page(raw_path, query, list(reversed(repo.releases)), "per_page", 30)
        if rest[:1] == ["compare"]:
            base, _, head = "/".join(rest[1:]).partition("...")
            inside = repo.contains(head, base)
            status = "ahead" if inside else "diverged"
            return Reply(
                200,
                {
                    "url": f"https://api.github.com/repos/{name}/compare/{base}...{head}",
                    "html_url": f"https://github.com/{name}/compare/{base}...{quote(head)}",
                    "status": status,
                    "ahead_by": 3,
                    "behind_by": 0 if inside else 2,
                    "total_commits": 3,
                    "commits": [],
                    "files": [],
                },
            )
        return None

    def _gitlab(self, repo: Repo, rest: list[str], raw_path: str, query: dict[str, str]) -> Reply | None:
        if rest[:1] == ["merge_requests"] and int(rest[1]) in repo.pulls:
            return Reply(200, repo.pulls[int(rest[1])])
        if rest[:1] == ["issues"] and int(rest[1]) in repo.issues:
            return Reply(200, repo.issues[int(rest[1])])
        if rest == ["releases"]:
            return self._page(raw_path, query, list(reversed(repo.releases)), "per_page", 20)
        if rest == ["repository", "compare"]:
            inside = repo.contains(query["from"], query["to"])
            commits = [] if inside else [{"id": query["to"], "short_id": query["to"][:8], "title": "the fix"}]
            return Reply(
                200,
                {
                    "commit": commits[0] if commits else None,
                    "commits": commits,
                    "diffs": [],
                    "compare_timeout": False,
                    "compare_same_ref": False,
                },
            )
        return None

    def _codeberg(self, repo: Repo, rest: list[str], raw_path: str, query: dict[str, str]) -> Reply | None:
        if rest[:1] == ["pulls"] and int(rest[1]) in repo.pulls:
            return Reply(200, repo.pulls[int(rest[1])])
        if rest[:1] == ["issues"] and int(rest[1]) in repo.issues:
            return Reply(200, repo.issues[int(rest[1])])
        if rest == ["releases"]:
            return self._page(raw_path, query, list(reversed(repo.releases)), "limit", 30)
        if rest[:1] == ["compare"]:
            base, _, head = "/".join(rest[1:]).partition("...")
            inside = repo.contains(base, head)
            commits = [] if inside else [{"sha": head}]
            return Reply(200, {"total_commits": len(commits), "commits": commits, "files": []})
        return None
