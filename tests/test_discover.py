"""``contributions discover`` against the fake forges (:mod:`tests.forge_server`: GitHub's search, GitLab's
``GET /merge_requests``, Gitea's issue search, each as its documentation gives it): exactly the merged pull
requests a user wrote in repositories they do not own, on the three forges, newest first, each written-up
one marked with its page; ``--new``; ``--json``; GitHub's cap of 1,000 results for one search, its
``incomplete_results`` and its search rate limit reached halfway; the tokens GitLab and Codeberg need, said
plainly; tokens only to their own origin; offline."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sphinx_contributions.cli.discover import parse_user, run_discover
from sphinx_contributions.cli.main import main
from sphinx_contributions.cli.sync import Apis

from .conftest import ROOTS
from .forge_server import Authored, FakeForges, gitlab_mr

TOKENS = {"GH_TOKEN": "gh-secret", "GITLAB_TOKEN": "gl-secret", "CODEBERG_TOKEN": "cb-secret"}


@pytest.fixture
def forge(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeForges]:
    server = FakeForges().start()
    server.authored = [
        Authored("other/thing", 7, "Speed up the thing", "ada", "2024-04-01T00:00:00Z", "2024-04-03T09:00:00Z"),
        Authored("example-org/widget", 12, "Fix the widget", "ada", "2024-02-20T00:00:00Z", "2024-03-01T10:00:00Z"),
        Authored("ada/own", 1, "My own repository", "ada", "2024-05-01T00:00:00Z", "2024-05-01T01:00:00Z"),
        Authored("other/thing", 8, "Still open", "ada", "2024-05-02T00:00:00Z"),
        Authored("other/thing", 9, "By someone else", "bob", "2024-05-03T00:00:00Z", "2024-05-04T00:00:00Z"),
    ]
    server.gitlab_mrs = [
        gitlab_mr("group/sub/gadget", 3, "Make the gadget faster", "merged", "2024-05-02T08:00:00.000Z", None, "ada"),
        gitlab_mr("ada/mine", 2, "In my own namespace", "merged", "2024-06-01T00:00:00.000Z", None, "ada"),
        gitlab_mr("group/other", 5, "Not merged", "opened", None, None, "ada"),
        gitlab_mr("group/other", 6, "By someone else", "merged", "2024-06-02T00:00:00.000Z", None, "bob"),
    ]
    server.codeberg_pulls = [
        Authored(
            "someone/gizmo",
            5,
            "Teach the gizmo to count",
            "ada",
            "2024-01-01T00:00:00+02:00",
            "2024-01-09T12:00:00+02:00",
        ),
        Authored("ada/notes", 4, "Mine", "ada", "2024-02-01T00:00:00+02:00", "2024-02-02T00:00:00+02:00"),
        Authored("someone/gizmo", 6, "Closed, not merged", "ada", "2024-02-01T00:00:00+02:00"),
        Authored(
            "someone/gizmo", 7, "By someone else", "bob", "2024-03-01T00:00:00+02:00", "2024-03-02T00:00:00+02:00"
        ),
    ]
    server.users = {"gl-secret": "ada", "cb-secret": "ada"}
    monkeypatch.setenv("GITHUB_API_URL", server.url + "/github")
    monkeypatch.setenv("GITLAB_API_URL", server.url + "/gitlab/api/v4")
    monkeypatch.setenv("CODEBERG_API_URL", server.url + "/codeberg/api/v1")
    for name in ("GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CODEBERG_TOKEN", "CONTRIBUTIONS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    yield server
    server.stop()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = Path(shutil.copytree(ROOTS / "test-sync", tmp_path / "site"))
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def tokens(forge: FakeForges, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in TOKENS.items():
        monkeypatch.setenv(name, value)


ALL = ["--user", "ada", "--user", "gitlab.com/ada", "--user", "https://codeberg.org/ada"]


def discover(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    status = main(["discover", "--retry-wait", "0", *args])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


@pytest.mark.usefixtures("tokens")
def test_lists_exactly_the_merged_pull_requests_in_others_repositories(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert discover(capsys, *ALL) == (
        0,
        [
            "GitHub user ada: 2 merged pull requests in others' repositories",
            "GitLab user ada: 1 merged pull request in others' repositories",
            "Codeberg user ada: 1 merged pull request in others' repositories",
            "",
            "  #  merged      pull request                                            title                     "
            "write-up",
            "  1  2024-05-02  https://gitlab.com/group/sub/gadget/-/merge_requests/3  Make the gadget faster    "
            "contributions/gadget-3.md",
            "  2  2024-04-03  https://github.com/other/thing/pull/7                   Speed up the thing        -",
            "  3  2024-03-01  https://github.com/example-org/widget/pull/12           Fix the widget            "
            "contributions/widget-12.md",
            "  4  2024-01-09  https://codeberg.org/someone/gizmo/pulls/5              Teach the gizmo to count  "
            "contributions/gizmo-5.md",
            "",
            "1 without a write-up: 'contributions discover --new 2' writes their drafts",
        ],
        "",
    )


@pytest.mark.usefixtures("tokens")
def test_the_search_asks_what_each_api_documents(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    discover(capsys, *ALL)
    assert forge.arrivals == [
        "/github/search/issues?q=is%3Apr+is%3Amerged+author%3Aada+-user%3Aada&sort=created&order=desc&per_page=100",
        "/gitlab/api/v4/merge_requests?author_username=ada&scope=all&state=merged&order_by=created_at&sort=desc"
        "&per_page=100",
        "/codeberg/api/v1/user",
        "/codeberg/api/v1/repos/issues/search?type=pulls&state=closed&created=true&limit=50",
    ]


def test_tokens_go_only_to_their_own_origin(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in TOKENS.items():
        monkeypatch.setenv(name, value)
    discover(capsys, *ALL)
    sent = {
        path.split("/")[1]: {k: v for k, v in headers.items() if k in ("authorization", "private-token")}
        for path, headers in forge.requests
    }
    assert sent == {
        "github": {"authorization": "Bearer gh-secret"},
        "gitlab": {"private-token": "gl-secret"},
        "codeberg": {"authorization": "token cb-secret"},
    }


def test_gitlab_and_codeberg_without_a_token_say_so_plainly(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = discover(capsys, *ALL)
    assert (status, out[:3]) == (
        0,
        [
            "GitHub user ada: 2 merged pull requests in others' repositories",
            "GitLab user ada: not searched: its merge requests API lists another project's merge requests only "
            "with a token: set GITLAB_TOKEN (a personal access token with the read_api scope)",
            "Codeberg user ada: not searched: its search finds only the pull requests of the token's own user: "
            "set CODEBERG_TOKEN to a token of ada's",
        ],
    )
    assert [path for path in forge.arrivals if not path.startswith("/github/")] == []


def test_a_codeberg_token_of_another_user_is_not_taken_for_the_users(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEBERG_TOKEN", "bobs")
    forge.users["bobs"] = "bob"
    status, out, _ = discover(capsys, "--user", "codeberg.org/ada")
    assert (status, out) == (
        1,
        [
            "Codeberg user ada: not searched: CODEBERG_TOKEN is bob's, and its search finds only the token's own "
            "user's pull requests: set it to a token of ada's"
        ],
    )
    assert forge.arrivals == ["/codeberg/api/v1/user"]


def test_the_json_list(forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = discover(capsys, "--user", "ada", "--json")
    assert (status, err) == (0, "")
    assert json.loads("\n".join(out)) == {
        "searches": [
            {
                "forge": "github",
                "user": "ada",
                "status": "complete",
                "found": 2,
                "said": "GitHub user ada: 2 merged pull requests in others' repositories",
                "notes": [],
            }
        ],
        "complete": True,
        "pull_requests": [
            {
                "n": 1,
                "forge": "github",
                "repository": "other/thing",
                "pr": 7,
                "key": "thing#7",
                "url": "https://github.com/other/thing/pull/7",
                "title": "Speed up the thing",
                "merged_at": "2024-04-03T09:00:00Z",
                "page": None,
            },
            {
                "n": 2,
                "forge": "github",
                "repository": "example-org/widget",
                "pr": 12,
                "key": "widget#12",
                "url": "https://github.com/example-org/widget/pull/12",
                "title": "Fix the widget",
                "merged_at": "2024-03-01T10:00:00Z",
                "page": "contributions/widget-12.md",
            },
        ],
    }


def test_new_writes_the_drafts_of_the_chosen(forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = discover(capsys, "--user", "ada", "--new", "1", "2")
    assert status == 0
    assert out[-4:] == [
        "1: wrote contributions/thing-7.md: a draft of thing#7, left out of the published site",
        "1: GitHub did not answer: fill in by hand the title, :status: (merged, open or closed), :date: (the day "
        "it merged) and :issue: (the issues it closes)",
        "1: next: write its title, summary and sections (preview: contributions serve), then run: contributions check",
        "2: https://github.com/example-org/widget/pull/12 is written up in contributions/widget-12.md; no draft "
        "written",
    ]
    text = (site / "contributions/thing-7.md").read_text(encoding="utf-8")
    assert text.startswith(
        "# TODO: the title of thing#7\n\n:::{contribution}\n:repo: other/thing\n:pr: 7\n:status: draft\n"
    )
    assert discover(capsys, "--user", "ada")[1][-2:] == [
        "  1  2024-04-03  https://github.com/other/thing/pull/7          Speed up the thing  contributions/thing-7.md",
        "  2  2024-03-01  https://github.com/example-org/widget/pull/12  Fix the widget      "
        "contributions/widget-12.md",
    ]


def test_new_with_a_number_not_in_the_list(forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert discover(capsys, "--user", "ada", "--new", "3") == (
        2,
        [],
        "contributions discover: --new 3: the list has 1 to 2\n",
    )


def test_more_than_a_thousand_are_read_in_several_searches(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub gives at most 1,000 results for one search; 1,150 merged pull requests: the first search's ten
    pages, then one of those created up to the oldest seen (its first result seen again, not counted twice)."""
    monkeypatch.setenv("GH_TOKEN", "gh-secret")
    forge.authored = many(1150)
    status, out, _ = discover(capsys, "--user", "ada", "--json")
    document = json.loads("\n".join(out))
    assert status == 0
    assert document["searches"][0]["notes"] == [
        "GitHub's search gives at most 1,000 results: its 1,150 were read in 2 searches, each of those created "
        "before the last"
    ]
    numbers = [pull["pr"] for pull in document["pull_requests"]]
    assert numbers == list(range(1150, 0, -1))
    searches = [path for path in forge.arrivals if path.startswith("/github/search/issues")]
    assert len(searches) == 12


