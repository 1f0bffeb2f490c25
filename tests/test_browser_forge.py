"""The header's facts from the lock ("merged on DATE · first shipped in vX") as a reader sees them, in
Chromium (see :mod:`tests.test_browser`): at 390×844 and 1280×900, light and dark, under furo, the line is
above the fold inside the header card, its text at least 4.5:1 against what is behind it, and the page does
not scroll sideways."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sphinx.testing.util import SphinxTestApp

from sphinx_contributions.lock import LOCK_NAME

from .chromium import serve
from .colours import contrast
from .conftest import REPO, ROOTS
from .test_browser import browser, new_context, open_page, rgb  # noqa: F401  (browser: a fixture)
from .test_lock import lock_text  # noqa: F401  (a fixture: the lock sync writes against the fake forges)

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, lock_text: str) -> Iterator[str]:  # noqa: F811
    src = Path(shutil.copytree(ROOTS / "test-sync", tmp_path_factory.mktemp("forge-browser") / "src"))
    (src / LOCK_NAME).write_text(lock_text, encoding="utf-8")
    app = SphinxTestApp("html", srcdir=src, confoverrides={"html_theme": "furo"})
    try:
        app.build()
        assert app.warning.getvalue() == ""
    finally:
        app.cleanup()
    with serve(Path(app.outdir)) as url:
        yield url


_BEHIND = """e => { for (let n = e; n; n = n.parentElement) {
  const c = getComputedStyle(n).backgroundColor; if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; }
  return getComputedStyle(document.body).backgroundColor; }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_header_facts_are_seen(browser: Any, served: str, viewport: str, scheme: str) -> None:  # noqa: F811
    size = VIEWPORTS[viewport]
    context, watch = new_context(browser, scheme=scheme, viewport=size)
    try:
        page = open_page(context, watch, served + "contributions/widget-12.html")
        facts = page.locator(".contrib-forge-facts")
        assert facts.inner_text() == "merged on 2024-03-01 · first shipped in v1.2.0"
        box, card = facts.bounding_box(), page.locator(".contrib-header-card").bounding_box()
        assert box is not None and card is not None
        assert box["y"] + box["height"] <= size["height"]  # above the fold
        assert card["x"] <= box["x"] and box["x"] + box["width"] <= card["x"] + card["width"]
        assert card["y"] <= box["y"] and box["y"] + box["height"] <= card["y"] + card["height"]
        text = rgb(facts.evaluate("e => getComputedStyle(e).color"))
        behind = rgb(facts.evaluate(_BEHIND))
        assert contrast(text, behind) >= 4.5, (text, behind)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shots = REPO / "_build" / "browser"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"forge-facts-{viewport}-{scheme}.png"))
        assert watch.problems() == {}
    finally:
        context.close()
