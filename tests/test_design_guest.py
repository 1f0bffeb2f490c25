"""sphinx-design's per-page steps, on a site whose ``extensions`` do not list it, only where a page holds its
nodes (``sphinx_contributions/render/design_guest.py``).

``tests/roots/test-contrib-pages`` (write-ups, a listing; its ``conf.py`` does not list ``sphinx_design``)
with one more page using sphinx-design's dropdown, tab set and ``button-ref`` (as a site may, through the
extension's loading of it) is built twice: as it is, and with ``sphinx_design`` in its ``extensions``. On
main sphinx-design's post transforms looked through every page in both builds; now, in the first, only
through the page that holds its nodes, and that page's body, and the write-ups' (the extension's own
cards and badges), are the same as where the site lists sphinx-design.
"""

from __future__ import annotations

import re
import shutil
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from sphinx.testing.util import SphinxTestApp
from sphinx_design.badges_buttons import ButtonRefContentStash
from sphinx_design.dropdown import DropdownHtmlTransform
from sphinx_design.tabs import TabSetHtmlTransform

DESIGN_PAGE = """\
# Design

:::{dropdown} More
Hidden text.
:::

::::{tab-set}
:::{tab-item} One
First tab.
:::
:::{tab-item} Two
Second tab.
:::
::::

:::{button-ref} index
:color: primary

Back *home*
:::
"""

STEPS = (DropdownHtmlTransform, TabSetHtmlTransform, ButtonRefContentStash)
EXTENSIONS = ["myst_parser", "sphinx_contributions"]
_BODY = re.compile(r'<div class="body" role="main">(.*?)<div class="sphinxsidebar"', re.S)


def _build(rootdir: Path, dest: Path, extensions: list[str]) -> tuple[Path, dict[str, list[str]]]:
    """The site built into ``dest`` with ``extensions``: its output folder, and the pages (in order) each of
    sphinx-design's steps in :data:`STEPS` ran on."""
    srcdir = dest / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    (srcdir / "design.md").write_text(DESIGN_PAGE, encoding="utf-8")
    with (srcdir / "index.md").open("a", encoding="utf-8") as index:
        index.write("\n```{toctree}\ndesign\n```\n")
    ran: dict[str, list[str]] = {step.__name__: [] for step in STEPS}
    patch = pytest.MonkeyPatch()
    for step in STEPS:

        def run(self: Any, __step: Any = step, __original: Any = step.run, **kwargs: Any) -> None:
            ran[__step.__name__].append(self.env.current_document.docname)
            __original(self, **kwargs)

        patch.setattr(step, "run", run)
    app = SphinxTestApp(
        "html",
        srcdir=srcdir,
        freshenv=True,
        confoverrides={"extensions": extensions},
        status=StringIO(),
        warning=StringIO(),
    )
    try:
        app.build()
    finally:
        patch.undo()
        app.cleanup()
    assert app.warning.getvalue() == ""
    return Path(app.outdir), ran


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory, rootdir: Path) -> dict[str, tuple[Path, dict[str, list[str]]]]:
    guest = _build(rootdir, tmp_path_factory.mktemp("guest"), EXTENSIONS)
    listed = _build(rootdir, tmp_path_factory.mktemp("listed"), [*EXTENSIONS, "sphinx_design"])
    return {"guest": guest, "listed": listed}


def _body(out: Path, page: str) -> str:
    found = _BODY.search((out / page).read_text(encoding="utf-8"))
    assert found is not None, page
    return found.group(1)


def test_the_steps_run_only_on_the_page_holding_its_nodes(builds: dict[str, Any]) -> None:
    """On main each step ran on every page of the guest site (the write-ups and the index included)."""
    _, guest = builds["guest"]
    _, listed = builds["listed"]
    assert guest == {step.__name__: ["design"] for step in STEPS}
    # where the site lists sphinx-design, they run on every page, as sphinx-design does
    pages = sorted(listed["DropdownHtmlTransform"])
    assert pages == ["design", "escaping", "full", "index", "minimal"]
    assert listed == {step.__name__: listed["DropdownHtmlTransform"] for step in STEPS}


@pytest.mark.parametrize("page", ["design.html", "full.html", "minimal.html", "index.html"])
def test_the_pages_show_what_they_show_where_the_site_lists_sphinx_design(builds: dict[str, Any], page: str) -> None:
    """The dropdown a ``<details>``, the tab set's inputs, the button's rich content, and the extension's
    cards and badges: the same body as where the site lists ``sphinx_design`` (its transforms everywhere)."""
    guest, _ = builds["guest"]
    listed, _ = builds["listed"]
    assert _body(guest, page) == _body(listed, page)
