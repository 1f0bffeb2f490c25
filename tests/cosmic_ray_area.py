"""cosmic-ray's test command (``tests/cosmic-ray.toml``): the tests of the mutated file's area.

cosmic-ray applies one mutation to a file of the copy it runs in, then runs this; it says nothing of which
file. The file is the one whose bytes differ from the unmutated copy named by ``CR_PRISTINE``; its area's
test modules (:data:`tests.mutate.AREAS`, the same as ``make mutate``'s) run with ``-x``, over the cores
(xdist): exit 0 when they pass (the mutant survived), 1 when one fails (killed). With no file changed
(cosmic-ray's baseline), the test modules of every area under ``write/`` and ``collect/`` run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.mutate import AREAS

PACKAGE = "sphinx_contributions"


def mutated(copy: Path, pristine: Path) -> list[str]:
    """The package's files (``write/x.py``) whose bytes differ between ``copy`` and ``pristine``."""
    return sorted(
        path.relative_to(copy / PACKAGE).as_posix()
        for path in (copy / PACKAGE).rglob("*.py")
        if path.read_bytes() != (pristine / PACKAGE / path.relative_to(copy / PACKAGE)).read_bytes()
    )


def area_tests(path: str) -> tuple[str, ...]:
    return AREAS[max((prefix for prefix in AREAS if path.startswith(prefix)), key=len)]


def main() -> int:
    copy, pristine = Path.cwd(), Path(os.environ["CR_PRISTINE"])
    changed = mutated(copy, pristine)
    paths = changed or ["write/", "collect/"]
    tests = list(dict.fromkeys(test for path in paths for test in area_tests(path)))
    print(f"mutated: {', '.join(changed) or 'nothing'}; tests: {' '.join(tests)}", flush=True)
    environ = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"} | {"PYTHONPATH": str(copy)}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-n",
        "auto",
        "-p",
        "no:cacheprovider",
        "-m",
        "not browser",
        *tests,
    ]
    return min(subprocess.run(command, cwd=copy, env=environ, check=False).returncode, 1)


if __name__ == "__main__":
    sys.exit(main())
