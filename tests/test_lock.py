"""The build reads ``contributions.lock.json`` and never the network (``tests/roots/test-sync``, its lock
written by ``contributions sync`` against the fake forges of :mod:`tests.forge_server`): the header shows
"merged on DATE" and "first shipped in vX"; ``[contrib.forge_mismatch]`` when the page's ``:status:`` (or,
opted in, its title) disagrees; ``:status:`` may be left out; entries without a page and pages without an
entry are information lines; the exports carry the facts; a build with networking blocked is
byte-identical."""

from __future__ import annotations

import io
import json
import shutil
import socket
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from sphinx_contributions.cli.sync import Apis, run_sync
from sphinx_contributions.lock import LOCK_NAME, LockBusyError, is_test, site_lock

from .conftest import ROOTS
from .forge_server import FakeForges
from .test_sync import FETCHED, gadget_repo, gizmo_repo, widget_repo
from .treediff import first_difference

HEADER_FACTS = '<p class="contrib-forge-facts">merged on 2024-03-01 · first shipped in v1.2.0</p>'


@pytest.fixture(scope="module")
def lock_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The lock ``contributions sync`` writes for the three write-ups (GitHub, GitLab, Codeberg)."""
    site = Path(shutil.copytree(ROOTS / "test-sync", tmp_path_factory.mktemp("sync") / "site"))
    server = FakeForges().start()
    server.github["example-org/widget"] = widget_repo()
    server.gitlab["group/sub/gadget"] = gadget_repo()
    server.codeberg["someone/gizmo"] = gizmo_repo()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GITHUB_API_URL", server.url + "/github")
        patch.setenv("GITLAB_API_URL", server.url + "/gitlab/api/v4")
        patch.setenv("CODEBERG_API_URL", server.url + "/codeberg/api/v1")
        apis = Apis(timeout=2.0, retry_wait=0.0)
        try:
            assert run_sync(site, apis=apis, clock=lambda: FETCHED, out=io.StringIO()) == 0
        finally:
            apis.close()
            server.stop()
    return (site / LOCK_NAME).read_text(encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, lock_text: str) -> Path:
    src = Path(shutil.copytree(ROOTS / "test-sync", tmp_path / "src"))
    (src / LOCK_NAME).write_text(lock_text, encoding="utf-8")
    return src


def edit_lock(site: Path, key: str, **fields: Any) -> None:
    path = site / LOCK_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    data["contributions"][key].update(fields)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def build(site: Path, out: str = "_build", **options: Any) -> SphinxTestApp:
    app = SphinxTestApp("html", srcdir=site, builddir=site.parent / out, **options)
    try:
        app.build()
    finally:
        app.cleanup()
    return app


def warnings(app: SphinxTestApp) -> list[str]:
    return strip_colors(app.warning.getvalue()).splitlines()


def page(app: SphinxTestApp, docname: str) -> str:
    return (Path(app.outdir) / f"{docname}.html").read_text(encoding="utf-8")


def test_header_shows_merge_date_and_first_release(site: Path) -> None:
    app = build(site)
    assert warnings(app) == []
    assert HEADER_FACTS in page(app, "contributions/widget-12")
    assert '<p class="contrib-forge-facts">merged on 2024-05-02 · first shipped in v0.2</p>' in page(
        app, "contributions/gadget-3"
    )
    assert "contrib-forge-facts" not in page(app, "contributions/gizmo-5")  # open: nothing to add


def test_build_with_networking_blocked_is_byte_identical(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    online = build(site, "online")
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("networking is blocked in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    offline = build(site, "offline")
    assert attempts == []
    assert warnings(offline) == warnings(online) == []
    assert HEADER_FACTS in page(offline, "contributions/widget-12")
    assert first_difference(Path(online.outdir), Path(offline.outdir)) is None


def test_stale_status_fails_the_strict_build(site: Path) -> None:
    edit_lock(site, "widget#12", state="open", merged_at=None, merge_commit=None, first_release=None)
    expected = [
        f"{site / 'contributions/widget-12.md'}:7: WARNING: contribution widget#12: the page says ':status: merged', "
        f"but {LOCK_NAME} says the pull request is open (fetched {FETCHED}); correct the page, or run "
        "'contributions sync' if the forge has changed since [contrib.forge_mismatch]"
    ]
    first = build(site, warningiserror=True)
    assert warnings(first) == expected
    assert first.statuscode == 1
    again = build(site, warningiserror=True)  # the same tree again: the same warning
    assert warnings(again) == expected


def test_status_may_be_left_to_the_lock(site: Path) -> None:
    path = site / "contributions/gizmo-5.md"
    path.write_text(path.read_text(encoding="utf-8").replace(":status: open\n", ""), encoding="utf-8")
    app = build(site)
    assert warnings(app) == []
    records = json.loads((Path(app.outdir) / "contributions.json").read_text(encoding="utf-8"))["contributions"]
    assert {r["key"]: r["status"] for r in records} == {"gadget#3": "merged", "gizmo#5": "open", "widget#12": "merged"}
    assert "contrib-state-open" in page(app, "contributions/gizmo-5")


def test_titles_are_checked_when_opted_in(site: Path) -> None:
    app = build(site, confoverrides={"contributions_check_titles": True})
    assert warnings(app) == [
        f"{site / f'contributions/{name}.md'}:1: WARNING: contribution {key}: the title is not the pull request's "
        f"title in {LOCK_NAME}, {title!r} (contributions_check_titles is on) [contrib.forge_mismatch]"
        for name, key, title in (
            ("gadget-3", "gadget#3", "Make the gadget faster"),
            ("gizmo-5", "gizmo#5", "Teach the gizmo to count"),
            ("widget-12", "widget#12", "Fix the widget"),
        )
    ]


def test_entries_and_pages_without_each_other_are_information(site: Path) -> None:
    path = site / LOCK_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    data["contributions"]["ghost#1"] = data["contributions"].pop("gizmo#5")
    path.write_text(json.dumps(data), encoding="utf-8")
    app = build(site, warningiserror=True)
    assert warnings(app) == []
    status = strip_colors(app.status.getvalue())
    assert (
        f"checking consistency... {LOCK_NAME}: ghost#1 has an entry but no write-up\n"
        f"{LOCK_NAME}: gizmo#5 has no entry (run 'contributions sync')\n"
    ) in status


def test_without_a_lock_the_build_is_as_before(site: Path) -> None:
    (site / LOCK_NAME).unlink()
    app = build(site, warningiserror=True)
    assert warnings(app) == []
    assert "contrib-forge-facts" not in page(app, "contributions/widget-12")
    assert LOCK_NAME not in strip_colors(app.status.getvalue())
    records = json.loads((Path(app.outdir) / "contributions.json").read_text(encoding="utf-8"))["contributions"]
    assert all("forge" not in record for record in records)


def test_a_lock_that_does_not_parse(site: Path) -> None:
    (site / LOCK_NAME).write_text(
        '{"version": 1, "contributions": {"widget#12": {"state": "merged"}}}', encoding="utf-8"
    )
    app = build(site)
    assert warnings(app) == [
        f"{site / LOCK_NAME}:1: WARNING: {LOCK_NAME}: the entry 'widget#12' has no 'repository'; the build goes "
        "on without it [contrib.lock]"
    ]
    (site / LOCK_NAME).write_text('{"version": 1,\n "contributions": {,}}\n', encoding="utf-8")
    app = build(site)
    assert warnings(app) == [
        f"{site / LOCK_NAME}:2: WARNING: {LOCK_NAME} is not JSON: Expecting property name enclosed in double quotes; "
        "the build goes on without it [contrib.lock]"
    ]


def test_a_lock_that_is_not_utf8(site: Path) -> None:
    """On main a traceback (a ``UnicodeDecodeError``, exit 2): now a ``[contrib.lock]`` warning at the line of
    the byte, as for a lock that is not JSON, and the build goes on."""
    (site / LOCK_NAME).write_bytes(b'{"version": 1,\n "contributions": {"caf\xe9#1": {}}}\n')
    app = build(site)
    assert warnings(app) == [
        f"{site / LOCK_NAME}:2: WARNING: {LOCK_NAME} is not UTF-8 text: byte 0xe9 cannot be read; the build goes "
        "on without it [contrib.lock]"
    ]
    assert "contrib-forge-facts" not in page(app, "contributions/widget-12")


def test_exports_carry_the_facts(site: Path) -> None:
    app = build(site)
    out = Path(app.outdir)
    document = json.loads((out / "contributions.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, json.loads((out / "contributions.schema.json").read_text(encoding="utf-8")))
    widget = next(r for r in document["contributions"] if r["key"] == "widget#12")
    assert widget["forge"]["first_release"] == {"tag": "v1.2.0", "published_at": "2024-03-03T12:00:00Z"}
    assert widget["forge"]["merged_at"] == "2024-03-01T10:00:00Z"
    feed = (out / "contributions.atom").read_text(encoding="utf-8")
    assert (
        '<category term="v1.2.0" scheme="https://example.org/contributions.json#first_release" '
        'label="first shipped in v1.2.0" />' in feed
    )
    ld = page(app, "contributions/widget-12").split('<script type="application/ld+json">', 1)[1].split("</script>")[0]
    assert json.loads(ld)["about"]["version"] == "v1.2.0"  # JSON-LD: the release that shipped it


def test_a_changed_lock_rewrites_the_page(site: Path) -> None:
    first = build(site)
    assert HEADER_FACTS in page(first, "contributions/widget-12")
    edit_lock(site, "widget#12", first_release={"tag": "v1.3.0", "published_at": "2024-03-04T12:00:00Z"})
    second = build(site)
    assert "merged on 2024-03-01 · first shipped in v1.3.0" in page(second, "contributions/widget-12")


def test_an_entry_for_another_repository_gives_no_facts(site: Path) -> None:
    """A key is the repository's name and the number: a page that now says ``someone-else/widget`` with the
    same ``:pr:`` does not take ``example-org/widget#12``'s facts, and the strict build says why."""
    path = site / "contributions/widget-12.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace(":repo: example-org/widget", ":repo: someone-else/widget"),
        encoding="utf-8",
    )
    app = build(site, warningiserror=True)
    assert warnings(app) == [
        f"{path}:3: WARNING: contribution widget#12: the entry widget#12 in {LOCK_NAME} is for "
        "example-org/widget#12, not this page's someone-else/widget#12; the page shows no facts from the forge: "
        "run 'contributions sync --only widget#12' to fetch its own [contrib.forge_mismatch]"
    ]
    assert app.statuscode == 1
    assert "contrib-forge-facts" not in page(app, "contributions/widget-12")
    records = json.loads((Path(app.outdir) / "contributions.json").read_text(encoding="utf-8"))["contributions"]
    assert "forge" not in next(r for r in records if r["key"] == "widget#12")
    again = build(site, warningiserror=True)  # and on every build until the lock or the page is fixed
    assert warnings(again) == warnings(app)


