"""GitLab and Codeberg besides GitHub (``tests/roots/test-forges``): ``:repo:`` takes ``owner/name``,
``gitlab.com/group/subgroup/name`` and ``codeberg.org/owner/name``; every link of a write-up (the header's
pull request and issues, ``{pr}``/``{issue}``, evidence, the exports) goes to that forge's pages; keys stay
``<name>#<number>``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from sphinx.testing.util import SphinxTestApp

from sphinx_contributions import forges
from tests.htmltools import attr, one, soup

GITHUB = "https://github.com/example-org/widget"
GITLAB = "https://gitlab.com/group/sub/gadget"
CODEBERG = "https://codeberg.org/someone/gizmo"


@pytest.fixture(scope="module")
def built(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SphinxTestApp]:
    src = tmp_path_factory.mktemp("forges") / "src"
    shutil.copytree(rootdir / "test-forges", src)
    app = SphinxTestApp("html", srcdir=src, warningiserror=False)
    app.build()
    yield app
    app.cleanup()


def body_links(app: SphinxTestApp, page: str) -> list[str]:
    """The addresses of the page's outbound links, in order (the header's first: its words are the header's
    business, the addresses this test's)."""
    body = one(soup(Path(app.outdir) / f"{page}.html"), "article, div.body")
    return [attr(a, "href") for a in body.select("a.reference.external")]


def test_builds_without_a_warning(built: SphinxTestApp) -> None:
    assert built.warning.getvalue() == ""


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        (
            "contributions/widget-12",
            [
                ("PR #12", f"{GITHUB}/pull/12"),
                ("issue #10", f"{GITHUB}/issues/10"),
                ("#12", f"{GITHUB}/pull/12"),
                ("#10", f"{GITHUB}/issues/10"),
                ("gitlab.com/group/sub/gadget#3", f"{GITLAB}/-/merge_requests/3"),
            ],
        ),
        (
            "contributions/gadget-3",
            [
                ("PR #3", f"{GITLAB}/-/merge_requests/3"),
                ("issue #8", f"{GITLAB}/-/issues/8"),
                ("#3", f"{GITLAB}/-/merge_requests/3"),
                ("#8", f"{GITLAB}/-/issues/8"),
                ("codeberg.org/someone/gizmo#5", f"{CODEBERG}/pulls/5"),
                ("PR #3", f"{GITLAB}/-/merge_requests/3"),
                ("commit 0123abc", f"{GITLAB}/-/commit/0123abc"),
                ("issue codeberg.org/someone/gizmo#4", f"{CODEBERG}/issues/4"),
            ],
        ),
        (
            "contributions/gizmo-5",
            [
                ("PR #5", f"{CODEBERG}/pulls/5"),
                ("issue #4", f"{CODEBERG}/issues/4"),
                ("#5", f"{CODEBERG}/pulls/5"),
                ("#4", f"{CODEBERG}/issues/4"),
            ],
        ),
    ],
    ids=["github", "gitlab", "codeberg"],
)
def test_links_go_to_the_forge(built: SphinxTestApp, page: str, expected: list[tuple[str, str]]) -> None:
    """Header (the repository, then the pull request and issue buttons), ``{pr}``/``{issue}`` with ``#N``
    and with another forge's repository, evidence, then the end of the page (the pull request and issue
    again): in page order."""
    repository = {
        "contributions/widget-12": GITHUB,
        "contributions/gadget-3": GITLAB,
        "contributions/gizmo-5": CODEBERG,
    }
    hrefs = [href for _, href in expected]
    assert body_links(built, page) == [repository[page], *hrefs, *hrefs[:2]]


def test_exports_name_the_forge(built: SphinxTestApp) -> None:
    document = json.loads((Path(built.outdir) / "contributions.json").read_text(encoding="utf-8"))
    schema = json.loads((Path(built.outdir) / "contributions.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, schema)
    records = document["contributions"]
    found = {r["key"]: (r["repository"], r["repository_url"], r["pr_url"], r["issues"]) for r in records}
    assert found == {
        "widget#12": (
            "example-org/widget",
            GITHUB,
            f"{GITHUB}/pull/12",
            [{"number": 10, "url": f"{GITHUB}/issues/10"}],
        ),
        "gadget#3": (
            "gitlab.com/group/sub/gadget",
            GITLAB,
            f"{GITLAB}/-/merge_requests/3",
            [{"number": 8, "url": f"{GITLAB}/-/issues/8"}],
        ),
        "gizmo#5": (
            "codeberg.org/someone/gizmo",
            CODEBERG,
            f"{CODEBERG}/pulls/5",
            [{"number": 4, "url": f"{CODEBERG}/issues/4"}],
        ),
    }


@pytest.mark.parametrize(
    ("spec", "name", "pull", "issue", "commit"),
    [
        (
            "o/n",
            "github",
            "https://github.com/o/n/pull/1",
            "https://github.com/o/n/issues/1",
            "https://github.com/o/n/commit/abc",
        ),
        (
            "gitlab.com/g/s/t/n",
            "gitlab",
            "https://gitlab.com/g/s/t/n/-/merge_requests/1",
            "https://gitlab.com/g/s/t/n/-/issues/1",
            "https://gitlab.com/g/s/t/n/-/commit/abc",
        ),
        (
            "codeberg.org/o/n",
            "codeberg",
            "https://codeberg.org/o/n/pulls/1",
            "https://codeberg.org/o/n/issues/1",
            "https://codeberg.org/o/n/commit/abc",
        ),
    ],
)
def test_addresses(spec: str, name: str, pull: str, issue: str, commit: str) -> None:
    assert forges.forge_of(spec).name == name
    assert (forges.pr_url(spec, 1), forges.issue_url(spec, 1), forges.commit_url(spec, "abc")) == (pull, issue, commit)
    assert forges.parse_pull_url(pull) == (spec, 1)


@pytest.mark.parametrize(
    "value",
    ["gitlab.com/name", "codeberg.org/a/b/c", "a/b/c", "gitlab.com/g/../n", "codeberg.org/o", "gitlab.com/-g/n"],
)
def test_refused_specs(value: str) -> None:
    with pytest.raises(forges.RepoError) as error:
        forges.parse_spec(value)
    assert str(error.value) == (
        "repo must be 'owner/name' (GitHub), 'gitlab.com/group/name' (subgroups too) or 'codeberg.org/owner/name', "
        f"got {value!r}"
    )
