"""The listings' filter on a translated site, in Chromium at 390×844 and 1280×900: every word of its
controls and its status line is the site's translation (``tests/roots/test-i18n``, ``language = "de"``), it
still filters, and the longer German words fit the phone's width. Screenshots go to
``_build/screenshots/i18n-filter-*.png``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .chromium import SCREENSHOTS, SIZES, chromium, local_context, serve, watch_responses
from .conftest import ROOTS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def german_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("i18n") / "src"
    shutil.copytree(ROOTS / "test-i18n", src)
    out = src.parent / "html"
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", "-D", "language=de", "-D", "html_theme=furo"]
    subprocess.run([*command, str(src), str(out)], check=True)
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as found:
        yield found


@pytest.mark.parametrize("size", SIZES)
def test_the_filter_speaks_the_sites_language(browser: Any, german_site: Path, size: str) -> None:
    with serve(german_site) as root:
        context, failed = local_context(browser, viewport=SIZES[size])
        try:
            page = context.new_page()
            watch_responses(page, failed)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(root + "index.html", wait_until="networkidle")
            panel = page.locator(".contrib-facets")
            if not panel.locator("details").evaluate("d => d.open"):  # closed on a phone
                panel.locator("summary").click()
            assert panel.locator("summary").inner_text() == "Nach Projekt, Schlagwort oder Status filtern"
            assert panel.locator("legend").all_inner_texts() == ["Projekt", "Schlagwort", "Status"]
            assert panel.locator("fieldset").first.locator("button").first.inner_text() == "Alle"
            status = panel.locator(".contrib-facet-status")
            assert status.inner_text() == "2 von 2 Beiträgen. Kein Filter aktiv."
            panel.get_by_role("button", name="zusammengeführt").click()
            assert status.inner_text() == "1 von 2 Beiträgen. Aktive Filter: Status: zusammengeführt."
            assert page.locator("tr.contrib-item:visible").count() == 1
            # the German words fit: nothing wider than the viewport
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"i18n-filter-{size}.png"), full_page=True)
        finally:
            context.close()
    assert failed == []
    assert errors == []