def test_times_with_an_offset_show_the_utc_date(site: Path) -> None:
    """A lock written by an older sync holds Gitea's offset as given: the shown date is the UTC date."""
    edit_lock(site, "widget#12", merged_at="2024-03-02T01:30:00+02:00")
    app = build(site)
    assert "merged on 2024-03-01 · first shipped in v1.2.0" in page(app, "contributions/widget-12")


def test_the_sync_lock_holds_where_fcntl_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no ``fcntl``: the old lock took none there, and two syncs wrote one lock file at once.
    filelock (bound to the platform's lock when it is imported, msvcrt's on Windows) needs no ``fcntl`` at the
    time of the sync: with it unimportable, a second holder waits (and is told), then gives up."""
    import filelock  # noqa: F401  (bound to this platform's lock before fcntl is hidden)

    holder = tmp_path / "cache" / "sync.lock"
    monkeypatch.setitem(sys.modules, "fcntl", None)
    waited: list[str] = []
    with (
        site_lock(holder),
        pytest.raises(LockBusyError) as caught,
        site_lock(holder, lambda: waited.append("waiting"), timeout=0.1),
    ):
        pytest.fail("a second holder took the lock")
    assert waited == ["waiting"]
    assert (caught.value.holder, caught.value.waited, str(caught.value)) == (
        holder,
        0.1,
        f"{holder} was held for 0.1 s",
    )
    with site_lock(holder, lambda: waited.append("again"), timeout=0):  # let go: the next sync takes it at once
        pass
    assert waited == ["waiting"]


# issue 46: how each pull request was made, as the lock holds it


def made_line(*facts: tuple[str, str, str, str]) -> str:
    """The header's quiet line of facts: each (separator before it, fact, address, words)."""
    links = "".join(
        f'{separator}<a class="contrib-made-{name} reference external" href="{url}" '
        f'rel="noopener noreferrer">{text}</a>'
        for separator, name, url, text in facts
    )
    return f'<p class="contrib-made">{links}</p>'


