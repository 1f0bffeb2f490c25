"""Lint and types: ruff (rules and formatting) over the code, mypy over the package (``make lint``)."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO

#: in an unpacked sdist only the package and the tests are there
PATHS = [path for path in ("sphinx_contributions", "tests", "benchmarks", "conf.py", "docs") if (REPO / path).exists()]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=REPO, capture_output=True, text=True, check=False)


def test_ruff_check() -> None:
    done = _run("ruff", "check", "--no-cache", *PATHS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format() -> None:
    done = _run("ruff", "format", "--check", "--no-cache", *PATHS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy() -> None:
    # pyproject's files, those there are (an unpacked sdist has no benchmarks/)
    done = _run(
        "mypy",
        "--no-incremental",
        *(path for path in ("sphinx_contributions", "tests", "benchmarks", "docs/_ext") if (REPO / path).exists()),
    )
    assert done.returncode == 0, done.stdout + done.stderr
