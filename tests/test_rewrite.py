"""What a page shows from other pages is rewritten when it changes (issue 43, item 1): an incremental build's
whole output tree equals a clean build's after each change below, though none of them edits the page whose
output goes stale (a write-up's header and breadcrumb link tag and project pages, or their fallbacks, the
overview's anchors and the list's title; the listings and generated pages show the overview too).

Each case builds a copy of ``tests/roots/test-portfolio`` (``tests/test_incremental.py``'s ``build``), changes
it, builds it again into the same folders, and from scratch.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import copy_site
from .edits import edit, touch
from .test_incremental import build
from .treediff import first_difference

SECOND_ALPHA = """\
# A second alpha change

:::{contribution}
:repo: example/Alpha
:pr: 102
:tags: loaders
:summary: A second example change to the alpha loader.
:::

:::{problem}
Example problem.
:::

:::{root-cause}
Example cause.
:::

:::{fix}
Example fix.
:::

:::{verification}
Example check.
:::
"""

OVERVIEW_START = "::::{projects}\n"


def drop_tag(src: Path) -> None:
    # alpha and beta are tagged "training": its page goes, beta (not edited) must link the list's filter
    edit(src / "contributions/alpha-101.md", ", training\n", "\n")


def raise_tag(src: Path) -> None:
    # "loaders" gets its second write-up: its page comes, alpha (not edited) must link it
    edit(src / "contributions/beta-202.md", ":tags: correctness, masks, training", ":tags: correctness, masks, loaders")


def second_alpha(src: Path) -> None:
    (src / "contributions/alpha-102.md").write_text(SECOND_ALPHA, encoding="utf-8")
    touch(src / "contributions/alpha-102.md")


def move_second_alpha(src: Path) -> None:
    # Alpha's page goes (one write-up left), beta's comes (two): alpha-101 and beta-202 are not edited
    edit(src / "contributions/alpha-102.md", ":repo: example/Alpha", ":repo: example/beta")


def _overview(src: Path, keep: bool) -> None:
    path = src / "open-source/index.md"
    text = path.read_text(encoding="utf-8")
    saved = src.parent / "overview.txt"
    if keep:
        start = text.index("Example upstream work")
        path.write_text(text[:start] + saved.read_text(encoding="utf-8"), encoding="utf-8")
    else:
        start = text.index("Example upstream work")
        saved.write_text(text[start:], encoding="utf-8")
        path.write_text(text[:start] + "Example upstream work, without an overview.\n", encoding="utf-8")
    touch(path)


def remove_overview(src: Path) -> None:
    _overview(src, keep=False)


def add_overview(src: Path) -> None:
    _overview(src, keep=True)


def orphan_list(src: Path) -> None:
    # the list is reached by a link only (as the owner's site has it): no toctree holds it
    edit(src / "index.md", "open-source/index\ncontributions/index\n", "open-source/index\n")
    edit(src / "index.md", "[Background and focus areas](about/index.md)", "[Contributions](contributions/index.md)")
    edit(src / "contributions/index.md", "---\nog:description", "---\norphan: true\nog:description")


def retitle_list(src: Path) -> None:
    edit(src / "contributions/index.md", "# Contributions\n", "# Pull requests\n")


#: name → (what the site gets before its first build, the change, settings of every build)
CASES: dict[str, tuple[Callable[[Path], None] | None, Callable[[Path], None], tuple[str, ...]]] = {
    "tag-page-goes": (None, drop_tag, ()),
    "tag-page-comes": (None, raise_tag, ()),
    "project-page-goes": (second_alpha, move_second_alpha, ()),
    "overview-added": (remove_overview, add_overview, ()),
    "overview-removed": (None, remove_overview, ()),
    "list-title": (orphan_list, retitle_list, ()),
}


def incremental_and_clean(
    tmp_path: Path, case: str, *extra: str, builder: str = "html", sabotage: str = ""
) -> tuple[Path, Path]:
    prepare, change, settings = CASES[case]
    src = copy_site(tmp_path / "src")
    if prepare is not None:
        prepare(src)
    build(src, tmp_path / "inc", *settings, *extra, builder=builder, sabotage=sabotage)
    change(src)
    build(src, tmp_path / "inc", *settings, *extra, builder=builder, sabotage=sabotage)
    build(src, tmp_path / "clean", *settings, builder=builder)
    return tmp_path / "inc" / builder, tmp_path / "clean" / builder


@pytest.mark.parametrize("case", CASES)
def test_what_a_page_shows_of_others_is_rewritten(tmp_path: Path, case: str) -> None:
    incremental, clean = incremental_and_clean(tmp_path, case)
    assert first_difference(incremental, clean) is None, first_difference(incremental, clean)


@pytest.mark.parametrize(("builder", "extra"), [("dirhtml", ()), ("html", ("-j", "2"))])
def test_a_tag_page_that_goes_under_dirhtml_and_in_parallel(tmp_path: Path, builder: str, extra: tuple[str]) -> None:
    incremental, clean = incremental_and_clean(tmp_path, "tag-page-goes", *extra, builder=builder)
    assert first_difference(incremental, clean) is None, first_difference(incremental, clean)


def test_the_intros_are_in_the_digest(tmp_path: Path) -> None:
    """Without the overviews and intros in the digest, a removed overview leaves links to its anchors."""
    incremental, clean = incremental_and_clean(tmp_path, "overview-removed", sabotage="intros")
    assert first_difference(incremental, clean) is not None


def test_the_links_that_went_stale(tmp_path: Path) -> None:
    """What the first case found on main: beta's header still linked the tag page that was removed."""
    incremental, _ = incremental_and_clean(tmp_path, "tag-page-goes")
    beta = (incremental / "contributions/beta-202.html").read_text(encoding="utf-8")
    assert not (incremental / "tags/training.html").exists()
    assert "../tags/training.html" not in beta
    assert "index.html?tag=training" in beta


# -- the output's memory (issue 43, item 3) ------------------------------------------------------------------


def test_a_memory_of_the_wrong_shape_is_no_memory(tmp_path: Path) -> None:
    """A memory file of the right version and the wrong shape: the build neither crashes nor keeps what the
    extension wrote and no longer writes (the tag page that went)."""
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "inc")
    memory = tmp_path / "inc/html/.contributions-written.json"
    data = json.loads(memory.read_text(encoding="utf-8"))
    data["outputs"] = {"html": {"nav": "a string", "files": ["a", "list"]}}
    memory.write_text(json.dumps(data), encoding="utf-8")
    drop_tag(src)
    build(src, tmp_path / "inc")
    build(src, tmp_path / "clean")
    assert first_difference(tmp_path / "inc/html", tmp_path / "clean/html") is None


@pytest.mark.parametrize("damage", ["missing", "version"])
def test_without_its_memory_an_output_loses_the_pages_the_site_no_longer_has(tmp_path: Path, damage: str) -> None:
    src = copy_site(tmp_path / "src")
    build(src, tmp_path / "inc")
    memory = tmp_path / "inc/html/.contributions-written.json"
    if damage == "missing":
        memory.unlink()
    else:
        data = json.loads(memory.read_text(encoding="utf-8"))
        memory.write_text(json.dumps({**data, "version": data["version"] - 1}), encoding="utf-8")
    drop_tag(src)
    build(src, tmp_path / "inc")
    build(src, tmp_path / "clean")
    assert not (tmp_path / "inc/html/tags/training.html").exists()
    assert first_difference(tmp_path / "inc/html", tmp_path / "clean/html") is None
