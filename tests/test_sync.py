"""``contributions sync`` against a real HTTP server on 127.0.0.1 (:mod:`tests.forge_server`), a fake
GitHub, GitLab and Codeberg answering in their APIs' shapes: the lock it writes, conditional requests
(a second sync gets only 304s and changes nothing), the release search's bound on compare calls,
pagination, retries on 5xx and timeouts, a rate limit's stop, a deleted pull request, ``--only`` and
``--dry-run``."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest

from sphinx_contributions.cli.main import main
from sphinx_contributions.cli.sync import Apis, run_sync
from sphinx_contributions.lock import LOCK_NAME, SCHEMA_PATH

from .conftest import ROOTS, rtd_build
from .forge_server import (
    FakeForges,
    Reply,
    Repo,
    gitea_issue,
    gitea_pull,
    github_error,
    github_issue,
    github_pull,
    github_release,
    gitlab_issue,
    gitlab_mr,
    gitlab_release,
    sha_of,
)

WIDGET_SHA = "a1" * 20
GADGET_SHA = "b2" * 20
FETCHED = "2026-12-01T12:00:00Z"


def widget_repo(releases: int = 4, first: int | None = 2, merged_at: str = "2024-03-01T10:00:00Z") -> Repo:
    """example-org/widget: PR 12 merged at ``merged_at``, issue 10 closed; ``releases`` releases a day apart
    from 2024-03-01 at 12:00, each tagged on one line of commits; the merge commit lies just before release
    ``first``'s tag (after every tag when None)."""
    repo = Repo()
    repo.pulls[12] = github_pull(
        "example-org/widget", 12, "Fix the widget", "closed", merged_at, WIDGET_SHA, (10, 2, 3), "Fixes #10."
    )
    repo.issues[10] = github_issue("example-org/widget", 10, "The widget breaks", "closed")
    repo.files[12] = ["src/widget.py", "tests/test_widget.py", "docs/widget.md"]
    repo.reviews[12] = [("reviewer", "CHANGES_REQUESTED"), ("reviewer", "APPROVED"), ("passer-by", "COMMENTED")]
    start = datetime(2024, 3, 1, 12, tzinfo=UTC).timestamp()
    parent = repo.commit(sha_of("widget root"))
    for i in range(releases):
        if i == first:
            parent = repo.commit(WIDGET_SHA, parent)
        parent = repo.commit(sha_of(f"widget release {i}"), parent)
        repo.tags[f"v1.{i}.0"] = parent
        stamp = datetime.fromtimestamp(start + i * 86400, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        repo.releases.append(github_release("example-org/widget", i, f"v1.{i}.0", stamp))
    if first is None or first >= releases:
        repo.commit(WIDGET_SHA, parent)
    return repo


def gadget_repo() -> Repo:
    repo = Repo()
    repo.pulls[3] = gitlab_mr(
        "group/sub/gadget", 3, "Make the gadget faster", "merged", "2024-05-02T08:00:00.000Z", GADGET_SHA
    )
    repo.issues[8] = gitlab_issue("group/sub/gadget", 8, "The gadget is slow", "closed")
    repo.files[3] = ["gadget/core.c", "gadget/core_test.cc", "NEWS"]
    repo.reviews[3] = [("maintainer", "APPROVED"), ("second", "APPROVED")]
    repo.commit_counts[3] = 2
    repo.closes[3] = [8]
    _, first = repo.line(["gadget root", "gadget v0.1"])
    _, second, third = repo.line([GADGET_SHA, "gadget v0.2", "gadget v0.3"], first)
    for i, (day, sha) in enumerate((("2024-04-01", first), ("2024-05-10", second), ("2024-06-01", third))):
        repo.tags[f"v0.{i + 1}"] = sha
        repo.releases.append(gitlab_release("group/sub/gadget", f"v0.{i + 1}", f"{day}T00:00:00.000Z"))
    return repo


def gizmo_repo() -> Repo:
    repo = Repo()
    repo.pulls[5] = gitea_pull("someone/gizmo", 5, "Teach the gizmo to count", "open", None, None)
    repo.issues[4] = gitea_issue("someone/gizmo", 4, "The gizmo cannot count", "open")
    return repo


@pytest.fixture
def forge(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeForges]:
    server = FakeForges().start()
    server.github["example-org/widget"] = widget_repo()
    server.gitlab["group/sub/gadget"] = gadget_repo()
    server.codeberg["someone/gizmo"] = gizmo_repo()
    monkeypatch.setenv("GITHUB_API_URL", server.url + "/github")
    monkeypatch.setenv("GITLAB_API_URL", server.url + "/gitlab/api/v4")
    monkeypatch.setenv("CODEBERG_API_URL", server.url + "/codeberg/api/v1")
    for name in ("GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CODEBERG_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    yield server
    server.stop()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return Path(shutil.copytree(ROOTS / "test-sync", tmp_path / "site"))


def sync(site: Path, **options: object) -> tuple[int, list[str]]:
    out = io.StringIO()
    apis = Apis(
        timeout=float(options.pop("timeout", 2.0)),  # type: ignore[arg-type]
        retry_wait=float(options.pop("retry_wait", 0.0)),  # type: ignore[arg-type]
        max_wait=float(options.pop("max_wait", 60.0)),  # type: ignore[arg-type]
        sleep=options.pop("sleep", lambda seconds: None),  # type: ignore[arg-type]
    )
    try:
        status = run_sync(site, apis=apis, clock=lambda: FETCHED, out=out, **options)  # type: ignore[arg-type]
    finally:
        apis.close()
    return status, out.getvalue().splitlines()


def lock(site: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((site / LOCK_NAME).read_text(encoding="utf-8"))
    return data


PROGRESS = [
    "[1/3] gadget#3: merged on 2024-05-02, first shipped in v0.2, issue #8 closed",
    "[2/3] gizmo#5: open, issue #4 open",
    "[3/3] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed",
    f"wrote {LOCK_NAME} (3 entries)",
]


def test_sync_writes_the_lock(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(site)
    status, lines = sync(site)
    assert (status, lines) == (0, PROGRESS)
    data = lock(site)
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    entries = data["contributions"]
    assert isinstance(entries, dict)
    widget = dict(entries["widget#12"])
    assert widget == {
        "repository": "example-org/widget",
        "pr": 12,
        "fetched_at": FETCHED,
        "state": "merged",
        "title": "Fix the widget",
        "merged_at": "2024-03-01T10:00:00Z",
        "merge_commit": WIDGET_SHA,
        "additions": 10,
        "deletions": 2,
        "changed_files": 3,
        "issues": [{"number": 10, "title": "The widget breaks", "state": "closed"}],
        "first_release": {"tag": "v1.2.0", "published_at": "2024-03-03T12:00:00Z"},
        "opened_at": "2024-01-01T00:00:00Z",
        "commits": 1,
        "approvals": 1,
        "files": ["src/widget.py", "tests/test_widget.py", "docs/widget.md"],
    }
    gadget = dict(entries["gadget#3"])
    assert gadget == {
        "repository": "gitlab.com/group/sub/gadget",
        "pr": 3,
        "fetched_at": FETCHED,
        "state": "merged",
        "title": "Make the gadget faster",
        "merged_at": "2024-05-02T08:00:00Z",
        "merge_commit": GADGET_SHA,
        "additions": None,
        "deletions": None,
        "changed_files": 3,
        "issues": [{"number": 8, "title": "The gadget is slow", "state": "closed"}],
        "first_release": {"tag": "v0.2", "published_at": "2024-05-10T00:00:00Z"},
        "opened_at": "2024-01-01T00:00:00Z",
        "commits": 2,
        "approvals": 2,
        "closes": [8],
        "files": ["gadget/core.c", "gadget/core_test.cc", "NEWS"],
    }
    gizmo = dict(entries["gizmo#5"])
    assert gizmo["state"] == "open" and gizmo["first_release"] is None and gizmo["merged_at"] is None
    assert forge.arrivals.count("/gitlab/api/v4/projects/group%2Fsub%2Fgadget/merge_requests/3") == 1
    assert all(status == 200 for status in forge.statuses())


def test_lock_text_is_sorted_and_stable(forge: FakeForges, site: Path) -> None:
    sync(site)
    text = (site / LOCK_NAME).read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def test_second_sync_gets_only_304s_and_no_diff(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(site)
    sync(site)
    before = (site / LOCK_NAME).read_text(encoding="utf-8")
    forge.reset()
    status, lines = sync(site)
    assert status == 0
    assert lines == [
        "[1/3] gadget#3: merged on 2024-05-02, first shipped in v0.2, issue #8 closed (unchanged)",
        "[2/3] gizmo#5: open, issue #4 open (unchanged)",
        "[3/3] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed (unchanged)",
        f"{LOCK_NAME} unchanged (3 entries)",
    ]
    # a pull request, how it was made (GitHub: files, reviews; GitLab: diffs, commits, closes_issues, approvals;
    # Codeberg: files, commits, reviews), its issue and (merged) its releases per write-up, asked
    # conditionally; no compare: the first release found among the same releases is remembered in the cache
    assert forge.statuses() == [304] * 17
    assert forge.count("/compare") == 0
    assert (site / LOCK_NAME).read_text(encoding="utf-8") == before


def test_a_change_upstream_is_fetched(forge: FakeForges, site: Path) -> None:
    sync(site)
    forge.codeberg["someone/gizmo"].pulls[5] = gitea_pull(
        "someone/gizmo", 5, "Teach the gizmo to count", "closed", "2024-07-01T00:00:00Z", "c3" * 20
    )
    forge.reset()
    _, lines = sync(site)
    assert lines[1] == "[2/3] gizmo#5: merged on 2024-07-01, in no release yet, issue #4 open"
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert entries["gizmo#5"]["state"] == "merged"


@pytest.mark.parametrize("releases", [1, 2, 3, 100, 1000])
def test_release_search_is_bounded(forge: FakeForges, site: Path, releases: int) -> None:
    """On one line of history, each release tagged from the branch the merge went into: one compare call
    (the next release ships it), none when no release came after the merge, wherever the merge lies among R
    releases; the releases come in pages of 100 (``Link`` headers), each page asked once."""
    start = datetime(2024, 3, 1, 12, tzinfo=UTC).timestamp()
    for first in sorted({0, releases // 2, releases - 1, None}, key=lambda x: -1 if x is None else x):
        merged = start + (first if first is not None else releases) * 86400 - 3600  # an hour before that release
        merged_at = datetime.fromtimestamp(merged, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        forge.github["example-org/widget"] = widget_repo(releases, first, merged_at)
        (site / LOCK_NAME).unlink(missing_ok=True)
        shutil.rmtree(site / ".contributions-cache", ignore_errors=True)
        forge.reset()
        _, lines = sync(site, only="widget#12")
        assert forge.count("/compare/") == (0 if first is None else 1), (releases, first)
        expected = f"first shipped in v1.{first}.0" if first is not None else "in no release yet"
        assert lines[0] == f"[1/1] widget#12: merged on {merged_at[:10]}, {expected}, issue #10 closed"
        assert forge.count("/releases") == -(-releases // 100)  # every page, once


def test_retries_a_500_then_succeeds(forge: FakeForges, site: Path) -> None:
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(500, {"message": "Server Error"})]
    status, lines = sync(site, only="widget#12")
    assert status == 0
    assert [s for p, s in forge.calls if p == path] == [500, 200]
    assert lines[0].startswith("[1/1] widget#12: merged on 2024-03-01")


def test_retries_a_slow_answer_past_the_timeout(forge: FakeForges, site: Path) -> None:
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(200, {"never": "read"}, delay=1.5)]
    status, lines = sync(site, only="widget#12", timeout=0.5)
    assert status == 0
    assert forge.arrivals.count(path) == 2  # the slow one (given up on) and the retry
    assert lines[0].startswith("[1/1] widget#12: merged on 2024-03-01")


def test_gives_up_after_three_5xx(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(site)
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(502, {"message": "Bad Gateway"})] * 3
    status, lines = sync(site, only="widget#12")
    assert status == 1
    assert lines == [
        f"[1/1] widget#12: failed: {forge.url}{path}: HTTP 502 Bad Gateway",
        f"{LOCK_NAME} not written: no entries",
        "1 write-up not synced",
    ]


def test_rate_limit_stops_that_forge_and_keeps_what_was_fetched(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A limit longer than the sync waits stops that forge's write-ups with one line; the other forges go on,
    and what was fetched is written."""
    monkeypatch.chdir(site)
    reset = 1_900_000_000
    forge.script["/codeberg/api/v1/repos/someone/gizmo/pulls/5"] = [
        Reply(429, {"message": "rate limit"}, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)})
    ]
    status, lines = sync(site)
    when = datetime.fromtimestamp(reset, UTC).strftime("%Y-%m-%d %H:%M:%S")
    assert status == 1
    assert lines == [
        PROGRESS[0],
        f"[2/3] gizmo#5: stopped: rate limit reached at {forge.url}/codeberg/api/v1/repos/someone/gizmo/pulls/5; "
        f"retry after {when} UTC",
        PROGRESS[2],
        f"wrote {LOCK_NAME} (2 entries)",
        "kept what was fetched; run 'contributions sync' again once the rate limit lifts",
        "1 write-up not synced",
    ]
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert sorted(entries) == ["gadget#3", "widget#12"]
    assert forge.count("gizmo") == 1  # asked once, not again


def test_github_403_rate_limit(forge: FakeForges, site: Path) -> None:
    reset = 1_900_000_000
    forge.script["/github/repos/example-org/widget/pulls/12"] = [
        Reply(
            403,
            {"message": "API rate limit exceeded for 127.0.0.1."},
            {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)},
        )
    ]
    status, lines = sync(site, only="widget#12")
    assert status == 1
    assert lines[0].endswith(f"retry after {datetime.fromtimestamp(reset, UTC):%Y-%m-%d %H:%M:%S} UTC")


def test_deleted_pull_request_is_reported(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(site)
    del forge.codeberg["someone/gizmo"].pulls[5]
    status, lines = sync(site)
    assert status == 1
    assert lines == [
        PROGRESS[0],
        "[2/3] gizmo#5: not found on the forge (deleted, or private and no token): "
        f"{forge.url}/codeberg/api/v1/repos/someone/gizmo/pulls/5: The target couldn't be found.",
        PROGRESS[2],
        f"wrote {LOCK_NAME} (2 entries)",
        "1 write-up not synced",
    ]


def test_only_and_dry_run(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(site)
    status, lines = sync(site, only="GIZMO#5", dry_run=True)
    assert (status, lines) == (
        0,
        ["[1/1] gizmo#5: open, issue #4 open", f"dry run: {LOCK_NAME} would change; nothing written"],
    )
    assert not (site / LOCK_NAME).exists()
    sync(site, only="gizmo#5")
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert sorted(entries) == ["gizmo#5"]


def test_the_command(forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sync", "--root", str(site), "--retry-wait", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == PROGRESS[:3]
    assert main(["sync", "--root", str(site), "--only", "nothing#1"]) == 2
    assert capsys.readouterr().err == "contributions sync: no write-up has the key 'nothing#1'\n"


def test_new_fills_in_from_the_api(forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (site / "contributions/widget-12.md").unlink()
    assert main(["new", "https://github.com/example-org/widget/pull/12", "--root", str(site)]) == 0
    text = (site / "contributions/widget-12.md").read_text(encoding="utf-8")
    assert text.startswith(
        "# Fix the widget\n\n:::{contribution}\n:repo: example-org/widget\n:pr: 12\n:issue: 10\n:date: 2024-03-01\n"
        ":status: draft\n"
    )
    assert "\n:::\n\n% The forge says (the GitHub API): merged, merged on 2024-03-01.\n" in text
    assert (
        capsys.readouterr().out.splitlines()[1]
        == "filled in from the GitHub API: the title, merged, merged on 2024-03-01"
    )


def test_new_fills_in_from_the_lock_offline(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sync(site)
    (site / "contributions/gadget-3.md").unlink()
    forge.reset()
    monkeypatch.setenv("CONTRIBUTIONS_OFFLINE", "1")
    assert main(["new", "https://gitlab.com/group/sub/gadget/-/merge_requests/3", "--root", str(site)]) == 0
    assert forge.arrivals == []
    text = (site / "contributions/gadget-3.md").read_text(encoding="utf-8")
    assert text.startswith(
        "# Make the gadget faster\n\n:::{contribution}\n:repo: gitlab.com/group/sub/gadget\n:pr: 3\n"
    )
    assert ":issue: 8\n:date: 2024-05-02\n" in text
    assert "% The forge says (contributions.lock.json): merged, merged on 2024-05-02, first shipped in v0.2.\n" in text


def test_a_merge_in_no_release_yet_is_asked_again_conditionally(forge: FakeForges, site: Path) -> None:
    """Merged but in no release: the next sync asks for the releases again, with their ETag (a 304 when
    there is none new), and finds the release once it is published."""
    forge.github["example-org/widget"] = widget_repo(3, None)
    sync(site, only="widget#12")
    forge.reset()
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, in no release yet, issue #10 closed (unchanged)"
    assert forge.calls == [
        ("/github/repos/example-org/widget/pulls/12", 304),
        ("/github/repos/example-org/widget/pulls/12/files?per_page=100", 304),
        ("/github/repos/example-org/widget/pulls/12/reviews?per_page=100", 304),
        ("/github/repos/example-org/widget/issues/10", 304),
        ("/github/repos/example-org/widget/releases?per_page=100", 304),
    ]
    forge.github["example-org/widget"] = widget_repo(4, 3)
    forge.reset()
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.3.0, issue #10 closed"
    assert forge.count("/compare/") == 1  # v1.3.0 only: the three tags before it are known from the cache


def test_an_issue_added_to_the_page_is_fetched(forge: FakeForges, site: Path) -> None:
    sync(site, only="widget#12")
    page = site / "contributions/widget-12.md"
    page.write_text(page.read_text(encoding="utf-8").replace(":issue: 10\n", ":issue: 10, 11\n"), encoding="utf-8")
    forge.github["example-org/widget"].issues[11] = github_issue("example-org/widget", 11, "Also this", "open")
    forge.reset()
    _, lines = sync(site, only="widget#12")
    assert lines[0] == (
        "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed, issue #11 open"
    )
    assert forge.calls == [
        ("/github/repos/example-org/widget/pulls/12", 304),
        ("/github/repos/example-org/widget/pulls/12/files?per_page=100", 304),
        ("/github/repos/example-org/widget/pulls/12/reviews?per_page=100", 304),
        ("/github/repos/example-org/widget/issues/10", 304),
        ("/github/repos/example-org/widget/issues/11", 200),
        ("/github/repos/example-org/widget/releases?per_page=100", 304),
    ]


# -- facts you can trust: against a fake forge that follows the forges' documentation ------------------

TOKEN = "ghp_secret-token-value-0123456789"


def text_of_site(site: Path) -> str:
    """Every file the sync wrote (the lock, the cache folder), as text."""
    written = [site / LOCK_NAME, *sorted((site / ".contributions-cache").rglob("*"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in written if path.is_file())


@pytest.fixture
def elsewhere() -> Iterator[FakeForges]:
    """Another origin (the same host, another port): it must never receive a credential."""
    server = FakeForges().start()
    yield server
    server.stop()


def add_page(site: Path, like: str, name: str, old: str, new: str) -> None:
    text = (site / f"contributions/{like}.md").read_text(encoding="utf-8")
    (site / f"contributions/{name}.md").write_text(text.replace(old, new), encoding="utf-8")


# item 2: credentials only for their API


def test_a_link_to_another_origin_is_refused(
    forge: FakeForges, elsewhere: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub's ``Link: <…>; rel="next"`` pointing at another host: not followed (the token stays home), not
    taken as facts; the write-up fails with one clear line."""
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    elsewhere.github["example-org/widget"] = widget_repo()
    path = "/github/repos/example-org/widget/releases"
    page = f"{elsewhere.url}{path}?per_page=100&page=2"
    forge.script[path] = [Reply(200, [], {"Link": f'<{page}>; rel="next"'})]
    status, lines = sync(site, only="widget#12")
    assert status == 1
    assert lines[0] == (
        "[1/1] widget#12: merged on 2024-03-01, issue #10 closed; the release search failed: refused the next page "
        f"({forge.url}{path}'s Link) {elsewhere.url}{path}: it is "
        f"not on the GitHub API's origin ({forge.url}); nothing was sent there and nothing taken from it"
    )
    assert elsewhere.arrivals == []
    assert forge.credentials_seen()  # the API itself did get the token


def test_a_list_whose_next_page_leads_back_is_refused(forge: FakeForges, site: Path) -> None:
    """A ``Link: <…>; rel="next"`` that leads to a page already fetched would be followed forever: the
    write-up fails with one line (the fake's script then ends, so a client without the guard would go
    on to the data's own answer and succeed, not hang)."""
    path = "/github/repos/example-org/widget/releases"
    page = f"{forge.url}{path}?per_page=100&page=2"
    forge.script[path] = [Reply(200, [], {"Link": f'<{page}>; rel="next"'})] * 2
    status, lines = sync(site, only="widget#12")
    assert status == 1
    assert lines[0] == (
        "[1/1] widget#12: merged on 2024-03-01, issue #10 closed; the release search failed: "
        f"{page}: the list's pages go round in a circle"
    )
    assert forge.count(path) == 2


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_to_another_origin_is_refused(
    forge: FakeForges, elsewhere: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    """GitLab's ``PRIVATE-TOKEN`` is not ``Authorization``: httpx would keep it on a redirect to another
    host. The session follows no redirect off the API's origin."""
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    elsewhere.gitlab["group/sub/gadget"] = gadget_repo()
    path = "/gitlab/api/v4/projects/group%2Fsub%2Fgadget/merge_requests/3"
    forge.script[path] = [Reply(status, {"message": "moved"}, {"Location": elsewhere.url + path})]
    code, lines = sync(site, only="gadget#3")
    assert code == 1
    assert lines[0] == (
        f"[1/1] gadget#3: failed: refused the redirect from {forge.url}{path} to {elsewhere.url}{path}: it is not "
        f"on the GitLab API's origin ({forge.url}); nothing was sent there and nothing taken from it"
    )
    assert elsewhere.arrivals == []


def test_a_redirect_within_the_origin_is_followed_with_the_token(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A renamed repository: GitHub answers the old name with a 301 to the new one; the sync follows it and
    says the new name (item 9)."""
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    repo = widget_repo()
    repo.pulls[12]["base"]["repo"]["full_name"] = "example-org/widget-ng"
    forge.github["example-org/widget-ng"] = repo
    forge.renamed["example-org/widget"] = "example-org/widget-ng"
    status, lines = sync(site, only="widget#12")
    assert status == 0
    assert lines[0] == (
        "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed; the forge now names the "
        "repository example-org/widget-ng: write ':repo: example-org/widget-ng'"
    )
    assert forge.arrivals.count("/github/repos/example-org/widget-ng/pulls/12") == 1
    assert all("authorization" in headers for _, headers in forge.requests)


def test_a_token_goes_only_over_https(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a token, a plain http API address that is not loopback is refused before any request; the other
    GitHub write-ups are skipped with the same line."""
    monkeypatch.setenv("GITHUB_API_URL", "http://api.example.invalid")
    for name in ("GITHUB_TOKEN", "GITLAB_API_URL", "CODEBERG_API_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    status, lines = sync(site, only="widget#12")
    assert status == 1
    assert lines[0] == (
        "[1/1] widget#12: failed: the GitHub API address http://api.example.invalid (GITHUB_API_URL) is not https: "
        "the token in GH_TOKEN is sent only over https (or to a loopback address); use an https address, or unset "
        "GH_TOKEN"
    )


def test_a_bad_token_is_named_by_its_variable_once_and_never_shown(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused token: the API's own message and the variable that held it, once; the forge's other
    write-ups are not asked with it again (item 7 of the issue's list); the token is in no output or file."""
    forge.tokens = {"the-right-one"}
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    add_page(site, "widget-12", "widget-13", ":pr: 12", ":pr: 13")
    status, lines = sync(site)
    assert status == 1
    assert lines[:2] == [
        "[1/4] gadget#3: failed: the GitLab API refused the token in GITLAB_TOKEN (HTTP 401: Bad credentials); "
        "renew it or unset GITLAB_TOKEN",
        PROGRESS[1].replace("[2/3]", "[2/4]"),
    ]
    assert lines[2] == (
        "[3/4] widget#12: failed: the GitHub API refused the token in GH_TOKEN (HTTP 401: Bad credentials); renew "
        "it or unset GH_TOKEN; skipping GitHub's 1 other write-up"
    )
    assert not any(line.startswith("[4/4]") for line in lines)
    assert forge.count("/github/") == 1  # sent once, not again for widget#13
    everything = "\n".join(lines) + text_of_site(site)
    assert TOKEN not in everything and "secret" not in everything


def test_tokens_are_in_no_exception(forge: FakeForges, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong, the exception's text and the credentials' repr hold no token."""
    import httpx

    from sphinx_contributions.forges import GITHUB
    from sphinx_contributions.forges.http import Session

    monkeypatch.setenv("GH_TOKEN", TOKEN)
    credentials = GITHUB.credentials()
    assert credentials is not None and credentials.env == "GH_TOKEN"
    assert TOKEN not in repr(credentials)
    messages = [repr(credentials)]
    for base, path in (
        ("http://api.example.invalid", "/x"),
        (forge.url + "/github", "/nowhere"),
        ("http://127.0.0.1:1", "/x"),
    ):
        session = Session(httpx.Client(), credentials=credentials, label="GitHub", attempts=1, sleep=lambda s: None)
        try:
            api = GITHUB.api(session, base)
            api.fetch_pull("a/b" + path, 1)
        except Exception as error:  # every kind is looked at
            messages.append(f"{error!r} {error}")
        finally:
            session.client.close()
    assert len(messages) == 4
    assert not any(TOKEN in message for message in messages)


# item 1: the first release, by containment, on real commit graphs


def graph_repo(merged_at: str) -> Repo:
    """example-org/widget with PR 12 merged at ``merged_at`` (its commit WIDGET_SHA) and no releases yet."""
    repo = widget_repo(0, None, merged_at)
    repo.commits.clear()
    return repo


def release(repo: Repo, tag: str, sha: str, published_at: str, **kind: bool) -> None:
    repo.tags[tag] = sha
    repo.releases.append(github_release("example-org/widget", len(repo.releases), tag, published_at, **kind))


def test_first_release_on_a_maintenance_line(forge: FakeForges, site: Path) -> None:
    """main: v1.0 → v2.0 → the merge → v2.1; a 1.0.x line off v1.0 keeps publishing after the merge. The
    release that shipped it is v2.1, whatever the 1.0.x releases published after it."""
    repo = graph_repo("2024-05-01T00:00:00Z")
    v10, v20 = repo.line(["v1.0", "v2.0"])
    _, v21 = repo.line([WIDGET_SHA, "v2.1"], v20)
    v101, v102, v103 = repo.line(["v1.0.1", "v1.0.2", "v1.0.3"], v10)
    release(repo, "v1.0", v10, "2024-01-01T00:00:00Z")
    release(repo, "v2.0", v20, "2024-04-01T00:00:00Z")
    release(repo, "v1.0.1", v101, "2024-04-15T00:00:00Z")
    release(repo, "v2.1", v21, "2024-05-10T00:00:00Z")
    release(repo, "v1.0.2", v102, "2024-05-20T00:00:00Z")
    release(repo, "v1.0.3", v103, "2024-06-01T00:00:00Z")
    forge.github["example-org/widget"] = repo
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-05-01, first shipped in v2.1, issue #10 closed"


def test_first_release_with_a_backfilled_older_tag(forge: FakeForges, site: Path) -> None:
    """v3.0 ships the merge; a release for the older tag v2.2 is published after it (a backfill); then v3.1.
    The first release that shipped it is v3.0, the earliest published that contains it."""
    repo = graph_repo("2024-05-01T00:00:00Z")
    v22, _, v30, v31 = repo.line(["v2.2", WIDGET_SHA, "v3.0", "v3.1"])
    release(repo, "v3.0", v30, "2024-06-01T00:00:00Z")
    release(repo, "v2.2", v22, "2024-06-02T00:00:00Z")
    release(repo, "v3.1", v31, "2024-06-03T00:00:00Z")
    forge.github["example-org/widget"] = repo
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-05-01, first shipped in v3.0, issue #10 closed"
    assert forge.count("/compare/") == 1


def test_first_release_skips_drafts_and_pre_releases(forge: FakeForges, site: Path) -> None:
    repo = graph_repo("2024-05-01T00:00:00Z")
    _, rc, draft, final = repo.line([WIDGET_SHA, "v2.0rc1", "v2.0-draft", "v2.0"])
    release(repo, "v2.0rc1", rc, "2024-05-02T00:00:00Z", prerelease=True)
    release(repo, "v2.0-draft", draft, "2024-05-03T00:00:00Z", draft=True)
    release(repo, "v2.0", final, "2024-05-04T00:00:00Z")
    forge.github["example-org/widget"] = repo
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-05-01, first shipped in v2.0, issue #10 closed"
    shutil.rmtree(site / ".contributions-cache")
    (site / LOCK_NAME).unlink()
    _, lines = sync(site, only="widget#12", prereleases=True)
    assert lines[0] == "[1/1] widget#12: merged on 2024-05-01, first shipped in v2.0rc1, issue #10 closed"


def test_no_release_yet_asks_no_compare(forge: FakeForges, site: Path) -> None:
    repo = graph_repo("2024-05-01T00:00:00Z")
    (v1,) = repo.line(["v1.0"])
    repo.commit(WIDGET_SHA, v1)
    release(repo, "v1.0", v1, "2024-04-01T00:00:00Z")
    forge.github["example-org/widget"] = repo
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-05-01, in no release yet, issue #10 closed"
    assert forge.count("/compare/") == 0


def test_a_first_release_found_by_an_older_rule_is_searched_again(forge: FakeForges, site: Path) -> None:
    """A lock whose first release is wrong (an older sync's search) is corrected: a found release is not
    trusted for ever, only a search by this rule among the same releases is remembered."""
    sync(site, only="widget#12")
    path = site / LOCK_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    data["contributions"]["widget#12"]["first_release"] = {"tag": "v1.3.0", "published_at": "2024-03-04T12:00:00Z"}
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    shutil.rmtree(site / ".contributions-cache")  # the lock alone, as an older version left it
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed"


# item 4: each answer validated; the run goes on; what was fetched is kept on every stop


def test_an_answer_of_the_wrong_shape_fails_only_its_write_up(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(site)
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(200, {})]
    forge.script["/codeberg/api/v1/repos/someone/gizmo/issues/4"] = [Reply(200, {"title": 4, "state": "open"})]
    status, lines = sync(site)
    assert status == 1
    assert lines == [
        PROGRESS[0],
        f"[2/3] gizmo#5: failed: {forge.url}/codeberg/api/v1/repos/someone/gizmo/issues/4: the answer's 'title' is "
        "an integer, not a string",
        f"[3/3] widget#12: failed: {forge.url}{path}: the answer's 'state' is missing, not a string",
        f"wrote {LOCK_NAME} (1 entry)",
        "2 write-ups not synced",
    ]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, RuntimeError])
def test_what_was_fetched_is_kept_on_a_crash_and_on_ctrl_c(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]
) -> None:
    from sphinx_contributions.cli import sync as sync_module

    monkeypatch.chdir(site)
    real = sync_module.sync_entry

    def sync_entry(*args: object, **kwargs: object) -> object:
        if args[1] == "example-org/widget":
            raise stop("in the middle")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sync_module, "sync_entry", sync_entry)
    if stop is KeyboardInterrupt:
        status, lines = sync(site)
        assert status == 130
        assert lines[-1] == f"interrupted: kept what was fetched: {LOCK_NAME} (2 entries)"
    else:
        with pytest.raises(RuntimeError):
            sync(site)
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert sorted(entries) == ["gadget#3", "gizmo#5"]


# item 5: times in UTC


def test_times_are_normalised_to_utc(forge: FakeForges, site: Path) -> None:
    """Gitea and Forgejo give the server's offset: the lock holds UTC, the date shown is the UTC date."""
    forge.codeberg["someone/gizmo"].pulls[5] = gitea_pull(
        "someone/gizmo", 5, "Teach the gizmo to count", "closed", "2025-06-11T01:30:00+02:00", "c3" * 20
    )
    _, lines = sync(site, only="gizmo#5")
    assert lines[0] == "[1/1] gizmo#5: merged on 2025-06-10, in no release yet, issue #4 open"
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert entries["gizmo#5"]["merged_at"] == "2025-06-10T23:30:00Z"


# item 6: one writer at a time


def test_two_syncs_at_once_lose_nothing(forge: FakeForges, site: Path) -> None:
    """Two syncs of one site at the same time (``--only`` two write-ups): the second waits for the first,
    then reads what it wrote; both entries are in the lock, and no temporary file is left."""
    import threading

    forge.script["/github/repos/example-org/widget/pulls/12"] = [Reply(200, widget_repo().pulls[12], delay=1.0)]
    results: dict[str, tuple[int, list[str]]] = {}

    def run(key: str) -> None:
        results[key] = sync(site, only=key)

    first = threading.Thread(target=run, args=("widget#12",))
    first.start()
    for _ in range(200):  # until the first holds the lock and waits for its slow answer
        if forge.count("/widget/pulls/12"):
            break
        threading.Event().wait(0.01)
    run("gizmo#5")
    first.join()
    assert results["widget#12"][0] == results["gizmo#5"][0] == 0
    assert results["gizmo#5"][1][0] == "waiting for another 'contributions sync' of this site to finish…"
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert sorted(entries) == ["gizmo#5", "widget#12"]
    assert not list(site.glob("*.part")) and not list(site.glob(".*.part"))


def test_a_sync_that_cannot_get_the_lock_says_what_to_do(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another sync that holds the lock (a stuck one) is waited for, then given up on with what to do:
    before, the second sync waited forever. Nothing is asked of the forge and the lock file is unchanged."""
    from filelock import FileLock

    from sphinx_contributions.cli.common import CommandError

    monkeypatch.chdir(site)
    before = (site / LOCK_NAME).read_bytes() if (site / LOCK_NAME).exists() else None
    with FileLock(site / ".contributions-cache/sync.lock"), pytest.raises(CommandError) as caught:
        sync(site, lock_wait=0.1)
    assert str(caught.value) == (
        "contributions sync: another 'contributions sync' of this site has held its lock "
        "(.contributions-cache/sync.lock) for 0.1 s: let it finish, or stop it, then sync again (a sync that has "
        "stopped holds no lock, whether or not the file is left)"
    )
    assert forge.requests == []
    assert ((site / LOCK_NAME).read_bytes() if (site / LOCK_NAME).exists() else None) == before


def test_a_lock_that_is_not_utf8_is_named(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On main a bare ``UnicodeDecodeError``: now what is wrong, where, and what to do; the forge is not asked."""
    from sphinx_contributions.cli.common import CommandError

    monkeypatch.chdir(site)
    (site / LOCK_NAME).write_bytes(b'{"version": 1, "contributions": {}}\n\xff\n')
    with pytest.raises(CommandError) as caught:
        sync(site)
    assert str(caught.value) == (
        f"contributions sync: {LOCK_NAME} is not UTF-8 text: byte 0xff cannot be read; fix or delete it, then "
        "sync again"
    )
    assert forge.requests == []


# item 7: the lock holds facts only


def test_an_etag_that_changes_without_a_fact_leaves_the_lock_byte_identical(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub embeds ``base.repo`` (its ``pushed_at``) in a pull request: every push upstream changes the
    answer's ETag, not its facts. The lock keeps every byte; the ETags live in the cache folder."""
    monkeypatch.chdir(site)
    sync(site)
    before = (site / LOCK_NAME).read_bytes()
    assert b"etag" not in before.lower()
    cache = json.loads((site / ".contributions-cache/answers.json").read_text(encoding="utf-8"))
    assert any(key.endswith("/repos/example-org/widget/pulls/12") for key in cache["answers"])
    forge.github["example-org/widget"].pulls[12]["base"]["repo"]["pushed_at"] = "2026-12-01T00:00:00Z"
    forge.reset()
    status, lines = sync(site)
    assert status == 0
    assert ("/github/repos/example-org/widget/pulls/12", 200) in forge.calls
    assert lines[2] == f"{PROGRESS[2]} (unchanged)"
    assert lines[3] == f"{LOCK_NAME} unchanged (3 entries)"
    assert (site / LOCK_NAME).read_bytes() == before


def test_init_ignores_the_cache_folder(tmp_path: Path) -> None:
    import subprocess

    from .test_init import FLAGS, run

    assert run("init", "site", *FLAGS, cwd=tmp_path).returncode == 0
    site = tmp_path / "site"
    subprocess.run(["git", "init", "-q", str(site)], check=True)
    (site / ".contributions-cache").mkdir()
    (site / ".contributions-cache/answers.json").write_text("{}", encoding="utf-8")
    ignored = subprocess.run(
        ["git", "-C", str(site), "check-ignore", ".contributions-cache/answers.json"], capture_output=True, text=True
    )
    assert ignored.stdout.strip() == ".contributions-cache/answers.json"


# item 8: retries and limits as the forges document them


def test_retry_after_comes_before_the_reset(forge: FakeForges, site: Path) -> None:
    """A secondary limit: 403 with ``retry-after: 3`` (and a primary reset far away): wait 3 s, ask again."""
    waits: list[float] = []
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [
        Reply(
            403,
            {"message": "You have exceeded a secondary rate limit."},
            {"Retry-After": "3", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1900000000"},
        )
    ]
    status, lines = sync(site, only="widget#12", sleep=waits.append)
    assert (status, waits) == (0, [3.0])
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed"


def test_a_secondary_limit_without_a_time_waits_a_minute(forge: FakeForges, site: Path) -> None:
    waits: list[float] = []
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(403, {"message": "You have exceeded a secondary rate limit."})]
    status, _ = sync(site, only="widget#12", sleep=waits.append)
    assert (status, waits) == (0, [60.0])


def test_a_retry_after_http_date_is_waited(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Retry-After`` may be an HTTP date (RFC 9110 section 10.2.3; GitHub documents seconds): 7 s from
    now is waited, not taken for no time at all (on main: a minute, with an invented reset)."""
    from email.utils import formatdate

    now = 1_800_000_000.0
    monkeypatch.setattr("sphinx_contributions.forges.http.time.time", lambda: now)
    waits: list[float] = []
    path = "/github/repos/example-org/widget/pulls/12"
    headers = {"Retry-After": formatdate(now + 7, usegmt=True)}
    forge.script[path] = [Reply(403, {"message": "You have exceeded a secondary rate limit."}, headers)]
    status, _ = sync(site, only="widget#12", sleep=waits.append)
    assert (status, waits) == (0, [7.0])


def test_a_limit_without_a_time_names_none(forge: FakeForges, site: Path) -> None:
    """A secondary limit that says no time, three times: the sync stops with "retry later", not a time it
    made up (on main: now + 60 s)."""
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(403, {"message": "You have exceeded a secondary rate limit."})] * 3
    status, lines = sync(site, only="widget#12")
    assert status == 1
    assert lines[0] == f"[1/1] widget#12: stopped: rate limit reached at {forge.url}{path}; retry later"


def test_a_reset_already_past_is_no_retry_without_a_wait(forge: FakeForges, site: Path) -> None:
    """``x-ratelimit-remaining: 0`` with a reset the local clock has passed (clocks differ): each retry
    waits the backoff (on main: three attempts at once)."""
    waits: list[float] = []
    path = "/github/repos/example-org/widget/pulls/12"
    past = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1000000000"}
    forge.script[path] = [Reply(403, {"message": "API rate limit exceeded for 127.0.0.1."}, past)] * 2
    status, _ = sync(site, only="widget#12", sleep=waits.append, retry_wait=1.5)
    assert (status, waits) == (0, [1.5, 1.5])


def test_a_503_retry_after_http_date_is_waited(forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from email.utils import formatdate

    now = 1_800_000_000.0
    monkeypatch.setattr("sphinx_contributions.forges.http.time.time", lambda: now)
    waits: list[float] = []
    path = "/github/repos/example-org/widget/pulls/12"
    headers = {"Retry-After": formatdate(now + 4, usegmt=True)}
    forge.script[path] = [Reply(503, {"message": "Service Unavailable"}, headers)]
    status, _ = sync(site, only="widget#12", sleep=waits.append)
    assert (status, waits) == (0, [4.0])


def test_a_422_says_the_apis_own_detail(forge: FakeForges, site: Path) -> None:
    """GitHub's validation error (its documented ``validation_failed`` shape: ``message`` and ``errors``,
    each with ``resource``, ``field`` and ``code``, or a ``custom`` one with its own ``message``): the line
    says each detail, not only "Validation Failed" (on main: only that)."""
    path = "/github/repos/example-org/widget/pulls/12"
    body = {
        "message": "Validation Failed",
        "errors": [
            {"resource": "PullRequest", "field": "number", "code": "invalid"},
            {"resource": "PullRequest", "code": "custom", "message": "No commit found for SHA: abc"},
        ],
        "documentation_url": "https://docs.github.com/rest/pulls/pulls#get-a-pull-request",
    }
    forge.script[path] = [Reply(422, body)]
    status, lines = sync(site, only="widget#12")
    assert status == 1
    assert lines[0] == (
        f"[1/1] widget#12: failed: {forge.url}{path}: HTTP 422 Unprocessable Entity: Validation Failed: "
        "PullRequest number invalid; No commit found for SHA: abc"
    )


def test_a_503_retry_after_is_waited(forge: FakeForges, site: Path) -> None:
    waits: list[float] = []
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(503, {"message": "Service Unavailable"}, {"Retry-After": "7"})]
    status, _ = sync(site, only="widget#12", sleep=waits.append)
    assert (status, waits) == (0, [7.0])


def test_a_trickling_answer_meets_the_whole_request_deadline(forge: FakeForges, site: Path) -> None:
    """A server that sends a byte every 0.2 s (3.4 s in all) never trips a per-read timeout of 1 s; the
    deadline of the whole request does: the first answer is given up on, the retry gets the real one."""
    path = "/github/repos/example-org/widget/pulls/12"
    forge.script[path] = [Reply(200, {"title": "slow", "state": "open"}, trickle=0.2)]
    status, lines = sync(site, only="widget#12", timeout=1.0)
    assert status == 0
    assert forge.arrivals.count(path) == 2
    assert lines[0].startswith("[1/1] widget#12: merged on 2024-03-01")


def test_an_unreachable_host_skips_its_other_write_ups_in_one_line(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline or refused: one failure (after its retries) for the host, its other write-ups skipped in the
    same line, whichever forge's they are (GitLab and Codeberg here share the dead host); the other hosts'
    go on (issue 27, item 8)."""
    import socket

    monkeypatch.chdir(site)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GITLAB_API_URL", f"http://127.0.0.1:{port}/api/v4")
    monkeypatch.setenv("CODEBERG_API_URL", f"http://127.0.0.1:{port}/api/v1")
    add_page(site, "gadget-3", "gadget-4", ":pr: 3", ":pr: 4")
    add_page(site, "gadget-3", "gadget-5", ":pr: 3", ":pr: 5")
    status, lines = sync(site)
    assert status == 1
    assert lines == [
        f"[1/5] gadget#3: failed: cannot reach http://127.0.0.1:{port}: ConnectError after 3 attempts; skipping "
        "the other write-ups on that host: GitLab's 2, Codeberg's 1",
        "[5/5] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed",
        f"wrote {LOCK_NAME} (1 entry)",
        "4 write-ups not synced",
    ]


def test_the_skipped_write_ups_are_counted_per_forge_on_the_host(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dead host that serves GitLab's write-up and GitHub's one: the line names whose write-ups it skips
    and how many of each (issue 33: "skipping the host's 3 other write-ups" named neither, for a host with
    one); the live forge's write-up is synced."""
    import socket

    monkeypatch.chdir(site)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GITLAB_API_URL", f"http://127.0.0.1:{port}/api/v4")
    monkeypatch.setenv("GITHUB_API_URL", f"http://127.0.0.1:{port}")
    status, lines = sync(site)
    assert status == 1
    assert lines == [
        f"[1/3] gadget#3: failed: cannot reach http://127.0.0.1:{port}: ConnectError after 3 attempts; skipping "
        "the other write-ups on that host: GitHub's 1",
        "[2/3] gizmo#5: open, issue #4 open",
        f"wrote {LOCK_NAME} (1 entry)",
        "2 write-ups not synced",
    ]


def test_a_host_whose_name_does_not_resolve_is_not_retried(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline (or a wrong host): the name does not resolve, so a retry seconds later finds the same; one
    line, no backoff waits (issue 33: before, about 11 s of retries first). ``.invalid`` never resolves."""
    import socket

    monkeypatch.chdir(site)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GITLAB_API_URL", "http://forge.invalid/api/v4")
    monkeypatch.setenv("CODEBERG_API_URL", f"http://127.0.0.1:{port}/api/v1")
    waits: list[float] = []
    status, lines = sync(site, sleep=waits.append)
    assert status == 1
    assert lines[0] == (
        "[1/3] gadget#3: failed: cannot reach http://forge.invalid: its name does not resolve (offline, or no "
        "such host); not retried"
    )
    assert lines[1:] == [
        f"[2/3] gizmo#5: failed: cannot reach http://127.0.0.1:{port}: ConnectError after 3 attempts",
        "[3/3] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed",
        f"wrote {LOCK_NAME} (1 entry)",
        "2 write-ups not synced",
    ]
    assert waits == [0.0, 0.0]  # the refused connection (Codeberg's) is retried, twice; the unresolved name not


# item 9: GitHub's headers and tokens, releases once per repository, the base branch


def test_github_media_type_version_and_token_order(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GH_TOKEN", "from-gh")
    monkeypatch.setenv("GITHUB_TOKEN", "from-github")
    sync(site, only="widget#12")
    github = [headers for path, headers in forge.requests if path.startswith("/github/")]
    assert github
    for headers in github:
        assert headers["accept"] == "application/vnd.github+json"
        assert headers["x-github-api-version"] == "2022-11-28"
        assert headers["authorization"] == "Bearer from-gh"  # gh's order: GH_TOKEN first


def test_releases_are_fetched_once_per_repository(forge: FakeForges, site: Path) -> None:
    repo = forge.github["example-org/widget"]
    repo.pulls[13] = dict(repo.pulls[12], number=13)
    add_page(site, "widget-12", "widget-13", ":pr: 12", ":pr: 13")
    status, lines = sync(site)
    assert status == 0
    assert lines[3] == "[4/4] widget#13: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed"
    assert forge.count("/widget/releases") == 1


def test_a_merge_into_another_branch_says_so(forge: FakeForges, site: Path) -> None:
    repo = forge.github["example-org/widget"]
    repo.pulls[12] = github_pull(
        "example-org/widget", 12, "Fix the widget", "closed", "2024-03-01T10:00:00Z", WIDGET_SHA, (1, 1, 1), "", "1.x"
    )
    repo.branches.add("1.x")  # a maintenance branch: "Get a branch" answers it under its own name
    _, lines = sync(site, only="widget#12")
    assert lines[0] == (
        "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed; merged into 1.x, not the "
        "default branch main"
    )


def test_a_merge_into_the_default_branch_before_its_rename_says_nothing(forge: FakeForges, site: Path) -> None:
    """Merged into ``master`` before the repository renamed it ``main``: GitHub's "Get a branch" answers
    ``master`` with a 301 to ``main``, so the merge went into the default branch (on main: "merged into
    master, not the default branch main" on every such pull request)."""
    repo = forge.github["example-org/widget"]
    repo.pulls[12] = github_pull(
        "example-org/widget",
        12,
        "Fix the widget",
        "closed",
        "2024-03-01T10:00:00Z",
        WIDGET_SHA,
        (1, 1, 1),
        "",
        "master",
    )
    repo.renamed_branches["master"] = "main"
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed"
    assert forge.count("/branches/master") == 1 and forge.count("/branches/main") == 1


def test_a_repository_named_issues_is_asked_conditionally(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The conditional state is keyed by address, not guessed from it: ``example-org/issues`` gets its 304s."""
    monkeypatch.chdir(site)
    forge.github["example-org/issues"] = forge.github.pop("example-org/widget")
    page = site / "contributions/widget-12.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(":repo: example-org/widget", ":repo: example-org/issues"),
        encoding="utf-8",
    )
    sync(site, only="issues#12")
    forge.reset()
    status, lines = sync(site, only="issues#12")
    assert status == 0
    assert lines[0].endswith("(unchanged)")
    assert forge.statuses() == [304] * 5


def test_etags_are_kept_apart_for_a_token_and_without(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub's ETags vary by ``Authorization``: an ETag fetched without a token is not asked with one (and
    a 304 costs no rate limit only when the request is authorised)."""
    sync(site, only="widget#12")
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    forge.reset()
    sync(site, only="widget#12")
    assert forge.requests and not any("if-none-match" in headers for _, headers in forge.requests)
    forge.reset()
    left = forge.remaining["token"]
    status, lines = sync(site, only="widget#12")
    assert (status, forge.statuses()) == (0, [304] * 5)
    assert forge.remaining["token"] == left  # authorised 304s are free
    assert lines[0].endswith("(unchanged)")


# 27: one repository name under two owners, each page with its own key


def test_two_owners_of_one_repository_name_each_get_their_own_entry_and_facts(
    forge: FakeForges, site: Path, tmp_path: Path
) -> None:
    """``other-org/widget#12`` beside ``example-org/widget#12``, with the ``:key:`` ``new`` gives it: the lock
    holds an entry under each page's own key (before: both under ``widget#12``, the second overwriting the
    first, and the ``:key:`` page had no facts), and the strict build shows each page its own facts."""
    other = widget_repo()
    other.pulls[12] = github_pull(
        "other-org/widget", 12, "Fix the other widget", "closed", "2024-03-01T10:00:00Z", WIDGET_SHA, (1, 1, 1), ""
    )
    forge.github["other-org/widget"] = other
    add_page(site, "widget-12", "other-org-widget-12", ":repo: example-org/widget\n",
             ":repo: other-org/widget\n:key: other-org-widget#12\n")  # fmt: skip
    status, lines = sync(site)
    assert status == 0, lines
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert {key: (entry["repository"], entry["title"]) for key, entry in entries.items()} == {
        "gadget#3": ("gitlab.com/group/sub/gadget", "Make the gadget faster"),
        "gizmo#5": ("codeberg.org/someone/gizmo", "Teach the gizmo to count"),
        "other-org-widget#12": ("other-org/widget", "Fix the other widget"),
        "widget#12": ("example-org/widget", "Fix the widget"),
    }
    done = rtd_build(site, tmp_path / "out/html")
    assert (done.returncode, done.stderr) == (0, "")
    json_export = json.loads((tmp_path / "out/html/contributions.json").read_text(encoding="utf-8"))
    forge_titles = {item["key"]: (item.get("forge") or {}).get("title") for item in json_export["contributions"]}
    assert forge_titles["other-org-widget#12"] == "Fix the other widget"
    assert forge_titles["widget#12"] == "Fix the widget"


def test_new_for_the_second_owner_takes_its_own_entry_from_the_lock(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Offline, ``new other-org/widget#12`` fills in from the entry fetched for ``other-org/widget``, not from
    ``widget#12`` (``example-org``'s, the entry its repository name and number would name)."""
    other = widget_repo()  # its issue 10, which the page names
    other.pulls[12] = github_pull("other-org/widget", 12, "Fix the other widget", "open", None, None, (1, 1, 1), "")
    forge.github["other-org/widget"] = other
    add_page(site, "widget-12", "other-org-widget-12", ":repo: example-org/widget\n",
             ":repo: other-org/widget\n:key: other-org-widget#12\n")  # fmt: skip
    assert sync(site)[0] == 0
    (site / "contributions/other-org-widget-12.md").unlink()
    monkeypatch.setenv("CONTRIBUTIONS_OFFLINE", "1")
    assert main(["new", "https://github.com/other-org/widget/pull/12", "--root", str(site)]) == 0
    written = sorted(p.name for p in (site / "contributions").glob("*other*"))
    assert written == ["other-org-widget-12.md"]
    text = (site / "contributions/other-org-widget-12.md").read_text(encoding="utf-8")
    assert text.startswith("# Fix the other widget\n\n:::{contribution}\n:repo: other-org/widget\n:pr: 12\n")
    assert "% The forge says (contributions.lock.json): open.\n" in text


# issue 35, item 7: the release search remembers each tag, is bounded, keeps what it fetched, and knows
# what it does not know


def test_a_new_release_costs_one_compare_not_a_new_search(forge: FakeForges, site: Path) -> None:
    """Three releases since the merge, none of which contains it (their tags came before it): three
    compares, each tag's answer kept in the cache folder. A fourth release that ships it costs one compare
    (on main: four, the whole search again because the list of releases changed)."""
    forge.github["example-org/widget"] = widget_repo(3, None)
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, in no release yet, issue #10 closed"
    assert forge.count("/compare/") == 3
    forge.github["example-org/widget"] = widget_repo(4, 3)
    forge.reset()
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.3.0, issue #10 closed"
    assert [path for path in forge.arrivals if "/compare/" in path] == [
        f"/github/repos/example-org/widget/compare/{WIDGET_SHA}...v1.3.0"
    ]
    cache = json.loads((site / ".contributions-cache" / "answers.json").read_text(encoding="utf-8"))
    assert cache["compared"] == {
        f"example-org/widget@{WIDGET_SHA}": {"v1.0.0": False, "v1.1.0": False, "v1.2.0": False, "v1.3.0": True}
    }


def test_a_pull_request_in_no_release_compares_at_most_the_bound_per_sync(forge: FakeForges, site: Path) -> None:
    """Merged into main after v1.0; since then 26 releases of a 1.0.x line, none of which holds it (the
    review's 26 compare calls in one sync). One sync compares 10 and says so in its line; the next goes on
    where it stopped; the third ends the search ("in no release yet"), and a fourth compares nothing."""
    repo = graph_repo("2024-05-01T00:00:00Z")
    (v10,) = repo.line(["v1.0"])
    repo.commit(WIDGET_SHA, v10)
    release(repo, "v1.0", v10, "2024-04-01T00:00:00Z")
    for n, sha in enumerate(repo.line([f"v1.0.{n}" for n in range(1, 27)], v10), start=1):
        release(repo, f"v1.0.{n}", sha, f"2024-05-{n + 1:02d}T00:00:00Z")
    forge.github["example-org/widget"] = repo
    said = []
    for _ in range(4):
        forge.reset()
        status, lines = sync(site, only="widget#12")
        said.append((status, lines[0], forge.count("/compare/")))
    bound = "(at most 10 compares per pull request and sync; the next sync goes on)"
    assert said == [
        (
            0,
            "[1/1] widget#12: merged on 2024-05-01, issue #10 closed; first release not known yet: 16 of the 26 "
            f"releases since the merge not compared {bound}",
            10,
        ),
        (
            0,
            "[1/1] widget#12: merged on 2024-05-01, issue #10 closed; first release not known yet: 6 of the 26 "
            f"releases since the merge not compared {bound} (unchanged)",
            10,
        ),
        (0, "[1/1] widget#12: merged on 2024-05-01, in no release yet, issue #10 closed (unchanged)", 6),
        (0, "[1/1] widget#12: merged on 2024-05-01, in no release yet, issue #10 closed (unchanged)", 0),
    ]
    # main's next release ships it: one compare. Then, the cache folder lost, the bound cuts the search
    # short before it: the lock's first release is kept, and the line says it was not checked again
    (v20,) = repo.line(["v2.0"], WIDGET_SHA)
    release(repo, "v2.0", v20, "2024-06-01T00:00:00Z")
    forge.reset()
    _, lines = sync(site, only="widget#12")
    assert (lines[0], forge.count("/compare/")) == (
        "[1/1] widget#12: merged on 2024-05-01, first shipped in v2.0, issue #10 closed",
        1,
    )
    shutil.rmtree(site / ".contributions-cache")
    forge.reset()
    status, lines = sync(site, only="widget#12")
    assert (status, lines[0], forge.count("/compare/")) == (
        0,
        "[1/1] widget#12: merged on 2024-05-01, first shipped in v2.0, issue #10 closed; v2.0 as the lock says, "
        f"not checked again yet: 17 of the 27 releases since the merge not compared {bound} (unchanged)",
        10,
    )


COMPARE_422 = github_error(
    "Validation Failed",
    [{"resource": "Comparison", "field": "base", "code": "invalid"}],
    "https://docs.github.com/rest/commits/commits#compare-two-commits",
)


def test_a_failed_compare_keeps_the_pull_requests_facts(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compare answered with a 422 (GitHub's documented validation error): the pull request's facts are
    written, the line says the API's own detail (on main: the write-up failed, nothing written, only
    "Validation Failed"). A first release found by an earlier sync is kept when the search fails again."""
    monkeypatch.chdir(site)
    compare = f"/github/repos/example-org/widget/compare/{WIDGET_SHA}...v1.0.0"
    forge.script[compare] = [Reply(422, COMPARE_422)]
    status, lines = sync(site, only="widget#12")
    failed = (
        f"the release search failed: {forge.url}{compare}: HTTP 422 Unprocessable Entity: Validation Failed: "
        "Comparison base invalid"
    )
    assert (status, lines) == (
        1,
        [
            f"[1/1] widget#12: merged on 2024-03-01, issue #10 closed; {failed}",
            f"wrote {LOCK_NAME} (1 entry)",
            "1 write-up not synced",
        ],
    )
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert entries["widget#12"] == {
        "repository": "example-org/widget",
        "pr": 12,
        "fetched_at": FETCHED,
        "state": "merged",
        "title": "Fix the widget",
        "merged_at": "2024-03-01T10:00:00Z",
        "merge_commit": WIDGET_SHA,
        "additions": 10,
        "deletions": 2,
        "changed_files": 3,
        "issues": [{"number": 10, "title": "The widget breaks", "state": "closed"}],
        "first_release": None,
        "opened_at": "2024-01-01T00:00:00Z",
        "commits": 1,
        "approvals": 1,
        "files": ["src/widget.py", "tests/test_widget.py", "docs/widget.md"],
    }
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed"
    shutil.rmtree(site / ".contributions-cache")
    forge.script[compare] = [Reply(422, COMPARE_422)]
    status, lines = sync(site, only="widget#12")
    assert (status, lines[0]) == (
        1,
        f"[1/1] widget#12: merged on 2024-03-01, first shipped in v1.2.0, issue #10 closed; {failed} (unchanged)",
    )


def test_a_rate_limit_in_the_release_search_keeps_the_pull_requests_facts(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub's primary limit (403, ``x-ratelimit-remaining: 0``) on a compare: the pull request's facts are
    written and GitHub is stopped, in one line."""
    monkeypatch.chdir(site)
    reset = 1_900_000_000
    compare = f"/github/repos/example-org/widget/compare/{WIDGET_SHA}...v1.0.0"
    forge.script[compare] = [
        Reply(
            403,
            github_error("API rate limit exceeded for 127.0.0.1.", docs="https://docs.github.com/rest/rate-limit"),
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)},
        )
    ]
    status, lines = sync(site)
    when = datetime.fromtimestamp(reset, UTC).strftime("%Y-%m-%d %H:%M:%S")
    assert (status, lines) == (
        1,
        [
            PROGRESS[0],
            PROGRESS[1],
            "[3/3] widget#12: merged on 2024-03-01, issue #10 closed; the release search stopped: rate limit "
            f"reached at {forge.url}{compare}; retry after {when} UTC",
            f"wrote {LOCK_NAME} (3 entries)",
            "kept what was fetched; run 'contributions sync' again once the rate limit lifts",
            "1 write-up not synced",
        ],
    )
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert (entries["widget#12"]["title"], entries["widget#12"]["first_release"]) == ("Fix the widget", None)


def test_a_merge_without_a_merge_commit_checks_the_releases(forge: FakeForges, site: Path) -> None:
    """GitHub documents ``merge_commit_sha`` as nullable, and a pull request merged in 2012 has none. No
    release since the merge: "in no release yet", after asking the releases; a release since: its first
    release is not known, and the line says why (on main: "in no release yet" both times, no release asked)."""
    repo = graph_repo("2012-05-01T00:00:00Z")
    repo.pulls[12] = github_pull(
        "example-org/widget", 12, "Fix the widget", "closed", "2012-05-01T00:00:00Z", None, (10, 2, 3), "Fixes #10."
    )
    v09, v10 = repo.line(["v0.9", "v1.0"])
    release(repo, "v0.9", v09, "2012-04-01T00:00:00Z")
    forge.github["example-org/widget"] = repo
    status, lines = sync(site, only="widget#12")
    assert (status, lines[0]) == (0, "[1/1] widget#12: merged on 2012-05-01, in no release yet, issue #10 closed")
    assert (forge.count("/releases"), forge.count("/compare/")) == (1, 0)
    release(repo, "v1.0", v10, "2012-06-01T00:00:00Z")
    status, lines = sync(site, only="widget#12")
    assert (status, lines[0]) == (
        0,
        "[1/1] widget#12: merged on 2012-05-01, issue #10 closed; first release not known: the forge gives no "
        "merge commit to compare with the 1 release published since the merge (unchanged)",
    )
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    assert (entries["widget#12"]["merge_commit"], entries["widget#12"]["first_release"]) == (None, None)


# issue 46: how each pull request was made, against the fakes' documented lists


def made_of(site: Path, key: str) -> dict[str, object]:
    """The facts of how ``key``'s pull request was made, as the lock holds them."""
    entries = lock(site)["contributions"]
    assert isinstance(entries, dict)
    made = ("opened_at", "commits", "approvals", "closes", "files", "files_at_least", "changed_files")
    return {name: value for name, value in entries[key].items() if name in made}


def test_a_pull_request_of_3500_files_keeps_the_3000_github_lists(forge: FakeForges, site: Path) -> None:
    """GitHub's "List pull requests files" gives at most 3,000 files; the pull request's own answer counts
    3,500: the lock keeps both, so the build can say how many were listed (35 pages of 100 would be asked
    by a client that trusted the count; 30 are)."""
    repo = widget_repo()
    repo.pulls[12]["changed_files"] = 3500
    repo.files[12] = [f"pkg/module_{n}.py" for n in range(3000)] + [f"tests/test_{n}.py" for n in range(500)]
    forge.github["example-org/widget"] = repo
    assert sync(site, only="widget#12")[0] == 0
    made = made_of(site, "widget#12")
    assert (made["changed_files"], made["files"]) == (3500, [f"pkg/module_{n}.py" for n in range(3000)])
    assert forge.count("/pulls/12/files") == 30


def test_gitlab_says_at_least_a_thousand_files(forge: FakeForges, site: Path) -> None:
    """GitLab's ``changes_count`` is a string, ``"1000+"`` past its limit: a lower bound, kept as one."""
    forge.gitlab["group/sub/gadget"].pulls[3]["changes_count"] = "1000+"
    forge.gitlab["group/sub/gadget"].files[3] = [f"src/{n}.c" for n in range(1000)]
    assert sync(site, only="gadget#3")[0] == 0
    made = made_of(site, "gadget#3")
    assert (made["changed_files"], made["files_at_least"], len(made["files"])) == (1000, True, 1000)  # type: ignore[arg-type]


def test_codeberg_facts(forge: FakeForges, site: Path) -> None:
    repo = forge.codeberg["someone/gizmo"]
    repo.files[5] = ["count.go", "count_test.go"]
    repo.reviews[5] = [("keeper", "REQUEST_CHANGES"), ("keeper", "APPROVED")]
    repo.commit_counts[5] = 3
    assert sync(site, only="gizmo#5")[0] == 0
    assert made_of(site, "gizmo#5") == {
        "opened_at": "2023-12-31T22:00:00Z",
        "commits": 3,
        "approvals": 1,
        "files": ["count.go", "count_test.go"],
        "changed_files": 2,
    }


def test_a_renamed_repository_gives_its_facts_through_the_redirect(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old name answers every address with a 301 to the new one (the files and reviews too), followed
    within the origin."""
    repo = widget_repo()
    repo.pulls[12]["base"]["repo"]["full_name"] = "example-org/widget-ng"
    forge.github["example-org/widget-ng"] = repo
    forge.renamed["example-org/widget"] = "example-org/widget-ng"
    assert sync(site, only="widget#12")[0] == 0
    assert made_of(site, "widget#12")["files"] == ["src/widget.py", "tests/test_widget.py", "docs/widget.md"]
    assert ("/github/repos/example-org/widget/pulls/12/reviews?per_page=100", 301) in forge.calls


def test_a_private_repository_answers_404_without_a_token(
    forge: FakeForges, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub answers 404, not 403, for a repository the caller may not see: the line says it may be private;
    with a token, its facts."""
    forge.private.add("example-org/widget")
    status, lines = sync(site, only="widget#12")
    assert (status, lines[0]) == (
        1,
        "[1/1] widget#12: not found on the forge (deleted, or private and no token): "
        f"{forge.url}/github/repos/example-org/widget/pulls/12",
    )
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    assert sync(site, only="widget#12")[0] == 0
    assert made_of(site, "widget#12")["approvals"] == 1


def test_a_list_the_forge_does_not_have_leaves_its_fact_out(forge: FakeForges, site: Path) -> None:
    """An older GitLab without "List merge request diffs" (a 404): no files in the lock, nothing guessed; the
    other facts are kept."""
    path = "/gitlab/api/v4/projects/group%2Fsub%2Fgadget/merge_requests/3/diffs"
    forge.script[path] = [Reply(404, {"message": "404 Not found"})]
    assert sync(site, only="gadget#3")[0] == 0
    assert made_of(site, "gadget#3") == {
        "opened_at": "2024-01-01T00:00:00Z",
        "commits": 2,
        "approvals": 2,
        "closes": [8],
        "changed_files": 3,
    }


def test_a_rate_limit_halfway_through_the_files_stops_the_forge_and_keeps_the_old_entry(
    forge: FakeForges, site: Path
) -> None:
    """The limit reached on the second page of a pull request's files: that forge stops, the lock keeps the
    entry it had (no half list of files)."""
    repo = widget_repo()
    repo.files[12] = [f"src/{n}.py" for n in range(150)]
    forge.github["example-org/widget"] = repo
    sync(site)
    before = made_of(site, "widget#12")
    repo.files[12] = [f"lib/{n}.py" for n in range(150)]
    path = "/github/repos/example-org/widget/pulls/12/files"
    reset = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1900000000"}
    forge.script[path] = [
        Reply(200, [{"filename": "lib/0.py"}], {"Link": f'<{forge.url}{path}?per_page=100&page=2>; rel="next"'}),
        Reply(403, github_error("API rate limit exceeded"), reset),
    ]
    status, lines = sync(site)
    assert status == 1
    assert lines[2] == (
        f"[3/3] widget#12: stopped: rate limit reached at {forge.url}{path}?per_page=100&page=2; retry after "
        "2030-03-17 17:46:40 UTC"
    )
    assert made_of(site, "widget#12") == before