def made_of(html: str) -> str:
    start = html.find('<p class="contrib-made">')
    return html[start : html.find("</p>", start) + 4] if start >= 0 else ""


WIDGET = "https://github.com/example-org/widget/pull/12"
GADGET = "https://gitlab.com/group/sub/gadget/-/merge_requests/3"
GIZMO = "https://codeberg.org/someone/gizmo/pulls/5"


def test_the_header_says_how_each_pull_request_was_made(site: Path) -> None:
    """One quiet line, each fact linked to the forge's page that shows it: the files tab (GitLab's diffs), the
    commits, the conversation with its reviews, the issue closed; what a forge does not give is left out
    (GitLab's lines, GitHub's and Codeberg's closed issues, an open pull request's time to merge)."""
    app = build(site)
    assert warnings(app) == []
    assert made_of(page(app, "contributions/widget-12")) == made_line(
        ("", "size", f"{WIDGET}/files", "+10 −2 in 3 files"),
        (", ", "tests", f"{WIDGET}/files", "1 of them a test"),
        (" · ", "commits", f"{WIDGET}/commits", "1 commit"),
        (" · ", "approvals", WIDGET, "1 approval"),
        (" · ", "time", WIDGET, "merged after 60 days"),
    )
    assert made_of(page(app, "contributions/gadget-3")) == made_line(
        ("", "size", f"{GADGET}/diffs", "3 files"),
        (", ", "tests", f"{GADGET}/diffs", "1 of them a test"),
        (" · ", "commits", f"{GADGET}/commits", "2 commits"),
        (" · ", "approvals", GADGET, "2 approvals"),
        (" · ", "closes", "https://gitlab.com/group/sub/gadget/-/issues/8", "closes #8"),
        (" · ", "time", GADGET, "merged after 122 days"),
    )
    assert made_of(page(app, "contributions/gizmo-5")) == made_line(
        ("", "size", f"{GIZMO}/files", "+4 −1 in 2 files"),
        (", ", "tests", f"{GIZMO}/files", "none of them tests"),
        (" · ", "commits", f"{GIZMO}/commits", "1 commit"),
        (" · ", "approvals", GIZMO, "no approvals"),
    )


