"""The linkcheck builder checks every link a write-up shows, those the extension renders too (issue 33):
the header's pull request, issues and repository, and a figure's evidence. Sphinx collects a page's links
before ``doctree-resolved``, where the header is rendered, so it had checked a body's ``{pr}`` links and
the profile's, and none of the header's.

No network here: the forge's web address is a local server (127.0.0.1) for the test, and the server
answers the pull request and the repository, and 404 for the issue."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

import pytest

from sphinx_contributions.forges.base import Forge

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from .conftest import MakeApp

PAGE = """\
# A fix

:::{contribution}
:repo: owner/repo
:pr: 7
:issue: 8
:summary: S.
:::

:::{problem}
P, which {pr}`other/thing#3` also saw.
:::

:::{root-cause}
R.
:::

:::{fix}
F.
:::

::::{verification}
:::{metric} Drift
:before: 2
:after: 1
:evidence: PR 9
:::
::::
"""

#: the paths the local forge answers with 200; every other one is a 404
FOUND = {"/owner/repo", "/owner/repo/pull/7", "/owner/repo/pull/9", "/other/thing/pull/3"}


class _Forge(BaseHTTPRequestHandler):
    asked: list[str] = []  # noqa: RUF012 (the requests seen, one list per test's server)

    def do_HEAD(self) -> None:
        self.asked.append(self.path)
        self.send_response(200 if self.path in FOUND else 404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_HEAD  # noqa: N815

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def forge(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, list[str]]]:
    """A local forge: every repository's address is ``http://127.0.0.1:PORT/owner/name``."""
    asked: list[str] = []
    handler = type("Handler", (_Forge,), {"asked": asked})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setattr(Forge, "repo_url", lambda self, path: f"{base}/{path}")
    try:
        yield base, asked
    finally:
        server.shutdown()
        server.server_close()


def test_linkcheck_checks_the_links_the_extension_renders(
    make_app: MakeApp, tmp_path: Path, forge: tuple[str, list[str]]
) -> None:
    base, asked = forge
    src = tmp_path / "src"
    (src / "contributions").mkdir(parents=True)
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
        "linkcheck_retries = 1\nlinkcheck_timeout = 10\n",
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Home\n\n```{toctree}\n:glob:\ncontributions/*\n```\n", encoding="utf-8")
    (src / "contributions" / "repo-7.md").write_text(PAGE, encoding="utf-8")
    app = make_app("linkcheck", srcdir=src, freshenv=True)
    app.build()
    results = [json.loads(line) for line in (app.outdir / "output.json").read_text().splitlines()]
    found = {(r["filename"], r["lineno"], r["uri"], r["status"]) for r in results}
    page = "contributions/repo-7.md"
    assert found == {
        (page, 3, f"{base}/owner/repo/pull/7", "working"),  # the header's, at the header's line
        (page, 3, f"{base}/owner/repo/issues/8", "broken"),
        (page, 3, f"{base}/owner/repo", "working"),
        (page, 11, f"{base}/other/thing/pull/3", "working"),  # the body's {pr}, checked before too
        (page, 23, f"{base}/owner/repo/pull/9", "working"),  # the figure's evidence, at the metric's line
    }
    assert sorted(set(asked)) == [
        "/other/thing/pull/3",
        "/owner/repo",
        "/owner/repo/issues/8",
        "/owner/repo/pull/7",
        "/owner/repo/pull/9",
    ]
