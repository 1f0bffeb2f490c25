"""Issue 44, "Why" 2: the bounds ``pyproject.toml`` declares are ones that install. A lower bound that the
packages the extension builds on refuse never installs beside them; an upper bound must let in what
Read the Docs installs for a new site (Sphinx 9.2 on Python 3.13 takes docutils 0.23)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib.metadata import requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).parent.parent
DECLARED = {
    Requirement(line).name.lower(): Requirement(line).specifier
    for line in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
}


def lower_bound(specifier: SpecifierSet) -> str:
    (found,) = [spec.version for spec in specifier if spec.operator == ">="]
    return found


@pytest.mark.parametrize("package", ["sphinx", "myst-parser"])
def test_every_lower_bound_is_one_the_packages_it_builds_on_accept(package: str) -> None:
    """Each requirement of the installed Sphinx and MyST-Parser on a package the extension also declares
    admits the extension's lower bound (``markdown-it-py>=4`` beside MyST-Parser 5.2's ``~=4.2`` never
    installed: fails on 8ef1f3a)."""
    refused = {}
    for line in requires(package) or []:
        requirement = Requirement(line)
        name = requirement.name.lower()
        applies = requirement.marker is None and name in DECLARED and bool(requirement.specifier)
        if applies and not requirement.specifier.contains(lower_bound(DECLARED[name]), prereleases=True):
            refused[name] = (str(DECLARED[name]), str(requirement.specifier))
    assert refused == {}


def test_the_docutils_of_sphinx_9_2_on_python_3_13_is_allowed() -> None:
    """``docutils<0.23`` refused 0.23.1, which Sphinx 9.2 takes on Python 3.13 (fails on 8ef1f3a)."""
    assert DECLARED["docutils"].contains("0.23.1")


def test_the_oldest_session_installs_every_declared_lower_bound() -> None:
    """noxfile.py's ``oldest`` pins are pyproject's lower bounds, read from the file: they cannot drift."""
    sys.path.insert(0, str(ROOT))
    try:
        import noxfile
    finally:
        sys.path.remove(str(ROOT))
    pins = dict(pin.split("==") for pin in noxfile.lower_bound_pins())
    assert {name.lower(): version for name, version in pins.items()} == {
        name: lower_bound(specifier) for name, specifier in DECLARED.items()
    }


#: the docs requirements of a real site (benchmarks/README.md) that pins Sphinx 8: Flask's
FLASK = ["sphinx<9", "pallets-sphinx-themes", "sphinx-tabs", "sphinxcontrib-log-cabinet"]


def resolve(*requirements: str) -> subprocess.CompletedProcess[str]:
    """pip's resolver against PyPI (nothing installed): the package's own requirements (its wheel declares
    pyproject's ``dependencies``) together with ``requirements``."""
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet"]
    command += ["--disable-pip-version-check", "--report", "-", *dependencies, *requirements]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


def test_a_site_on_sphinx_8_keeps_its_sphinx() -> None:
    """Issue 44, "Why" 1: Flask's docs (``sphinx<9``) installed with the extension keep their Sphinx 8 and get
    a MyST-Parser and docutils inside the package's ranges. On main (``sphinx>=9.0``) pip answered "Cannot
    install ... sphinx-contributions 0.1.0 depends on sphinx<10 and >=9.0"."""
    run = resolve(*FLASK)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    versions = {item["metadata"]["name"].lower(): item["metadata"]["version"] for item in report["install"]}
    assert versions["sphinx"].startswith("8.2."), versions["sphinx"]
    assert DECLARED["myst-parser"].contains(versions["myst-parser"]), versions["myst-parser"]
    assert DECLARED["docutils"].contains(versions["docutils"]), versions["docutils"]


@pytest.mark.parametrize("pin", ["sphinx==8.1.3", "sphinx==7.4.7"])
def test_a_site_below_the_floor_is_refused_by_name(pin: str) -> None:
    """Below Sphinx 8.2 (marshmallow's 8.1.3 and its earlier 7.4.7; pyproject's comment says what fails
    there) pip refuses, naming the package's Sphinx range, rather than install a stack the extension's
    tests fail on."""
    run = resolve(pin)
    assert run.returncode != 0
    assert f"ERROR: Cannot install sphinx<10 and >=8.2 and {pin} because" in run.stderr
