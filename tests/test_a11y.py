"""Accessibility: axe-core, injected by Playwright, over every page type in both colour schemes.

Zero violations at any impact level, with every rule axe enables by default (WCAG 2.x A/AA/AAA-tagged
rules it runs and its best practices such as ``region`` and ``landmark-unique``). axe-core is pinned in
``tests/node/package.json`` and installed with ``npm ci`` (``.ci/run``, or by this module when missing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.chromium import SCHEMES, unavailable
from tests.test_browser import PAGES, base_url, browser, new_context, open_page  # noqa: F401

pytestmark = pytest.mark.browser

NODE_DIR = Path(__file__).parent / "node"
#: ``CONTRIBUTIONS_NODE_MODULES`` names another ``node_modules`` (the sdist's run uses the repository's)
NODE_MODULES = Path(os.environ.get("CONTRIBUTIONS_NODE_MODULES") or NODE_DIR / "node_modules")
AXE = NODE_MODULES / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core from ``tests/node``, installed from its lock file on first use."""
    if not AXE.is_file():
        npm = shutil.which("npm")
        if npm is None:
            unavailable("npm not found: install Node.js 20 and npm (`apt-get install nodejs npm`) for axe-core")
        done = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
            cwd=NODE_DIR,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "npm_config_update_notifier": "false"},
        )
        if done.returncode != 0 or not AXE.is_file():
            unavailable(f"`npm ci` in {NODE_DIR} failed: {done.stderr[-2000:]}")
    return AXE


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:5]:
            lines.append(f"    {node['target']}: {node['failureSummary']!r}"[:400])
    return "\n".join(lines)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_violation(browser: Any, base_url: str, axe_script: Path, name: str, scheme: str) -> None:  # noqa: F811
    context, watch = new_context(browser, scheme=scheme)
    try:
        page = open_page(context, watch, base_url + PAGES[name])
        assert page.evaluate("document.body.dataset.theme") == scheme
        page.add_script_tag(path=str(axe_script))
        results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    finally:
        context.close()
    assert results["violations"] == [], f"{name} ({scheme}):\n" + describe(results["violations"])
    assert watch.problems() == {}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_axe_on_the_filtered_listing_and_phone_layout(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    axe_script: Path,
    scheme: str,
) -> None:
    """The filter's pressed buttons and the phone layout (furo's collapsed header) are checked too."""
    context, watch = new_context(browser, scheme=scheme, viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = open_page(context, watch, base_url + "contributions/index.html?tag=training")
        assert page.get_attribute("button[data-facet=tag][data-value=training]", "aria-pressed") == "true"
        page.add_script_tag(path=str(axe_script))
        results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    finally:
        context.close()
    assert results["violations"] == [], describe(results["violations"])
    assert watch.problems() == {}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", ["search", "contribution", "home"])
def test_axe_on_a_phone(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    axe_script: Path,
    name: str,
    scheme: str,
) -> None:
    """At 390×844 the search page held two search landmarks of one name, the page's box and the closed
    drawer's (axe: landmark-unique)."""
    context, watch = new_context(browser, scheme=scheme, viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = open_page(context, watch, base_url + PAGES[name])
        page.add_script_tag(path=str(axe_script))
        results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    finally:
        context.close()
    assert results["violations"] == [], f"{name} ({scheme}):\n" + describe(results["violations"])
    assert watch.problems() == {}
