"""The whole suite as the sdist ships it (``make test-sdist``): build the sdist from a copy of the sources,
unpack it into a temporary folder and run its own suite there with this interpreter; it passes with at most
:data:`MAX_SKIPPED` skipped tests (``tests/test_site.py``, the portfolio's own pages, skips as one: they
are not in the sdist).

The browser tests read axe-core from ``CONTRIBUTIONS_NODE_MODULES``: set to this repository's
``tests/node/node_modules`` (``npm ci`` there first), so the sdist's run installs nothing.

    python -m tests.sdist_suite [pytest arguments …]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: the skips an sdist's run may have: the module about the site, and one to spare
MAX_SKIPPED = 2
#: not sources: left out of the copy the sdist is built from
UNBUILT = shutil.ignore_patterns(
    ".git", ".venv", "_build", "build", "dist", "node_modules", "*.egg-info", "__pycache__", ".*_cache", "_work"
)
#: where the browser tests find ``axe-core`` when set (tests/test_a11y.py); else ``tests/node/node_modules``
NODE_MODULES = "CONTRIBUTIONS_NODE_MODULES"


def build_sdist(tmp: Path) -> tuple[Path, Path]:
    """The sdist built from a copy of the sources (so nothing is written into the working tree), and the
    folder it unpacks to, both under ``tmp``."""
    source = tmp / "source"
    shutil.copytree(REPO, source, ignore=UNBUILT)
    command = [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp / "dist"), str(source)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"building the sdist failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    (sdist,) = (tmp / "dist").glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp / "unpacked", filter="data")
    (unpacked,) = (tmp / "unpacked").iterdir()
    # the build's metadata, not a source: on PYTHONPATH it reads as an installed sphinx-contributions, so pip
    # would skip installing the wheel into the packaging tests' clean venvs, and pip freeze would list it
    for info in unpacked.glob("*.egg-info"):
        shutil.rmtree(info)
    return sdist, unpacked


def counts(output: str) -> dict[str, int]:
    """pytest's closing summary line (``3 passed, 1 skipped, 2 warnings in 5.00s``) as numbers."""
    lines = [line for line in output.splitlines() if re.search(r"\b\d+ (passed|failed|error|skipped)", line)]
    if not lines:
        return {}
    return {word: int(number) for number, word in re.findall(r"(\d+) (\w+)", lines[-1])}


def environment(unpacked: Path) -> dict[str, str]:
    """This environment, with the sdist's package first on the path and the repository's node_modules."""
    environ = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"}
    environ["PYTHONPATH"] = str(unpacked)
    environ.setdefault(NODE_MODULES, str(REPO / "tests" / "node" / "node_modules"))
    return environ


def main(arguments: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="sdist-suite-") as tmp:
        sdist, unpacked = build_sdist(Path(tmp))
        print(f"running the suite of {sdist.name} in {unpacked}", flush=True)
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", *arguments]
        output = []
        with subprocess.Popen(
            command,
            cwd=unpacked,
            env=environment(unpacked),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:  # shown as it comes: the run takes minutes
                sys.stdout.write(line)
                sys.stdout.flush()
                output.append(line)
        found = counts("".join(output))
        bad = {word: found.get(word, 0) for word in ("failed", "error", "errors")}
        if process.returncode != 0 or any(bad.values()) or not found.get("passed"):
            print(f"make test-sdist: the sdist's suite failed (exit status {process.returncode}, {found})")
            return 1
        if found.get("skipped", 0) > MAX_SKIPPED:
            print(f"make test-sdist: {found['skipped']} tests skipped in the sdist, at most {MAX_SKIPPED} may")
            return 1
        print(f"make test-sdist: {found['passed']} passed, {found.get('skipped', 0)} skipped in the sdist")
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