def many(count: int) -> list[Authored]:
    """``count`` merged pull requests of ada's in other/big, number n opened n minutes and merged n hours
    after the start of 2020."""
    start = datetime(2020, 1, 1, tzinfo=UTC)

    def at(delta: timedelta) -> str:
        return (start + delta).strftime("%Y-%m-%dT%H:%M:%SZ")

    return [
        Authored("other/big", n, f"Change {n}", "ada", at(timedelta(minutes=n)), at(timedelta(hours=n)))
        for n in range(1, count + 1)
    ]


def test_incomplete_results_are_said(forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    forge.search_incomplete = True
    status, out, _ = discover(capsys, "--user", "ada")
    assert (status, out[:2]) == (
        0,
        [
            "GitHub user ada: 2 merged pull requests in others' repositories",
            "  GitHub's search says its results are incomplete (incomplete_results: it timed out): some merged pull "
            "requests may be missing; run discover again later",
        ],
    )


def test_the_search_rate_limit_reached_halfway_keeps_what_was_read(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a token GitHub's search allows 10 requests a minute; three left, 450 results: three pages read,
    the fourth refused (403, ``x-ratelimit-remaining: 0``, a reset past ``--max-wait``)."""
    forge.authored = many(450)
    forge.search_remaining["anonymous"] = 3
    status, out, _ = discover(capsys, "--user", "ada")
    assert status == 1
    assert out[0] == (
        "GitHub user ada: stopped after 300 merged pull requests in others' repositories: rate limit reached at "
        f"{forge.url}/github/search/issues?q=is%3Apr+is%3Amerged+author%3Aada+-user%3Aada&sort=created&order=desc"
        "&per_page=100&page=4; retry after 2030-03-17 17:46:40 UTC; a token (GH_TOKEN) raises GitHub's search "
        "limit from 10 to 30 requests a minute; the list is incomplete"
    )
    assert len([line for line in out if "https://github.com/other/big/pull/" in line]) == 300


def test_offline_says_so_and_fails(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTRIBUTIONS_OFFLINE", "1")
    assert discover(capsys, "--user", "ada") == (
        1,
        [],
        "contributions discover: offline (CONTRIBUTIONS_OFFLINE is set): discover asks the forges' search APIs; "
        "run it with a network\n",
    )
    assert forge.arrivals == []


def test_a_forge_that_cannot_be_reached_fails_the_run(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_API_URL", "http://does-not-resolve.invalid/api")
    status, out, _ = discover(capsys, "--user", "ada")
    assert (status, out) == (
        1,
        [
            "GitHub user ada: the search failed: cannot reach http://does-not-resolve.invalid: its name does not "
            "resolve (offline, or no such host); not retried"
        ],
    )


def test_the_users_come_from_the_profile_links(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conf = site / "conf.py"
    links = '["https://github.com/ada", "https://gitlab.com/ada/", "https://www.linkedin.com/in/ada"]'
    conf.write_text(conf.read_text(encoding="utf-8") + f"contributions_profile_links = {links}\n", encoding="utf-8")
    assert discover(capsys)[1][:2] == [
        "GitHub user ada: 2 merged pull requests in others' repositories",
        "GitLab user ada: not searched: its merge requests API lists another project's merge requests only with a "
        "token: set GITLAB_TOKEN (a personal access token with the read_api scope)",
    ]


def test_no_user_is_a_usage_error(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert discover(capsys) == (
        2,
        [],
        "contributions discover: whose pull requests? Give --user NAME (GitHub), gitlab.com/NAME or "
        "codeberg.org/NAME, or list your profiles in conf.py's contributions_profile_links ('contributions init "
        "--github NAME' writes one)\n",
    )


def test_in_a_terminal_it_asks_which_drafts_to_write(
    forge: FakeForges, site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--new``, where it may ask (a terminal): the numbers named are written, a word that is no
    number of the list is said and left out."""
    apis = Apis(timeout=2.0, retry_wait=0.0)
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return "1, 7 x"

    try:
        status = run_discover(site, [parse_user("ada")], apis=apis, ask=answer)
    finally:
        apis.close()
    captured = capsys.readouterr()
    assert (status, asked) == (0, ["\nWrite drafts of which? (1; Enter: none) "])
    assert captured.out.splitlines()[-3] == (
        "1: wrote contributions/thing-7.md: a draft of thing#7, left out of the published site"
    )
    assert captured.err == (
        "contributions discover: '7' is not a number of the list (1 to 2); left out\n"
        "contributions discover: 'x' is not a number of the list (1 to 2); left out\n"
    )