def test_the_setting_chooses_the_facts(site: Path) -> None:
    app = build(site, confoverrides={"contributions_facts": ["time", "approvals"]})
    assert made_of(page(app, "contributions/widget-12")) == made_line(
        ("", "approvals", WIDGET, "1 approval"), (" · ", "time", WIDGET, "merged after 60 days")
    )
    assert (
        made_of(page(build(site, "none", confoverrides={"contributions_facts": []}), "contributions/widget-12")) == ""
    )


def test_a_fact_the_setting_does_not_know_is_a_warning(site: Path) -> None:
    conf = site / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + 'contributions_facts = ["size", "reviews"]\n', encoding="utf-8")
    app = build(site)
    assert warnings(app) == [
        f"{conf}:6: WARNING: contributions_facts = ['size', 'reviews']: 'reviews' is not one of size, tests, "
        "commits, approvals, closes, time; left out [contrib.config]"
    ]
    line = made_line(("", "size", f"{WIDGET}/files", "+10 −2 in 3 files"))
    assert made_of(page(app, "contributions/widget-12")) == line


def test_more_files_than_github_lists_counts_at_least_its_tests(site: Path) -> None:
    """3,500 files changed, GitHub lists 3,000: the count is the pull request's, the tests among the listed
    are a lower bound."""
    listed = [f"src/m{n}.py" for n in range(2990)] + [f"tests/test_{n}.py" for n in range(10)]
    edit_lock(site, "widget#12", changed_files=3500, files=listed)
    assert made_of(page(build(site), "contributions/widget-12")).split("</a>")[:2] == [
        f'<p class="contrib-made"><a class="contrib-made-size reference external" href="{WIDGET}/files" '
        'rel="noopener noreferrer">+10 −2 in 3500 files',
        f', <a class="contrib-made-tests reference external" href="{WIDGET}/files" rel="noopener noreferrer">at least '
        "10 of them tests",
    ]


