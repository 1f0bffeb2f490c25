"""``contributions sync`` against a real HTTP server on 127.0.0.1 (:mod:`tests.forge_server`), a fake
GitHub, GitLab and Codeberg answering in their APIs' shapes: the lock it writes, conditional requests
(a second sync gets only 304s and changes nothing), the release search's bound on compare calls,
pagination, retries on 5xx and timeouts, a rate limit's stop, a deleted pull request, ``--only``,
``--dry-run`` and ``--discover``."""

from __future__ import annotations

import io
import json
import math
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest

from sphinx_contributions.cli.main import main
from sphinx_contributions.cli.sync import Apis, run_sync
from sphinx_contributions.lock import LOCK_NAME, SCHEMA_PATH

from .conftest import ROOTS
from .forge_server import (
    FakeForges,
    Reply,
    Repo,
    gitea_issue,
    gitea_pull,
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
    root, first = repo.line(["gadget root", "gadget v0.1"])
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
    apis = Apis(timeout=float(options.pop("timeout", 2.0)), retry_wait=0.0)  # type: ignore[arg-type]
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
    }
    gizmo = dict(entries["gizmo#5"])
    assert gizmo["state"] == "open" and gizmo["first_release"] is None and gizmo["merged_at"] is None
    assert forge.count("/gitlab/api/v4/projects/group%2Fsub%2Fgadget/merge_requests/3") == 1
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
    # a pull request, its issue and (merged) its releases per write-up, asked conditionally; no compare: the
    # first release found among the same releases is remembered in the cache folder
    assert forge.statuses() == [304] * 8
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
    assert forge.count(path) == 2  # the slow one (given up on) and the retry
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


def test_discover(forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    item = {"repository_url": f"{forge.url}/github/repos/other/thing", "number": 7, "title": "Speed up the thing"}
    known = {"repository_url": f"{forge.url}/github/repos/example-org/widget", "number": 12, "title": "Fix the widget"}
    forge.search["is:pr is:merged author:someone -user:someone"] = [item, known]
    assert main(["sync", "--root", str(site), "--discover", "someone"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Merged pull requests by someone without a write-up (1):",
        "  key      to start one                                             title",
        "  thing#7  contributions new https://github.com/other/thing/pull/7  Speed up the thing",
    ]


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
        ("/github/repos/example-org/widget/issues/10", 304),
        ("/github/repos/example-org/widget/releases?per_page=100", 304),
    ]
    forge.github["example-org/widget"] = widget_repo(4, 3)
    forge.reset()
    _, lines = sync(site, only="widget#12")
    assert lines[0] == "[1/1] widget#12: merged on 2024-03-01, first shipped in v1.3.0, issue #10 closed"
    assert forge.count("/compare/") <= math.ceil(math.log2(4)) + 2


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
        ("/github/repos/example-org/widget/issues/10", 304),
        ("/github/repos/example-org/widget/issues/11", 200),
        ("/github/repos/example-org/widget/releases?per_page=100", 304),
    ]
