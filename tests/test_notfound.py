"""The 404 page in Chromium, served as a plain host serves a site at its root: a missing address at any
depth gets the site's 404 page, which is styled (every stylesheet and script it names loads), offers a
search box and links home and to the contributions, and those work. The site is built without a canonical
URL, so its links start at ``/``, as sphinx-notfound-page writes them with ``notfound_urls_prefix = None``;
with a canonical URL they are absolute under that URL's path (``tests/test_browser.py`` serves it so at
``/en/latest/``). The extension does not change the 404 page (issue 44, item 3)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .chromium import SCREENSHOTS, SIZES, chromium, local_context, serve, watch_responses

pytestmark = pytest.mark.browser

PREFIXES = ("/",)
MISSING = ("no-such-page.html", "deep/down/no/such/page.html")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as found:
        yield found


@pytest.mark.parametrize("missing", MISSING)
@pytest.mark.parametrize("prefix", PREFIXES)
def test_the_404_page_is_styled_and_leads_somewhere(
    browser: Any, unaddressed_site: tuple[Path, str], prefix: str, missing: str
) -> None:
    html, _ = unaddressed_site
    with serve(html, prefix) as root:
        context, failed = local_context(browser, viewport=SIZES["phone"])
        try:
            page = context.new_page()
            url = root + missing
            watch_responses(page, failed, except_url=url)
            loaded: list[str] = []
            page.on(
                "response",
                lambda r: loaded.append(r.url) if r.request.resource_type in {"stylesheet", "script"} else None,
            )
            response = page.goto(url, wait_until="networkidle")
            assert response is not None and response.status == 404
            assert page.title().startswith("Page not found")
            # every stylesheet and script the page names resolved under the site's root, and applied
            named = page.evaluate(
                "() => [...document.querySelectorAll('link[rel=stylesheet], script[src]')].map(e => e.href || e.src)"
            )
            assert named and all(link.startswith(root) for link in named), named
            assert set(named) <= set(loaded)
            assert page.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
            applied = (
                "() => [...document.querySelectorAll('link[rel=stylesheet]')]"
                ".every(l => l.sheet && l.sheet.cssRules.length)"
            )
            assert page.evaluate(applied)
            # a search box in the page's text, and the way home and to the contributions
            article = page.locator("article[role=main]")
            assert article.locator("input[type=search]").is_visible()
            links = {a.inner_text(): a.get_attribute("href") for a in article.locator("a").all()}
            assert {"Home: Ada Tester", "Contributions: every upstream pull request"} <= set(links)
            if missing.startswith("deep"):
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / "404-phone.png"), full_page=True)
            article.locator("input[type=search]").fill("202")
            article.locator("button[type=submit]").click()
            page.wait_for_url(root + "search.html?q=202*")
            page.go_back()
            page.get_by_role("link", name="Contributions: every upstream pull request").click()
            page.wait_for_load_state("networkidle")
            assert page.url == root + "contributions/index.html"
            assert page.locator("h1").first.inner_text().startswith("Contributions")
        finally:
            context.close()
    assert failed == []