def test_a_lower_bound_says_at_least_and_claims_no_test_count(site: Path) -> None:
    """GitLab's "1000+": at least 1000 files; none of the listed ones a test says nothing of the rest."""
    edit_lock(site, "gadget#3", changed_files=1000, files_at_least=True, files=[f"src/{n}.c" for n in range(1000)])
    assert made_of(page(build(site), "contributions/gadget-3")).split(" · ")[0] == (
        f'<p class="contrib-made"><a class="contrib-made-size reference external" href="{GADGET}/diffs" '
        'rel="noopener noreferrer">at least 1000 files</a>'
    )


def test_a_lock_of_an_older_sync_shows_no_facts_line(site: Path) -> None:
    path = site / LOCK_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in data["contributions"].values():
        for name in ("opened_at", "commits", "approvals", "closes", "files", "files_at_least"):
            entry.pop(name, None)
        entry["additions"] = entry["deletions"] = entry["changed_files"] = None
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    app = build(site)
    assert warnings(app) == []
    assert "contrib-made" not in page(app, "contributions/widget-12")


def test_the_facts_are_exported_with_their_addresses(site: Path) -> None:
    app = build(site, confoverrides={"contributions_facts": ["size", "tests", "approvals", "time"]})
    out = Path(app.outdir)
    document = json.loads((out / "contributions.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, json.loads((out / "contributions.schema.json").read_text(encoding="utf-8")))
    widget = next(r for r in document["contributions"] if r["key"] == "widget#12")
    assert widget["facts"] == [
        {"fact": "size", "text": "+10 −2 in 3 files", "url": f"{WIDGET}/files"},
        {"fact": "tests", "text": "1 of them a test", "url": f"{WIDGET}/files"},
        {"fact": "approvals", "text": "1 approval", "url": WIDGET},
        {"fact": "time", "text": "merged after 60 days", "url": WIDGET},
    ]
    assert widget["forge"]["files"] == ["src/widget.py", "tests/test_widget.py", "docs/widget.md"]
    feed = (out / "contributions.atom").read_text(encoding="utf-8")
    scheme = "https://example.org/contributions.json#facts"
    entry = feed[feed.index("contributions.json#widget%2312") :]
    assert [line.strip() for line in entry.splitlines() if scheme in line] == [
        f'<category term="size" scheme="{scheme}" label="+10 −2 in 3 files" />',
        f'<category term="tests" scheme="{scheme}" label="1 of them a test" />',
        f'<category term="approvals" scheme="{scheme}" label="1 approval" />',
        f'<category term="time" scheme="{scheme}" label="merged after 60 days" />',
    ]
    html = page(app, "contributions/widget-12")
    start = html.index('<script type="application/ld+json">') + len('<script type="application/ld+json">')
    assert json.loads(html[start : html.index("</script>", start)])["mentions"] == [
        {"@type": "WebPage", "name": "+10 −2 in 3 files", "url": f"{WIDGET}/files"},
        {"@type": "WebPage", "name": "1 of them a test", "url": f"{WIDGET}/files"},
        {"@type": "WebPage", "name": "1 approval", "url": WIDGET},
        {"@type": "WebPage", "name": "merged after 60 days", "url": WIDGET},
    ]


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("tests/test_widget.py", True),
        ("src/pkg/testing/helpers.py", True),
        ("pkg/test_io.py", True),
        ("pkg/io_test.py", True),
        ("conftest.py", True),
        ("cmd/server_test.go", True),
        ("web/app.spec.ts", True),
        ("web/__tests__/App.jsx", True),
        ("web/button.test.tsx", True),
        ("src/test/java/org/FooTest.java", True),
        ("spec/models/user_spec.rb", True),
        ("base/strings_unittest.cc", True),
        ("src/widget.py", False),
        ("docs/testing.md", False),
        ("src/contest.py", False),
        ("latest/notes.txt", False),
        ("src/attestation_test_data.json", False),
    ],
)
def test_the_path_conventions_of_test_files(path: str, test: bool) -> None:
    assert is_test(path) is test


