"""Whole pages, compared byte for byte with the stored ones (pytest-regressions' ``file_regression``, as
MyST-Parser and sphinx-design compare theirs): one page of each kind of ``tests/roots/test-portfolio`` as
Read the Docs publishes it (the session's ``site`` build: none of its own) and its Atom feed, and a page of
``tests/roots/test-guest``, a site the extension is a guest of (the module's one build). Any change
to what a page holds fails the test that names the page, with the diff; a change that is meant is stored
again with ``pytest tests/test_pages.py --force-regen``, and the stored file's diff is reviewed with it.

Normalised, and only that, for what differs without the page changing: the ``?v=`` checksums Sphinx adds to
the addresses of static files (a stylesheet's edit changes every page's), the content hash in a social
card's file name, and the feed's ``updated`` times (an undated write-up takes its last commit's time).
The stored pages are the pinned set's (``requirements/constraints.txt``): where ``make test-latest`` has
upgraded Sphinx or a theme, their markup is theirs to change, and the test says which versions differ.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from importlib.metadata import distributions
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name
from pytest_regressions.file_regression import FileRegressionFixture

from .conftest import REPO, ROOTS

#: (what kind of page, the site it is of, its file in that site's output); each is stored as
#: tests/test_pages/<site>-<file, '/' as '-'>
PAGES = (
    ("write-up", "portfolio", "contributions/alpha-101.html"),
    ("listing", "portfolio", "contributions/index.html"),
    ("tag page", "portfolio", "tags/training.html"),
    ("project page", "portfolio", "projects/alpha.html"),
    ("page without a write-up", "portfolio", "about/index.html"),
    ("feed", "portfolio", "contributions.atom"),
    # a documentation site the extension is a guest of (tests/roots/test-guest, reST and alabaster): a page
    # of its own, which the extension leaves as Sphinx writes it
    ("guest page without a write-up", "guest", "notes.html"),
)

#: what legitimately differs between builds of the same sources, and what it is written as instead
NORMALISED = (
    # the checksum of a static file's bytes: ``furo.css?v=7bdb33bb``
    (re.compile(r"\?v=[0-9a-f]{8}\b"), "?v=CHECKSUM"),
    # a social card's content hash: ``_images/social/contributions/alpha-101.169ef09f7ad36d52.png``
    (re.compile(r"(_images/social/[^\"'\s]+?)\.[0-9a-f]{16}\.png"), r"\1.HASH.png"),
    # the feed's times: a dated write-up's is its date, an undated one's its last commit's (the history's)
    (re.compile(r"<updated>[^<]*</updated>"), "<updated>TIME</updated>"),
)


def pinned() -> dict[str, str]:
    """Distribution name → the version ``requirements/constraints.txt`` pins."""
    pins: dict[str, str] = {}
    for line in (REPO / "requirements/constraints.txt").read_text(encoding="utf-8").splitlines():
        name, sep, pin = line.partition("==")
        if sep and not line.startswith("#"):
            pins[canonicalize_name(name)] = pin.strip()
    return pins


def unpinned() -> list[str]:
    """The installed distributions whose version is not the pinned one (``sphinx 9.1.1 (pinned 9.0.4)``):
    the stack's (:data:`~tests.conftest.STACK`, what ``make test-latest`` upgrades) and whatever came with it."""
    pins = pinned()
    found = set()
    for distribution in distributions():
        name = canonicalize_name(distribution.metadata["Name"])
        if name != "sphinx-contributions" and pins.get(name) != distribution.version:
            found.add(f"{name} {distribution.version} (pinned {pins.get(name, 'nothing')})")
    return sorted(found)


@pytest.fixture(scope="module")
def guest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tests/roots/test-guest`` with the extension appended to its ``extensions``, built once (html):
    its output folder."""
    src = Path(shutil.copytree(ROOTS / "test-guest", tmp_path_factory.mktemp("guest") / "src"))
    with (src / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('extensions.append("sphinx_contributions")\n')
    out = src.parent / "html"
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        "-q",
        "-d",
        str(src.parent / "doctrees"),
        str(src),
        str(out),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def normalised(text: str) -> str:
    for pattern, written in NORMALISED:
        text = pattern.sub(written, text)
    return text


def test_normalising_keeps_everything_else() -> None:
    """Only the checksums, card hashes and feed times are rewritten: a changed word, link or class is not."""
    page = (
        '<link href="../_static/furo.css?v=7bdb33bb" /><a href="x.html?v=1">v=1</a>'
        '<meta content="https://h/en/latest/_images/social/contributions/a-1.169ef09f7ad36d52.png" />'
        "<updated>2025-05-05T00:00:00Z</updated><p>?v=deadbeef0</p>"
    )
    assert normalised(page) == (
        '<link href="../_static/furo.css?v=CHECKSUM" /><a href="x.html?v=1">v=1</a>'
        '<meta content="https://h/en/latest/_images/social/contributions/a-1.HASH.png" />'
        "<updated>TIME</updated><p>?v=deadbeef0</p>"
    )


@pytest.mark.parametrize(("kind", "name", "path"), PAGES, ids=[f"{kind}: {path}" for kind, _, path in PAGES])
def test_page_is_unchanged(
    request: pytest.FixtureRequest, file_regression: FileRegressionFixture, kind: str, name: str, path: str
) -> None:
    """The page as built, whole (normalised as the module says), equals the stored one."""
    differ = unpinned()
    if differ:
        pytest.skip(f"the stored pages are the pinned set's; installed: {', '.join(differ)}")
    site: Path = request.getfixturevalue({"portfolio": "site", "guest": "guest"}[name])
    text = (site / path).read_text(encoding="utf-8")
    file_regression.check(
        normalised(text),
        basename=f"{name}-{path.replace('/', '-').rpartition('.')[0]}",
        extension="." + path.rpartition(".")[2],
        newline="\n",
    )
