"""Chromium (Debian's, through Playwright's ``executable_path``) and a local server for a built site, for
every browser test (and ``tests/audit.py``): the site served under a prefix (``/en/latest/`` as on Read the
Docs, ``/en/stable/``, or ``/`` for a host root), a missing file answered with the site's ``404.html`` and
status 404, as Read the Docs and most static hosts do. Chromium is the system one (Debian: ``apt-get install
chromium``), never Playwright's download. Locally a missing Chromium skips; under ``CI`` it fails."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import pytest

from .conftest import REPO

#: where the site is served unless told: where Read the Docs serves it (the 404 page links under it)
PREFIX = "/en/latest/"
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
INSTALL_HINT = (
    "Chromium not found: install it with `apt-get install chromium` (Debian/Ubuntu; CI does this in .ci/run) "
    "or point CHROMIUM at a Chrome/Chromium binary"
)
#: where the tests put the screenshots a person looks at
SCREENSHOTS = REPO / "_build" / "screenshots"
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}
SCHEMES = ("light", "dark")


def unavailable(reason: str) -> NoReturn:
    """Skip locally; under CI the browser tests must run, so a missing piece fails them."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: browser tests must not be skipped)", pytrace=False)
    pytest.skip(reason)


def find_chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if candidate and (path := shutil.which(candidate)):
            return path
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium for the block."""
    path = find_chromium()
    if path is None:
        unavailable(INSTALL_HINT)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed: pip install -e '.[test]'")
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=path, args=ARGS)
    except Exception as error:
        playwright.stop()
        unavailable(f"Chromium at {path} does not start: {error}")
    try:
        yield browser
    finally:
        browser.close()
        playwright.stop()


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the html folder at ``prefix``; a missing file gets the site's 404 page with status 404."""

    prefix = PREFIX

    def translate_path(self, path: str) -> str:
        url_path = urlsplit(path).path
        if not url_path.startswith(self.prefix):
            return str(Path(self.directory) / "__outside_the_prefix__")
        return super().translate_path("/" + url_path.removeprefix(self.prefix))

    def send_head(self) -> BytesIO | Any:
        if not Path(self.translate_path(self.path)).exists():
            body = (Path(self.directory) / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return BytesIO(body)
        return super().send_head()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(directory: Path, prefix: str = PREFIX) -> Iterator[str]:
    """``http://127.0.0.1:<port><prefix>`` serving ``directory`` for the block."""
    handler = type("Handler", (SiteHandler,), {"prefix": prefix})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(directory)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


def local_context(browser: Any, *, scheme: str = "light", **options: Any) -> tuple[Any, list[str]]:
    """A context in ``scheme`` (furo's stored choice too) that reaches 127.0.0.1 only; the second value
    collects every request that failed or got a status of 400 or more (but the page asked for)."""
    failed: list[str] = []
    context = browser.new_context(color_scheme=scheme, **options)
    context.set_default_timeout(15_000)
    context.add_init_script(f"try {{ localStorage.setItem('theme', '{scheme}'); }} catch (e) {{}}")

    def gate(route: Any) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            failed.append(f"foreign: {route.request.url}")
            route.abort("blockedbyclient")

    context.route("**/*", gate)
    return context, failed


def failed_request(request: Any) -> str | None:
    """What to record of a request that failed; nothing where the browser cancelled it itself because the
    page it was for went away while it loaded (a click, a reload: ``net::ERR_ABORTED``, the favicon's
    request in flight when ``page.reload()`` starts), which is no failure of the site."""
    return None if request.failure == "net::ERR_ABORTED" else f"{request.url}: {request.failure}"


def watch_responses(page: Any, failed: list[str], *, except_url: str = "") -> None:
    def request_failed(request: Any) -> None:
        if (line := failed_request(request)) is not None:
            failed.append(line)

    page.on("requestfailed", request_failed)
    page.on(
        "response",
        lambda response: (
            failed.append(f"{response.url}: HTTP {response.status}")
            if response.status >= 400 and response.url != except_url
            else None
        ),
    )
