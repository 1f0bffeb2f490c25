"""The themes gallery's pictures (docs/how-to/themes.md), made from real builds: for each theme the
extension supports (``sphinx_contributions.themes.THEMES``), ``contributions init --theme THEME`` writes a
site, its sample write-up is published (``:status: draft`` → ``merged``), the site is built strictly, and
Chromium (Debian's ``/usr/bin/chromium``, driven by Playwright, as the browser tests do:
tests/chromium.py) takes the write-up's first screen at phone (390×844) and laptop (1280×900) width, light
scheme. Each picture is written as WebP (Pillow) into docs/how-to/gallery/THEME-SIZE.webp.

Run it with ``make gallery``; it takes a minute or two. Nothing here runs in the tests: the pictures are
committed, and tests/test_docs.py checks that the page names every theme and that each picture exists.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from sphinx_contributions.themes import THEMES

HERE = Path(__file__).parent
OUT = HERE / "how-to" / "gallery"
#: the sizes of the browser tests (tests/chromium.py SIZES)
SIZES = {"phone": (390, 844), "laptop": (1280, 900)}
#: Chromium's switches of the browser tests (tests/chromium.py ARGS)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGE = "contributions/demo-1.html"


def build(theme: str, work: Path) -> Path:
    """The init site under ``theme``, its sample write-up published, built strictly: the output folder."""
    site = work / theme
    init = [sys.executable, "-m", "sphinx_contributions", "init", str(site), "--name", "Ada Lovelace"]
    subprocess.run([*init, "--github", "ada", "--theme", theme, "--yes"], check=True, capture_output=True)
    sample = site / "contributions" / "demo-1.md"
    sample.write_text(sample.read_text(encoding="utf-8").replace(":status: draft", ":status: merged"), "utf-8")
    out = work / f"{theme}-html"
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(site), str(out)]
    subprocess.run(command, check=True)
    return out


def main() -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        for theme in THEMES:
            out = build(theme, Path(folder))
            for size, (width, height) in SIZES.items():
                page = browser.new_page(viewport={"width": width, "height": height}, color_scheme="light")
                page.goto((out / PAGE).as_uri())
                page.wait_for_load_state("load")
                shot = Image.open(io.BytesIO(page.screenshot()))
                target = OUT / f"{theme}-{size}.webp"
                shot.save(target, "WEBP", quality=80, method=6)
                print(f"{target.relative_to(HERE)}: {target.stat().st_size // 1024} KB")
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
