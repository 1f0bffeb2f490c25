"""Adding a write-up is adding one file: every overview, export and the inventory follow, with no
other file edited, in an incremental build of a copy of ``tests/roots/test-portfolio``."""

from __future__ import annotations

import json
from pathlib import Path

from sphinx.util.inventory import InventoryFile

from .conftest import SITE_URL, copy_site, environ_with, rtd_build

NEW_PAGE = """\
# A fourth write-up for the test

:::{contribution}
:repo: example/beta
:pr: 7
:status: open
:date: 2030-01-01
:tags: training, brand-new tag
:summary: Summary of the fourth write-up.
:::

:::{problem}
Problem text.
:::

:::{root-cause}
Cause text.
:::

:::{fix}
Fix text.
:::

:::{verification}
Verification text.
:::
"""


def test_a_fourth_page_reaches_every_overview(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    out = tmp_path / "build" / "html"
    first = rtd_build(src, out, env=environ_with(READTHEDOCS_CANONICAL_URL=SITE_URL))
    assert first.returncode == 0, first.stderr
    before = {path: path.read_bytes() for path in src.rglob("*") if path.is_file()}

    (src / "contributions" / "beta-7.md").write_text(NEW_PAGE, encoding="utf-8")
    second = rtd_build(src, out, env=environ_with(READTHEDOCS_CANONICAL_URL=SITE_URL))
    assert second.returncode == 0, second.stderr
    assert {path: path.read_bytes() for path in before} == before  # nothing else was edited

    title = "A fourth write-up for the test"
    for page in (
        "index.html",  # the home page's selected impact
        "open-source/index.html",  # the project's section
        "contributions/index.html",
        "projects/beta.html",
        "tags/training.html",
        "contributions/beta-7.html",
    ):
        assert title in (out / page).read_text(encoding="utf-8"), page
    # a tag of this write-up alone has no page (contributions_tag_page_min): it links to the filtered list
    assert not (out / "tags/brand-new-tag.html").exists()
    assert 'href="index.html?tag=brand-new-tag"' in (out / "contributions/beta-7.html").read_text(encoding="utf-8")
    keys = [c["key"] for c in json.loads((out / "contributions.json").read_text())["contributions"]]
    assert keys[0] == "beta#7"
    assert title in (out / "contributions.atom").read_text(encoding="utf-8")
    with open(out / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    assert "beta#7" in inventory["contrib:contribution"]
