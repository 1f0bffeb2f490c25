"""A fake GitHub, GitLab and Codeberg API on 127.0.0.1, for ``contributions sync``'s tests: a real HTTP
server (``http.server`` in a thread) answering in the shapes the forges' REST documentation gives
(``/repos/{owner}/{repo}/pulls/{n}``, ``/issues/{n}``, ``/releases``, ``/compare/{base}...{head}``;
GitLab's ``/projects/{id}/merge_requests/{iid}``, ``/issues/{iid}``, ``/releases``,
``/repository/compare``; Gitea's ``/repos/{owner}/{repo}/pulls/{n}`` …), with ``Link`` pagination, ETags
and ``304 Not Modified``, and scripted faults (a status, headers, a delay, a body sent a byte at a time)
for a path's next answers.

Modelled on the forges' documentation, not on the client:

- **Commit graphs**: each repository has commits (sha → parents) and tags; compare answers from the graph,
  GitHub's ``status`` ``ahead``/``behind``/``identical``/``diverged`` with ``ahead_by``/``behind_by``,
  GitLab's ``commits`` reachable from ``to`` and not from ``from``, Gitea's ``total_commits``.
- **Releases** newest first as the forges list them, with drafts (no ``published_at``) and pre-releases.
- **ETags that vary by credentials** (GitHub's ``Vary: Accept, Authorization``): the same body asked with
  and without a token has two ETags.
- **Rate-limit headers** on every GitHub answer (``x-ratelimit-limit``/``-remaining``/``-reset``); a 304 costs
  nothing only when the request is authorised.
- **Tokens**: with :attr:`FakeForges.tokens` set, a request with another token gets 401 "Bad credentials".
- **Renames**: :attr:`FakeForges.renamed` answers a GitHub repository's old name with a 301 to the new one.

It counts every call: (path with query, status), and keeps each request's headers (:attr:`requests`). The
three forges live under ``/github``, ``/gitlab/api/v4`` and ``/codeberg/api/v1``, the addresses given to
``GITHUB_API_URL`` and friends.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

#: the reason phrases of GitHub's documentation ("Status: 422 Unprocessable Entity"), where Python's
#: http.server gives RFC 9110's names instead (3.13: "Unprocessable Content", "Content Too Large"); other
#: statuses keep http.server's, the same on every Python
REASONS = {413: "Request Entity Too Large", 422: "Unprocessable Entity"}


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    #: seconds between the body's bytes (a server that trickles its answer)
    trickle: float = 0.0


def sha_of(name: str) -> str:
    """A commit id made from a name (40 hex digits)."""
    return hashlib.sha1(name.encode()).hexdigest()


@dataclass
class Repo:
    """One repository's data: pull requests (number → fields), issues, releases (in the order they were
    published), and its commit graph: ``commits`` (sha → parents) and ``tags`` (name → sha)."""

    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    issues: dict[int, dict[str, Any]] = field(default_factory=dict)
    releases: list[dict[str, Any]] = field(default_factory=list)
    commits: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    #: the branches GitHub's "Get a branch" knows, and renamed ones (old name → new name: a 301)
    branches: set[str] = field(default_factory=lambda: {"main"})
    renamed_branches: dict[str, str] = field(default_factory=dict)
    #: how each pull request was made: its changed files' paths (default: as many as its own answer counts),
    #: its reviews (reviewer, state) in order, its commits (default: its own answer's count, else 1), the
    #: issues GitLab says it closes
    files: dict[int, list[str]] = field(default_factory=dict)
    reviews: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    commit_counts: dict[int, int] = field(default_factory=dict)
    closes: dict[int, list[int]] = field(default_factory=dict)

    def files_of(self, number: int) -> list[str]:
        if number in self.files:
            return self.files[number]
        pull = self.pulls[number]
        count = pull.get("changed_files") or int(str(pull.get("changes_count") or "0").rstrip("+"))
        return [f"src/part_{i}.py" for i in range(1, count + 1)]

    def commits_of(self, number: int) -> int:
        return self.commit_counts.get(number, self.pulls[number].get("commits") or 1)

    def commit(self, sha: str, *parents: str) -> str:
        self.commits[sha] = parents
        return sha

    def line(self, names: list[str], parent: str | None = None) -> list[str]:
        """Commits one after another (each the parent of the next), from ``parent``; their shas."""
        shas = []
        for name in names:
            sha = name if len(name) == 40 else sha_of(name)
            self.commit(sha, *([parent] if parent else []))
            shas.append(sha)
            parent = sha
        return shas

    def resolve(self, ref: str) -> str | None:
        if ref in self.tags:
            return self.tags[ref]
        return ref if ref in self.commits else None

    def ancestors(self, sha: str) -> set[str]:
        """``sha`` and every commit reachable from it."""
        seen: set[str] = set()
        todo = [sha]
        while todo:
            current = todo.pop()
            if current not in seen:
                seen.add(current)
                todo.extend(self.commits.get(current, ()))
        return seen

    def merge_base(self, base: str, head: str) -> str | None:
        """A best common ancestor of ``base`` and ``head`` (one no other common ancestor descends from)."""
        of_head = self.ancestors(head)
        if base in of_head:
            return base
        of_base = self.ancestors(base)
        if head in of_base:
            return head
        common = of_base & of_head
        return next((c for c in sorted(common) if not any(c in self.ancestors(o) - {o} for o in common)), None)

    def compare(self, base: str, head: str) -> tuple[str, int, int, list[str]]:
        """GitHub's compare of ``base...head``: (status, ahead_by, behind_by, the commits of head not in
        base)."""
        of_base, of_head = self.ancestors(base), self.ancestors(head)
        ahead = sorted(of_head - of_base)
        behind = of_base - of_head
        if base == head:
            status = "identical"
        elif not behind:
            status = "ahead"
        elif not ahead:
            status = "behind"
        else:
            status = "diverged"
        return status, len(ahead), len(behind), ahead


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
    base: str = "main",
) -> dict[str, Any]:
    """A pull request as ``GET /repos/{owner}/{repo}/pulls/{pull_number}`` gives it (the fields that matter
    here, and the usual neighbours; ``base.repo`` is embedded, its ``pushed_at`` changing on every push)."""
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
        "base": {
            "label": f"{repo.split('/')[0]}:{base}",
            "ref": base,
            "sha": "b" * 40,
            "repo": {
                "id": 99,
                "full_name": repo,
                "default_branch": "main",
                "pushed_at": "2024-06-01T00:00:00Z",
                "stargazers_count": 10,
            },
        },
        "merged": bool(merged_at),
        "mergeable": None,
        "comments": 0,
        "commits": 1,
        "additions": sizes[0],
        "deletions": sizes[1],
        "changed_files": sizes[2],
    }


def github_error(message: str, errors: list[dict[str, str]] | None = None, docs: str = "") -> dict[str, Any]:
    """An error answer as GitHub's REST documentation gives it: ``basic-error`` (``message`` and
    ``documentation_url``), or ``validation-error`` for a 422 (with ``errors``: each a ``resource``, ``field``
    and ``code``, or ``code`` ``custom`` with its own ``message``)."""
    body: dict[str, Any] = {"message": message, "documentation_url": docs or "https://docs.github.com/rest"}
    if errors is not None:
        body["errors"] = errors
    return body


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


def github_release(
    repo: str, i: int, tag: str, published_at: str, prerelease: bool = False, draft: bool = False
) -> dict[str, Any]:
    """A release as ``GET /repos/{owner}/{repo}/releases`` lists it (a draft has no ``published_at``)."""
    return {
        "url": f"https://api.github.com/repos/{repo}/releases/{3000 + i}",
        "html_url": f"https://github.com/{repo}/releases/tag/{tag}",
        "id": 3000 + i,
        "tag_name": tag,
        "target_commitish": "main",
        "name": tag,
        "body": "",
        "draft": draft,
        "prerelease": prerelease,
        "created_at": published_at,
        "published_at": None if draft else published_at,
        "author": _user(),
        "assets": [],
    }


def gitlab_mr(
    project: str,
    iid: int,
    title: str,
    state: str,
    merged_at: str | None,
    sha: str | None,
    author: str = "someone",
    created_at: str = "2024-01-01T00:00:00.000Z",
) -> dict[str, Any]:
    """A merge request as ``GET /projects/:id/merge_requests/:merge_request_iid`` gives it (and, the same
    fields, as ``GET /merge_requests`` lists it)."""
    return {
        "id": 4000 + iid,
        "iid": iid,
        "project_id": 77,
        "title": title,
        "description": "",
        "state": state,
        "created_at": created_at,
        "updated_at": merged_at or "2024-01-02T00:00:00.000Z",
        "merged_at": merged_at,
        "closed_at": None,
        "target_branch": "main",
        "source_branch": "fix",
        "author": {"id": 1, "username": author, "name": author.title()},
        "sha": "e" * 40,
        "merge_commit_sha": sha,
        "squash_commit_sha": None,
        "squash": False,
        "changes_count": "3",
        "references": {"short": f"!{iid}", "relative": f"!{iid}", "full": f"{project}!{iid}"},
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
        "created_at": "2024-01-01T00:00:00+02:00",
        "updated_at": "2024-01-02T00:00:00+02:00",
        "base": {"ref": "main", "repo": {"full_name": repo, "default_branch": "main"}},
    }


def gitea_issue(repo: str, number: int, title: str, state: str) -> dict[str, Any]:
    return {
        "id": 7000 + number,
        "number": number,
        "title": title,
        "state": state,
        "html_url": f"https://codeberg.org/{repo}/issues/{number}",
    }


@dataclass
class Authored:
    """A pull request as a forge's search sees it: where, by whom, when opened and merged (None: not merged)."""

    repo: str
    number: int
    title: str
    author: str
    created_at: str
    merged_at: str | None = None

    @property
    def owner(self) -> str:
        return self.repo.split("/", 1)[0]


