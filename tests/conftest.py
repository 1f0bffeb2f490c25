"""Shared fixtures: Sphinx's own test fixtures over small sites in ``tests/roots``, among them
``tests/roots/test-portfolio`` (a portfolio like the repository's, with fictional pages) built once per
session with the exact command Read the Docs runs. The extension's tests build roots only; the checks of the
portfolio's own pages live in ``tests/test_site.py``, the one module that skips in an unpacked sdist."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

pytest_plugins = ("sphinx.testing.fixtures",)

REPO = Path(__file__).resolve().parent.parent
ROOTS = Path(__file__).resolve().parent / "roots"
#: an unpacked sdist (it has PKG-INFO at its top; the repository does not): it carries the extension and
#: these tests, not the portfolio's pages, which are the owner's content and not under the MIT licence
IN_SDIST = (REPO / "PKG-INFO").is_file()
#: the type of ``sphinx.testing``'s ``make_app`` fixture: it takes ``SphinxTestApp``'s arguments
MakeApp = Callable[..., SphinxTestApp]


#: the portfolio the extension's tests build: the repository's settings, theme and templates, fictional pages
PORTFOLIO = ROOTS / "test-portfolio"


#: the packages whose newest releases ``make test-latest`` installs: the report's header names their versions
STACK = ("sphinx", "myst-parser", "furo", "sphinx-design", "sphinx-sitemap", "sphinxext-opengraph")


def pytest_report_header(config: pytest.Config) -> str:
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    return "stack: " + ", ".join(f"{name} {installed(name)}" for name in STACK)


def pytest_configure(config: pytest.Config) -> None:
    """Sphinx colours its output when ``CI`` is set; tests read that output as text."""
    os.environ["NO_COLOR"] = "1"


#: the modules that run only in the pinned set (``make test``, nox's ``pinned``), each with its reason; every
#: other test is one of the extension's own and carries the ``extension`` marker, which noxfile.py's
#: ``oldest`` and ``newest`` sessions select (``-m extension``). The one list of what those sessions leave
#: out: no test skips itself by version.
PINNED_ONLY: dict[str, str] = {
    "test_a11y": "Chromium and axe-core on the portfolio",
    "test_browser": "Chromium",
    "test_browser_forge": "Chromium",
    "test_figures_browser": "Chromium",
    "test_i18n_browser": "Chromium",
    "test_notfound": "Chromium",
    "test_story_browser": "Chromium",
    "test_themes": "Chromium, and the themes of the test extra at their pinned releases",
    "test_workers": "the xdist scheduler of make test (-n auto), not a Sphinx build",
    "test_site": "the portfolio's own pages, Chromium and LaTeX",
    "test_formats": "LaTeX (xelatex) and epubcheck over the portfolio",
    "test_foreign": "copies of other projects' sites at the versions they pin, epubcheck and LaTeX",
    "test_packaging": "the sdist and wheel built and installed in a fresh venv from the pinned set",
    "test_pages": "whole pages stored as the pinned set writes them (furo's and Sphinx's markup)",
    "test_lint": "ruff and mypy at their pinned releases (make lint)",
    "test_bounds": "pip resolving the package against PyPI: the same answer on every set",
    "test_cli": "init's scaffold under the themes the test extra pins",
    "test_init": "init's scaffold under the themes the test extra pins, LaTeX and epubcheck",
    "test_serve": "sphinx-autobuild (the serve extra) at its pinned release",
    "test_autobuild": "sphinx-autobuild (the serve extra) at its pinned release",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test not in :data:`PINNED_ONLY` gets the ``extension`` marker. Browser tests run last:
    in-process builds fork (sphinx-sitemap starts a multiprocessing manager), and a fork while a browser's
    server or driver threads are alive can hang the child."""
    for item in items:
        if item.path.stem not in PINNED_ONLY:
            item.add_marker(pytest.mark.extension)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under pytest-xdist (``make test`` runs ``-n auto``): :class:`tests.workers.FileRunScheduling`, which
    keeps each module's tests, and so its module-scoped builds, on one worker, and each worker's browser
    tests after its builds."""
    from .workers import FileRunScheduling

    return FileRunScheduling(config, log)


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return ROOTS


def copy_site(dest: Path) -> Path:
    """A copy of :data:`PORTFOLIO` at ``dest``, to change and build."""
    shutil.copytree(PORTFOLIO, dest)
    return dest


#: the canonical URL the real site is built under in tests (Read the Docs would set its own)
SITE_URL = "https://portfolio.example.org/en/latest/"


def rtd_build(
    srcdir: Path, outdir: Path, *extra: str, env: dict[str, str] | None = None, builder: str = "html"
) -> subprocess.CompletedProcess[str]:
    """The command Read the Docs runs for a Sphinx project (see its build log), strict; ``env`` replaces
    the environment (e.g. to set what Read the Docs sets, see :func:`environ_with`)."""
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-T",
        "-W",
        "--keep-going",
        "-b",
        builder,
        "-d",
        str(outdir.parent / "doctrees"),
        "-D",
        "language=en",
        *extra,
        str(srcdir),
        str(outdir),
    ]
    return subprocess.run(command, capture_output=True, text=True, check=False, env=env)


def environ_with(**variables: str) -> dict[str, str]:
    """This process's environment without Read the Docs' variables, plus ``variables``."""
    environ = {name: value for name, value in os.environ.items() if not name.startswith("READTHEDOCS")}
    return {**environ, **variables}


#: a page for every project of the test portfolio (each is of one write-up): ``rtd_build`` arguments
PROJECT_PAGES = ("-D", "contributions_project_page_min=1")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:data:`PORTFOLIO`, built strictly once per session as Read the Docs publishes it (under the test-only
    canonical URL :data:`SITE_URL`); returns its ``html`` folder. Without a canonical URL the site writes
    no absolute URL to itself (``tests/test_no_canonical_url.py``). Each project gets its page
    (``contributions_project_page_min=1``; by default a project of one write-up gets none), so that every
    page type is there to test."""
    outdir = tmp_path_factory.mktemp("site") / "html"
    done = rtd_build(
        PORTFOLIO,
        outdir,
        *PROJECT_PAGES,
        env=environ_with(READTHEDOCS_CANONICAL_URL=SITE_URL),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    return outdir


@pytest.fixture(scope="session")
def unaddressed_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """:data:`PORTFOLIO` built strictly as ``make html`` builds it away from Read the Docs: no canonical URL
    known. Returns its ``html`` folder and the build's output."""
    outdir = tmp_path_factory.mktemp("unaddressed") / "html"
    done = rtd_build(PORTFOLIO, outdir, env=environ_with())
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    return outdir, done.stdout


@pytest.fixture(scope="session")
def listing_site(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tests/roots/test-listing`` (four contributions, every listing option) built once, warning-free."""
    srcdir = tmp_path_factory.mktemp("listing") / "src"
    shutil.copytree(rootdir / "test-listing", srcdir)
    app = SphinxTestApp("html", srcdir=srcdir, status=StringIO(), warning=StringIO())
    try:
        app.build(force_all=True)
        assert app.warning.getvalue() == ""
    finally:
        app.cleanup()
    return Path(app.outdir)


@pytest.fixture(scope="session")
def contrib_pages_app(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> SphinxTestApp:
    """``tests/roots/test-contrib-pages`` built once, strictly (warnings are errors). The app is cleaned up
    right after its build (its output and environment stay readable): an app left registered would make
    every later app in the session warn that docutils' nodes are already registered."""
    srcdir = tmp_path_factory.mktemp("contrib-pages") / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    app = SphinxTestApp(
        "html", srcdir=srcdir, freshenv=True, warningiserror=True, status=StringIO(), warning=StringIO()
    )
    try:
        app.build(force_all=True)
    finally:
        app.cleanup()
    return app
