"""sphinx-design on a site whose ``extensions`` do not list it (``sphinx_contributions/render/design_guest.py``).

``tests/roots/test-contrib-pages`` (write-ups, a listing; its ``conf.py`` does not list ``sphinx_design``):

- as it is, the extension sets sphinx-design up once the pages are read, for its cards: the write-ups and
  the index show the same body as where the site lists ``sphinx_design``, and none of sphinx-design's
  per-page steps runs (no page read could hold its nodes). Until 2026-12-04 the extension set sphinx-design
  up at ``setup()`` on every site, and its steps were asked on every page;
- its directives are the site's: a page using them on that site is told they are unknown, as without the
  extension (a site that writes them lists ``sphinx_design``);
- with ``contributions_assets_everywhere`` (a portfolio: ``init`` writes it) sphinx-design is set up at
  ``setup()``, as before, and a page may use its dropdown, tab set and ``button-ref``: its post transforms
  then look through that page only, and every page's body is the same as where the site lists it.
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

from .conftest import MakeApp

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


def _build(
    rootdir: Path, dest: Path, extensions: list[str], design_page: bool = True, **settings: Any
) -> tuple[Path, dict[str, list[str]], str]:
    """The site built into ``dest`` with ``extensions`` and ``settings``: its output folder, the pages (in
    order) each of sphinx-design's steps in :data:`STEPS` ran on, and the build's warnings."""
    srcdir = dest / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    if design_page:
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
        confoverrides={"extensions": extensions, **settings},
        status=StringIO(),
        warning=StringIO(),
    )
    try:
        app.build()
    finally:
        patch.undo()
        app.cleanup()
    return Path(app.outdir), ran, app.warning.getvalue()


@pytest.fixture(scope="module")
def builds(
    tmp_path_factory: pytest.TempPathFactory, rootdir: Path
) -> dict[str, tuple[Path, dict[str, list[str]], str]]:
    everywhere = {"contributions_assets_everywhere": True}
    return {
        "guest": _build(rootdir, tmp_path_factory.mktemp("guest"), EXTENSIONS, design_page=False),
        "guest, its directives": _build(rootdir, tmp_path_factory.mktemp("directives"), EXTENSIONS),
        "everywhere": _build(rootdir, tmp_path_factory.mktemp("everywhere"), EXTENSIONS, **everywhere),
        "listed": _build(rootdir, tmp_path_factory.mktemp("listed"), [*EXTENSIONS, "sphinx_design"]),
        "listed, no design page": _build(
            rootdir, tmp_path_factory.mktemp("listed-plain"), [*EXTENSIONS, "sphinx_design"], design_page=False
        ),
        "listed, everywhere": _build(
            rootdir, tmp_path_factory.mktemp("listed-everywhere"), [*EXTENSIONS, "sphinx_design"], **everywhere
        ),
    }


def _body(out: Path, page: str) -> str:
    found = _BODY.search((out / page).read_text(encoding="utf-8"))
    assert found is not None, page
    return found.group(1)


def _warnings(text: str) -> list[str]:
    return [re.sub(r"\x1b\[[\d;]*m", "", line).split("/src/", 1)[-1] for line in text.splitlines()]


def test_a_guest_gets_sphinx_design_after_reading_and_its_steps_run_nowhere(builds: dict[str, Any]) -> None:
    """On main sphinx-design was set up at ``setup()`` and each step was asked on every page."""
    _, ran, warnings = builds["guest"]
    assert warnings == ""
    assert ran == {step.__name__: [] for step in STEPS}


def test_a_guest_s_page_with_sphinx_design_s_directives_is_told_they_are_unknown(builds: dict[str, Any]) -> None:
    _, ran, warnings = builds["guest, its directives"]
    assert _warnings(warnings) == [
        "design.md:3: WARNING: Unknown directive type: 'dropdown' [myst.directive_unknown]",
        "design.md:7: WARNING: Unknown directive type: 'tab-set' [myst.directive_unknown]",
        "design.md:16: WARNING: Unknown directive type: 'button-ref' [myst.directive_unknown]",
    ]
    assert ran == {step.__name__: [] for step in STEPS}


def test_with_its_files_everywhere_the_steps_run_only_on_the_page_holding_its_nodes(builds: dict[str, Any]) -> None:
    _, everywhere, warnings = builds["everywhere"]
    _, listed, listed_warnings = builds["listed"]
    assert warnings == listed_warnings == ""
    assert everywhere == {step.__name__: ["design"] for step in STEPS}
    # where the site lists sphinx-design, they run on every page, as sphinx-design does
    pages = sorted(listed["DropdownHtmlTransform"])
    assert pages == ["design", "escaping", "full", "index", "minimal"]
    assert listed == {step.__name__: listed["DropdownHtmlTransform"] for step in STEPS}


@pytest.mark.parametrize("page", ["full.html", "minimal.html", "index.html"])
def test_a_guest_s_cards_are_those_of_a_site_listing_sphinx_design(builds: dict[str, Any], page: str) -> None:
    """The extension's cards and badges: the body of a site that lists ``sphinx_design``."""
    guest, _, _ = builds["guest"]
    listed, _, _ = builds["listed, no design page"]
    assert _body(guest, page) == _body(listed, page)


@pytest.mark.parametrize("page", ["design.html", "full.html", "minimal.html", "index.html"])
def test_with_its_files_everywhere_the_pages_are_those_of_a_site_listing_it(builds: dict[str, Any], page: str) -> None:
    """The dropdown a ``<details>``, the tab set's inputs, the button's rich content, and the extension's
    cards and badges: the same page as where the site lists ``sphinx_design`` (its transforms everywhere)."""
    everywhere, _, _ = builds["everywhere"]
    listed, _, _ = builds["listed, everywhere"]
    assert (everywhere / page).read_text(encoding="utf-8") == (listed / page).read_text(encoding="utf-8")


def test_a_guest_s_next_build_with_nothing_to_do_reads_nothing(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """sphinx-design's settings are not in the environment Sphinx saves: set up when the pages were read
    (before the environment is saved), every next build found "The configuration has changed (7 options:
    'sd_card_legacy_separators', …)" and read every page again."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    outputs = []
    for freshenv in (True, False):  # two apps in one process: the second's warnings are about the first's nodes
        # the theme named: sphinx.testing sets "basic" where a conf.py names none, and the saved one differs
        theme = {"html_theme": "alabaster"}
        app = make_app(
            "html", srcdir=srcdir, freshenv=freshenv, confoverrides=theme, status=StringIO(), warning=StringIO()
        )
        app.build()
        assert "sphinx_design" in app.extensions
        if freshenv:
            assert app.warning.getvalue() == ""
        outputs.append({page: (Path(app.outdir) / page).read_bytes() for page in ("index.html", "full.html")})
    status = re.sub(r"\x1b\[[\d;]*m", "", app.status.getvalue())
    assert "configuration has changed" not in status
    assert "updating environment: 0 added, 0 changed, 0 removed" in status
    assert outputs[0] == outputs[1]