class FakeForges:
    """The server and its data: ``github``, ``gitlab`` and ``codeberg`` map a repository path to its
    :class:`Repo`; ``script`` maps a request path to the replies its next calls get (then the data's)."""

    def __init__(self, port: int = 0) -> None:
        self.github: dict[str, Repo] = {}
        self.gitlab: dict[str, Repo] = {}
        self.codeberg: dict[str, Repo] = {}
        self.script: dict[str, list[Reply]] = {}
        #: every pull request on GitHub the search knows (:class:`Authored`), whoever wrote it, merged or not
        self.authored: list[Authored] = []
        #: the search answers ``incomplete_results: true`` (it timed out)
        self.search_incomplete = False
        #: GitHub's search limit per minute, and what is left of it per kind of caller; when it lifts
        self.search_remaining = {"anonymous": 10, "token": 30}
        self.search_reset = 1900000000
        #: gitlab.com's merge requests (:func:`gitlab_mr`) of every project, for ``GET /merge_requests``
        self.gitlab_mrs: list[dict[str, Any]] = []
        #: Codeberg's pull requests of every repository (:class:`Authored`), for its issue search
        self.codeberg_pulls: list[Authored] = []
        #: whose each token is (GitLab's and Codeberg's ``GET /user``)
        self.users: dict[str, str] = {}
        #: the tokens the forges accept (None: any); another gets 401 "Bad credentials"
        self.tokens: set[str] | None = None
        #: a GitHub repository's old full name → its new one (answered with a 301 to the new address)
        self.renamed: dict[str, str] = {}
        #: GitHub repositories that are private: without a token, every address of theirs is a 404 (GitHub's
        #: answer for what a caller may not see, docs.github.com/rest/using-the-rest-api/troubleshooting-the-
        #: rest-api#404-not-found-for-an-existing-resource)
        self.private: set[str] = set()
        #: GitHub's primary limit: what is left of it per kind of caller ("anonymous", "token")
        self.remaining = {"anonymous": 60, "token": 5000}
        self.calls: list[tuple[str, int]] = []
        #: every request's path and headers (lowercased names), as it arrives
        self.requests: list[tuple[str, dict[str, str]]] = []
        #: every request's path and query, as it arrives (a slow answer counts before it is sent)
        self.arrivals: list[str] = []
        self.lock = threading.Lock()
        forges = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                forges.handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
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
            self.requests.clear()

    def credentials_seen(self) -> list[str]:
        """The paths of the requests that carried a credential header."""
        return [path for path, headers in self.requests if {"authorization", "private-token"} & set(headers)]

    def statuses(self) -> list[int]:
        return [status for _, status in self.calls]

    def count(self, part: str) -> int:
        return sum(1 for path in self.arrivals if part in path)

    # -- answering ----------------------------------------------------------------------------------

    def handle(self, request: BaseHTTPRequestHandler) -> None:
        split = urlsplit(request.path)
        query = {name: values[0] for name, values in parse_qs(split.query).items()}
        headers_in = {name.lower(): value for name, value in request.headers.items()}
        token = headers_in.get("authorization", headers_in.get("private-token"))
        with self.lock:
            self.arrivals.append(request.path)
            self.requests.append((request.path, headers_in))
            scripted = self.script.get(split.path)
            reply = scripted.pop(0) if scripted else None
        if reply is None and token is not None and self.tokens is not None and token.split()[-1] not in self.tokens:
            reply = Reply(401, {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"})
        if reply is None:
            reply = self.answer([unquote(part) for part in split.path.strip("/").split("/")], split.path, query, token)
        if reply.delay:
            time.sleep(reply.delay)
        status, headers = reply.status, dict(reply.headers)
        data = b""
        if reply.body is not None:
            data = json.dumps(reply.body, sort_keys=True).encode()
            headers.setdefault("Content-Type", "application/json; charset=utf-8")
            if status == 200:
                # the ETag varies by the credentials (GitHub: Vary: Accept, Authorization)
                tag = hashlib.sha1(data + (token or "").encode()).hexdigest()
                headers["ETag"] = f'W/"{tag}"'
                headers["Vary"] = "Accept, Authorization, Accept-Encoding"
                if request.headers.get("If-None-Match") == headers["ETag"]:
                    status, data = 304, b""
        if split.path.startswith("/github/") and "x-ratelimit-resource" not in headers:
            kind = "token" if token else "anonymous"
            with self.lock:
                if not (status == 304 and token):  # a 304 is free only when authorised
                    self.remaining[kind] = max(0, self.remaining[kind] - 1)
                given = {name.lower() for name in headers}
                for name, value in (
                    ("x-ratelimit-limit", "5000" if token else "60"),
                    ("x-ratelimit-remaining", str(self.remaining[kind])),
                    ("x-ratelimit-reset", "1900000000"),
                    ("x-ratelimit-resource", "core"),
                ):
                    if name not in given:
                        headers[name] = value
        with self.lock:
            self.calls.append((request.path, status))
        try:
            request.send_response(status, REASONS.get(status))
            for name, value in headers.items():
                request.send_header(name, value)
            request.send_header("Content-Length", str(len(data)))
            request.end_headers()
            if reply.trickle:
                for byte in data:
                    request.wfile.write(bytes([byte]))
                    request.wfile.flush()
                    time.sleep(reply.trickle)
            elif data:
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

    def answer(self, parts: list[str], raw_path: str, query: dict[str, str], token: str | None = None) -> Reply:
        missing = Reply(404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
        if parts[0] == "github":
            if parts[1:3] == ["search", "issues"]:
                return self._github_search(raw_path, query, token)
            repo_path, rest = "/".join(parts[2:4]), parts[4:]
            if parts[1] == "repos" and repo_path in self.renamed:
                moved = raw_path.replace(f"/repos/{repo_path}/", f"/repos/{self.renamed[repo_path]}/", 1)
                where = moved + (f"?{urlencode(query)}" if query else "")
                return Reply(301, {"message": "Moved Permanently", "url": self.url + where}, {"Location": where})
            repo = self.github.get(repo_path)
            if parts[1] != "repos" or repo is None or (repo_path in self.private and token is None):
                return missing
            return self._github(repo, repo_path, rest, raw_path, query) or missing
        if parts[:4] == ["gitlab", "api", "v4", "merge_requests"]:
            return self._gitlab_search(raw_path, query, token)
        if parts[:4] == ["codeberg", "api", "v1", "user"]:
            who = self.users.get((token or "").split()[-1]) if token else None
            return Reply(200, {"id": 1, "login": who}) if who else Reply(401, {"message": "token is required"})
        if parts[:5] == ["codeberg", "api", "v1", "repos", "issues"] and parts[5:] == ["search"]:
            return self._codeberg_search(raw_path, query, token)
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
        if rest[:1] == ["pulls"] and len(rest) == 3 and int(rest[1]) in repo.pulls:
            return self._github_made(repo, name, int(rest[1]), rest[2], raw_path, query)
        if rest[:1] == ["pulls"] and int(rest[1]) in repo.pulls:
            return Reply(200, repo.pulls[int(rest[1])])
        if rest[:1] == ["issues"] and int(rest[1]) in repo.issues:
            return Reply(200, repo.issues[int(rest[1])])
        if rest == ["releases"]:
            return self._page(raw_path, query, list(reversed(repo.releases)), "per_page", 30)
        if rest[:1] == ["branches"] and len(rest) == 2:
            # GitHub's "Get a branch": a renamed branch's old name is "301 Moved permanently" to the new one
            branch = rest[1]
            if branch in repo.renamed_branches:
                moved = f"/github/repos/{name}/branches/{quote(repo.renamed_branches[branch], safe='')}"
                return Reply(301, {"message": "Moved Permanently", "url": self.url + moved}, {"Location": moved})
            if branch in repo.branches:
                sha = "b" * 40
                return Reply(200, {"name": branch, "commit": {"sha": sha}, "protected": False})
            return Reply(404, {"message": "Branch not found", "documentation_url": "https://docs.github.com/rest"})
        if rest[:1] == ["compare"]:
            base_ref, _, head_ref = "/".join(rest[1:]).partition("...")
            base, head = repo.resolve(base_ref), repo.resolve(head_ref)
            if base is None or head is None:
                return Reply(404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
            status, ahead, behind, commits = repo.compare(base, head)
            web = f"https://github.com/{name}/compare/{base_ref}...{quote(head_ref)}"
            return Reply(
                200,
                {
                    "url": f"https://api.github.com/repos/{name}/compare/{base_ref}...{head_ref}",
                    "html_url": web,
                    "permalink_url": f"https://github.com/{name}/compare/{name.split('/')[0]}:{base}...{head}",
                    "diff_url": web + ".diff",
                    "patch_url": web + ".patch",
                    "base_commit": {"sha": base},
                    "merge_base_commit": {"sha": repo.merge_base(base, head)},
                    "status": status,
                    "ahead_by": ahead,
                    "behind_by": behind,
                    "total_commits": ahead,
                    "commits": [{"sha": sha} for sha in commits[:250]],
                    "files": [],
                },
            )
        return None

    def _github_made(
        self, repo: Repo, name: str, number: int, what: str, raw_path: str, query: dict[str, str]
    ) -> Reply | None:
        """ "List pull requests files" (docs.github.com/rest/pulls/pulls#list-pull-requests-files: 30 a page,
        ``per_page`` up to 100, "a maximum of 3000 files") and "List reviews for a pull request"
        (docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request: 30 a page, up to 100), oldest
        review first."""
        if what == "files":
            files = [
                {
                    "sha": sha_of(path),
                    "filename": path,
                    "status": "modified",
                    "additions": 1,
                    "deletions": 0,
                    "changes": 1,
                    "blob_url": f"https://github.com/{name}/blob/{'f' * 40}/{path}",
                    "patch": "@@ -1 +1 @@",
                }
                for path in repo.files_of(number)[:3000]
            ]
            chunk, links = self._listed(raw_path, query, files, "per_page", 30, 100)
            return Reply(200, chunk, links)
        if what == "reviews":
            reviews = [
                {
                    "id": 9500 + i,
                    "user": _user(login),
                    "body": "",
                    "state": state,
                    "submitted_at": "2024-01-02T00:00:00Z",
                    "commit_id": "f" * 40,
                    "author_association": "MEMBER",
                }
                for i, (login, state) in enumerate(repo.reviews.get(number, []))
            ]
            chunk, links = self._listed(raw_path, query, reviews, "per_page", 30, 100)
            return Reply(200, chunk, links)
        return None

    def _gitlab(self, repo: Repo, rest: list[str], raw_path: str, query: dict[str, str]) -> Reply | None:
        if rest[:1] == ["merge_requests"] and len(rest) == 3 and int(rest[1]) in repo.pulls:
            return self._gitlab_made(repo, int(rest[1]), rest[2], raw_path, query)
        if rest[:1] == ["merge_requests"] and int(rest[1]) in repo.pulls:
            return Reply(200, repo.pulls[int(rest[1])])
        if rest[:1] == ["issues"] and int(rest[1]) in repo.issues:
            return Reply(200, repo.issues[int(rest[1])])
        if rest == ["releases"]:
            return self._page(raw_path, query, list(reversed(repo.releases)), "per_page", 20)
        if rest == ["repository", "compare"]:
            start, end = repo.resolve(query["from"]), repo.resolve(query["to"])
            if start is None or end is None:
                return Reply(404, {"message": "404 Ref Not Found"})
            # straight=false (the default): the commits reachable from `to` and not from `from`
            _, _, _, ahead = repo.compare(start, end)
            commits = [{"id": sha, "short_id": sha[:8], "title": "a commit"} for sha in ahead]
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

    def _gitlab_made(self, repo: Repo, number: int, what: str, raw_path: str, query: dict[str, str]) -> Reply | None:
        """ "List merge request diffs" (``/diffs``), "Get single merge request commits" (``/commits``), "List
        issues that close on merge" (``/closes_issues``; docs.gitlab.com/api/merge_requests: 20 a page,
        ``per_page`` up to 100) and the approvals (``/approvals``, docs.gitlab.com/api/merge_request_approvals:
        ``approved_by``, each a ``user``)."""
        lists: dict[str, list[Any]] = {
            "diffs": [
                {"old_path": path, "new_path": path, "new_file": False, "renamed_file": False, "deleted_file": False}
                for path in repo.files_of(number)
            ],
            "commits": [{"id": sha_of(f"{number} {i}"), "title": "a commit"} for i in range(repo.commits_of(number))],
            "closes_issues": [
                {"iid": iid, "title": f"Issue {iid}", "state": "opened"} for iid in repo.closes.get(number, [])
            ],
        }
        if what in lists:
            chunk, links = self._listed(raw_path, query, lists[what], "per_page", 20, 100)
            return Reply(200, chunk, links)
        if what == "approvals":
            approved = [
                {"user": {"id": i, "username": login}}
                for i, (login, state) in enumerate(repo.reviews.get(number, []))
                if state == "APPROVED"
            ]
            return Reply(200, {"iid": number, "approved": bool(approved), "approved_by": approved})
        return None

    def _codeberg_made(self, repo: Repo, number: int, what: str, raw_path: str, query: dict[str, str]) -> Reply | None:
        """Gitea's and Forgejo's ``/pulls/{index}/files``, ``/commits`` and ``/reviews``
        (codeberg.org/api/swagger#/repository: ``limit`` 30, at most 50, and ``page``)."""
        lists: dict[str, list[Any]] = {
            "files": [
                {"filename": path, "status": "changed", "additions": 1, "deletions": 0}
                for path in repo.files_of(number)
            ],
            "commits": [{"sha": sha_of(f"{number} {i}")} for i in range(repo.commits_of(number))],
            "reviews": [
                {"id": i, "user": {"login": login}, "state": state, "dismissed": False, "stale": False}
                for i, (login, state) in enumerate(repo.reviews.get(number, []))
            ],
        }
        if what not in lists:
            return None
        chunk, links = self._listed(raw_path, query, lists[what], "limit", 30, 50)
        return Reply(200, chunk, links)

    def _codeberg(self, repo: Repo, rest: list[str], raw_path: str, query: dict[str, str]) -> Reply | None:
        if rest[:1] == ["pulls"] and len(rest) == 3 and int(rest[1]) in repo.pulls:
            return self._codeberg_made(repo, int(rest[1]), rest[2], raw_path, query)
        if rest[:1] == ["pulls"] and int(rest[1]) in repo.pulls:
            return Reply(200, repo.pulls[int(rest[1])])
        if rest[:1] == ["issues"] and int(rest[1]) in repo.issues:
            return Reply(200, repo.issues[int(rest[1])])
        if rest == ["releases"]:
            return self._page(raw_path, query, list(reversed(repo.releases)), "limit", 30)
        if rest[:1] == ["compare"]:
            base_ref, _, head_ref = "/".join(rest[1:]).partition("...")
            base, head = repo.resolve(base_ref), repo.resolve(head_ref)
            if base is None or head is None:
                return Reply(404, {"message": "The target couldn't be found."})
            _, _, _, ahead = repo.compare(base, head)
            commits = [{"sha": sha} for sha in ahead]
            return Reply(200, {"total_commits": len(commits), "commits": commits, "files": []})
        return None

    # -- the searches of ``contributions discover`` ---------------------------------------------------

    def _listed(
        self, raw_path: str, query: dict[str, str], items: list[Any], size_name: str, default: int, most: int
    ) -> tuple[list[Any], dict[str, str]]:
        """One page of ``items`` and its ``Link`` header (a ``next`` and a ``last`` page), the page size
        ``size_name`` (at most ``most``), the other parameters kept."""
        size = min(int(query.get(size_name, default)), most)
        page = int(query.get("page", 1))
        last = max(1, -(-len(items) // size))
        links = []
        for rel, number in (("next", page + 1), ("last", last)):
            if page < last:
                link = urlencode({**query, size_name: str(size), "page": str(number)})
                links.append(f'<{self.url}{raw_path}?{link}>; rel="{rel}"')
        return items[(page - 1) * size : page * size], ({"Link": ", ".join(links)} if links else {})

    def _github_search(self, raw_path: str, query: dict[str, str], token: str | None) -> Reply:
        """GitHub's "Search issues and pull requests" (docs.github.com/rest/search/search#search-issues-and-
        pull-requests): the qualifiers ``is:pr``, ``is:merged``, ``author:``, ``-user:`` and ``created:<=`` /
        ``created:<`` (docs.github.com/search-github/searching-on-github/searching-issues-and-pull-requests),
        ``sort=created``; ``per_page`` up to 100; "up to 1,000 results for each search": the ``Link`` header
        stops at the 1,000th and a page past it is a 422; ``incomplete_results`` when told. Its own rate
        limit (docs.github.com/rest/search/search#rate-limit: 10 requests a minute without a token, 30 with
        one), said in ``x-ratelimit-*`` headers with ``x-ratelimit-resource: search``; spent, a 403."""
        kind = "token" if token else "anonymous"
        with self.lock:
            left = self.search_remaining[kind]
            self.search_remaining[kind] = max(0, left - 1)
        limit = "30" if token else "10"
        headers = {
            "x-ratelimit-limit": limit,
            "x-ratelimit-remaining": str(max(0, left - 1)),
            "x-ratelimit-reset": str(self.search_reset),
            "x-ratelimit-resource": "search",
        }
        if left <= 0:
            headers["x-ratelimit-remaining"] = "0"
            message = "API rate limit exceeded for 127.0.0.1."
            docs = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
            return Reply(403, github_error(message, docs=docs), headers)
        found = list(self.authored)
        for word in query.get("q", "").split():
            name, _, value = word.partition(":")
            if word == "is:pr":
                continue
            if word == "is:merged":
                found = [pull for pull in found if pull.merged_at]
            elif name == "author":
                found = [pull for pull in found if pull.author.lower() == value.lower()]
            elif name == "-user":
                found = [pull for pull in found if pull.owner.lower() != value.lower()]
            elif name == "created" and value.startswith("<="):
                found = [pull for pull in found if pull.created_at <= value[2:]]
            elif name == "created" and value.startswith("<"):
                found = [pull for pull in found if pull.created_at < value[1:]]
            else:
                return Reply(422, github_error("Validation Failed", [{"message": f"cannot read {word}"}]), headers)
        found.sort(key=lambda pull: pull.created_at, reverse=query.get("order", "desc") == "desc")
        size = min(int(query.get("per_page", 30)), 100)
        if (int(query.get("page", 1)) - 1) * size >= 1000:
            return Reply(422, github_error("Only the first 1000 search results are available"), headers)
        chunk, links = self._listed(raw_path, query, found[:1000], "per_page", 30, 100)
        api = f"{self.url}/github"
        items = [
            {
                "url": f"{api}/repos/{pull.repo}/issues/{pull.number}",
                "repository_url": f"{api}/repos/{pull.repo}",
                "html_url": f"https://github.com/{pull.repo}/pull/{pull.number}",
                "id": 8000 + pull.number,
                "number": pull.number,
                "title": pull.title,
                "user": _user(pull.author),
                "labels": [],
                "state": "closed" if pull.merged_at else "open",
                "locked": False,
                "comments": 0,
                "created_at": pull.created_at,
                "updated_at": pull.merged_at or pull.created_at,
                "closed_at": pull.merged_at,
                "draft": False,
                "pull_request": {
                    "url": f"{api}/repos/{pull.repo}/pulls/{pull.number}",
                    "html_url": f"https://github.com/{pull.repo}/pull/{pull.number}",
                    "diff_url": f"https://github.com/{pull.repo}/pull/{pull.number}.diff",
                    "patch_url": f"https://github.com/{pull.repo}/pull/{pull.number}.patch",
                    "merged_at": pull.merged_at,
                },
                "body": "",
                "score": 1.0,
            }
            for pull in chunk
        ]
        body = {"total_count": len(found), "incomplete_results": self.search_incomplete, "items": items}
        return Reply(200, body, {**headers, **links})

    def _gitlab_search(self, raw_path: str, query: dict[str, str], token: str | None) -> Reply:
        """GitLab's "List merge requests" (docs.gitlab.com/api/merge_requests/#list-merge-requests): only
        with a token (a 401 without); ``scope`` ``created_by_me`` (the default: the token's user's) or
        ``all``; ``author_username``, ``state``, ``order_by`` ``created_at``/``updated_at``/``merged_at``,
        ``sort``; offset pagination (docs.gitlab.com/api/rest/#pagination): ``per_page`` 20, at most 100, the
        ``Link`` header and ``x-total``, ``x-page``, ``x-next-page``."""
        who = self.users.get(token.split()[-1]) if token else None
        if who is None:
            return Reply(401, {"message": "401 Unauthorized"})
        found = list(self.gitlab_mrs)
        if query.get("scope", "created_by_me") == "created_by_me":
            found = [mr for mr in found if mr["author"]["username"] == who]
        if "author_username" in query:
            found = [mr for mr in found if mr["author"]["username"].lower() == query["author_username"].lower()]
        if query.get("state", "all") != "all":
            found = [mr for mr in found if mr["state"] == query["state"]]
        order = query.get("order_by", "created_at")
        found.sort(key=lambda mr: mr[order] or "", reverse=query.get("sort", "desc") == "desc")
        chunk, links = self._listed(raw_path, query, found, "per_page", 20, 100)
        page = int(query.get("page", 1))
        headers = {**links, "x-total": str(len(found)), "x-page": str(page)}
        headers["x-next-page"] = str(page + 1) if 'rel="next"' in links.get("Link", "") else ""
        return Reply(200, chunk, headers)

    def _codeberg_search(self, raw_path: str, query: dict[str, str], token: str | None) -> Reply:
        """Gitea's and Forgejo's ``GET /repos/issues/search`` (codeberg.org/api/swagger#/issue/
        issueSearchIssues; Gitea's routers/api/v1/repo/issue.go ``SearchIssues``): ``type`` ``pulls``,
        ``state`` ``open``/``closed``/``all``, and ``created=true``: "filter pulls / issues created by you",
        which the server applies only to a signed-in caller (anonymous, it is ignored: everyone's); ``limit``
        (30, at most 50) and ``page``, the ``Link`` header and ``x-total-count``."""
        who = self.users.get(token.split()[-1]) if token else None
        found = list(self.codeberg_pulls)
        if who is not None and query.get("created") == "true":
            found = [pull for pull in found if pull.author == who]
        state = query.get("state", "open")
        if state != "all":
            found = [pull for pull in found if ("closed" if pull.merged_at else "open") == state]
        found.sort(key=lambda pull: pull.created_at, reverse=True)
        chunk, links = self._listed(raw_path, query, found, "limit", 30, 50)
        items = [
            {
                "id": 9000 + pull.number,
                "number": pull.number,
                "title": pull.title,
                "user": {"id": 1, "login": pull.author},
                "state": "closed" if pull.merged_at else "open",
                "html_url": f"https://codeberg.org/{pull.repo}/pulls/{pull.number}",
                "created_at": pull.created_at,
                "closed_at": pull.merged_at,
                "pull_request": {
                    "merged": bool(pull.merged_at),
                    "merged_at": pull.merged_at,
                    "html_url": f"https://codeberg.org/{pull.repo}/pulls/{pull.number}",
                },
                "repository": {
                    "id": 1,
                    "name": pull.repo.split("/")[1],
                    "owner": pull.owner,
                    "full_name": pull.repo,
                },
            }
            for pull in chunk
        ]
        return Reply(200, items, {**links, "x-total-count": str(len(found))})


def demo(port: int = 0) -> FakeForges:
    """The fake forges with ada's work, for the walk in CONTRIBUTING.md: two merged pull
    requests of hers in others' GitHub repositories and one in her own, one merge request on GitLab (its
    token: ``demo``), each with its facts, so ``discover``, ``discover --new`` and ``sync`` all answer."""
    forges = FakeForges(port)
    work = [
        ("other-org/widget", 41, "Fix the cache's eviction order", "2026-03-02T09:00:00Z", "2026-03-10T15:00:00Z"),
        ("tools/linter", 7, "Report the rule's line", "2026-01-12T10:00:00Z", "2026-01-20T11:30:00Z"),
        ("ada/notes", 3, "Notes on caches", "2025-12-01T10:00:00Z", "2025-12-01T10:05:00Z"),
    ]
    for repo, number, title, opened, merged in work:
        forges.authored.append(Authored(repo, number, title, "ada", opened, merged))
        data = forges.github.setdefault(repo, Repo())
        data.pulls[number] = github_pull(repo, number, title, "closed", merged, sha_of(title), (42, 3, 3))
        data.pulls[number]["created_at"] = opened
        data.files[number] = ["src/cache.py", "tests/test_cache.py", "tests/test_eviction.py"]
        data.reviews[number] = [("maintainer", "APPROVED")]
        data.commit(sha_of(title))
    forges.users["demo"] = "ada"
    forges.gitlab_mrs.append(
        gitlab_mr("group/app", 12, "Speed up the importer", "merged", "2026-02-01T12:00:00.000Z", None, "ada")
    )
    return forges


if __name__ == "__main__":  # python -m tests.forge_server [PORT]: the demo forges, until Ctrl-C
    import sys

    server = demo(int(sys.argv[1]) if len(sys.argv) > 1 else 0).start()
    print(f"fake forges at {server.url} (Ctrl-C stops them); in the shell that runs 'contributions':")
    print(f"export GITHUB_API_URL={server.url}/github GITLAB_API_URL={server.url}/gitlab/api/v4")
    print(f"export CODEBERG_API_URL={server.url}/codeberg/api/v1 GITLAB_TOKEN=demo", flush=True)
    try:
        server.thread.join()
    except KeyboardInterrupt:
        server.stop()
