"""A write-up read on a phone and a laptop (Chromium at 390×844 and 1280×900, light and dark), on
``tests/roots/test-portfolio``:

- its story starts on the first screen: the header carries the headline figure only, so the first
  section's heading ("Problem") is above the fold;
- no value of a figure is broken inside ("0 of 140 → 139 / of 140"): each takes one line box, in the
  header and in Verification;
- no text of the main column, on any page, is cut with an ellipsis (a long title wraps).

The site's own write-ups are measured the same way in ``tests/test_site.py``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .chromium import SCHEMES, SCREENSHOTS, SIZES, chromium, local_context, serve
from .conftest import PORTFOLIO, SITE_URL, environ_with, rtd_build
from .reading import ELLIPSIS, FIRST_SECTION_TOP, VALUES, evaluate, evaluate_pages

pytestmark = pytest.mark.browser

#: every write-up of the portfolio: alpha has three figures (the CTranslate2-like header), beta one, gamma none
WRITE_UPS = ("contributions/alpha-101.html", "contributions/beta-202.html", "contributions/gamma-303.html")
#: a unit that makes alpha's headline values longer than a phone's line: they wrap at the arrow, never inside
LONG_UNIT = "of 140 prompts on the example model"
#: a title longer than a phone's line, for the ellipsis check
LONG_TITLE = "Add per-layer relative attention bias tables to the alpha loader and keep existing conversions"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as found:
        yield found


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    with serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def long_title_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """The portfolio with alpha's title and headline values longer than a line, built strictly and served;
    and its pages."""
    root = tmp_path_factory.mktemp("long-title")
    src = root / "src"

    shutil.copytree(PORTFOLIO, src)
    page = src / "contributions" / "alpha-101.md"
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"^# .*$", f"# {LONG_TITLE}", text, count=1, flags=re.M)
    page.write_text(text.replace(":unit: of 140\n", f":unit: {LONG_UNIT}\n"), encoding="utf-8")
    # as Read the Docs builds it (a canonical URL under /en/latest/, where it is served): the 404 page's
    # absolute links, sphinx-notfound-page's, lead into the site
    done = rtd_build(src, root / "html", env=environ_with(READTHEDOCS_CANONICAL_URL=SITE_URL))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    pages = sorted(str(p.relative_to(root / "html")) for p in (root / "html").rglob("*.html"))
    pages = [p for p in pages if not p.startswith(("_", "genindex", "search"))]
    with serve(root / "html") as url:
        yield url, pages


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_the_story_starts_on_the_first_screen(browser: Any, base_url: str, size: str, scheme: str) -> None:
    """The first section ("Problem") starts above the fold: on alpha (three figures, one a held check) at
    852 px of 844 on a phone before the header carried the headline figure only."""
    tops = {page: evaluate(browser, base_url + page, SIZES[size], scheme, FIRST_SECTION_TOP) for page in WRITE_UPS}
    assert all(top is not None for top in tops.values()), tops
    assert {page: top for page, top in tops.items() if top >= SIZES[size]["height"]} == {}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_no_value_is_broken_inside(browser: Any, base_url: str, size: str, scheme: str) -> None:
    """Each value ("139 of 140") in one line box, in the header and in Verification: at 1280 px the header's
    three stats once broke as "0 of 140 → 139 / of 140"."""
    found = {page: evaluate(browser, base_url + page, SIZES[size], scheme, VALUES) for page in WRITE_UPS}
    assert len(found["contributions/alpha-101.html"]) >= 7  # the header's two values and Verification's five
    broken = {page: [(text, lines) for text, lines in values if lines != 1] for page, values in found.items()}
    assert {page: values for page, values in broken.items() if values} == {}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_long_values_wrap_between_them_not_inside(
    browser: Any, long_title_url: tuple[str, list[str]], size: str, scheme: str
) -> None:
    """Values too long for one line together break at the arrow: each stays whole (it broke anywhere)."""
    url, _ = long_title_url
    values = evaluate(browser, url + WRITE_UPS[0], SIZES[size], scheme, VALUES)
    assert f"0 {LONG_UNIT}" in [text for text, _ in values]
    assert [(text, lines) for text, lines in values if lines != 1] == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_no_text_is_cut_with_an_ellipsis(
    browser: Any, long_title_url: tuple[str, list[str]], size: str, scheme: str
) -> None:
    """Every page's main column: a title wraps rather than lose its end ("… not being cau…")."""
    url, pages = long_title_url
    assert "index.html" in pages and "contributions/alpha-101.html" in pages
    cut = evaluate_pages(browser, [url + page for page in pages], SIZES[size], scheme, ELLIPSIS)
    assert {page: found for page, found in cut.items() if found} == {}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_write_ups_first_screen_is_saved_for_a_person(browser: Any, base_url: str, scheme: str) -> None:
    """Screenshots to look at: ``_build/screenshots/story-{phone,laptop}-{scheme}.png`` (alpha's first screen)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        context, failed = local_context(browser, scheme=scheme, viewport=SIZES[size])
        try:
            page = context.new_page()
            page.goto(base_url + WRITE_UPS[0], wait_until="networkidle")
            path = SCREENSHOTS / f"story-{size}-{scheme}.png"
            page.screenshot(path=str(path))
        finally:
            context.close()
        assert failed == [] and path.stat().st_size > 0