# issue 46: the claims a write-up makes structured, checked against the lock


def claim_tests(site: Path, tests: str, section: str = "verification") -> int:
    """Give widget-12's ``section`` the option ``:tests: <tests>``; the option's line."""
    path = site / "contributions/widget-12.md"
    text = path.read_text(encoding="utf-8").replace(f":::{{{section}}}\n", f":::{{{section}}}\n:tests: {tests}\n")
    path.write_text(text, encoding="utf-8")
    return text.splitlines().index(f":tests: {tests}") + 1


def test_a_listed_test_file_the_pull_request_did_not_change_is_a_warning(site: Path) -> None:
    line = claim_tests(site, "tests/test_widget.py, ./tests/test_gone.py")
    app = build(site, warningiserror=True)
    assert warnings(app) == [
        f"{site / 'contributions/widget-12.md'}:{line}: WARNING: contribution widget#12: the verification lists the "
        f"test file 'tests/test_gone.py', but {LOCK_NAME} says the pull request did not change it (its changed test "
        f"files: tests/test_widget.py; fetched {FETCHED}); correct ':tests:', or run 'contributions sync' if the "
        "pull request has changed since [contrib.forge_mismatch]"
    ]
    assert app.statuscode == 1


def test_listed_test_files_the_pull_request_changed_are_shown_and_pass(site: Path) -> None:
    claim_tests(site, "tests/test_widget.py")
    app = build(site, warningiserror=True)
    assert warnings(app) == []
    html = page(app, "contributions/widget-12")
    assert (
        '<p class="contrib-tests"><span class="contrib-tests-label">Tests:</span> <code class="docutils literal '
        'notranslate">tests/test_widget.py</code></p>'
    ) in html.replace('<span class="pre">tests/test_widget.py</span>', "tests/test_widget.py")


def test_without_a_lock_entry_nothing_is_claimed_and_nothing_warned(site: Path) -> None:
    claim_tests(site, "tests/test_gone.py")
    (site / LOCK_NAME).unlink()
    assert warnings(build(site, warningiserror=True)) == []


def test_a_partial_list_of_files_claims_nothing(site: Path) -> None:
    """GitHub listed 3,000 of 3,500 files: a listed test file not among them may be among the rest."""
    claim_tests(site, "tests/test_gone.py")
    edit_lock(site, "widget#12", changed_files=3500, files=[f"src/m{n}.py" for n in range(3000)])
    assert warnings(build(site, warningiserror=True)) == []


def test_tests_on_another_section_is_ignored_with_a_warning(site: Path) -> None:
    line = claim_tests(site, "tests/test_widget.py", "fix")
    assert warnings(build(site)) == [
        f"{site / 'contributions/widget-12.md'}:{line}: WARNING: option ignored: ':tests:' lists the test files of "
        "the verification section, not of 'fix' [contrib.bad_option]"
    ]
