"""On a site the extension is a guest of, an incremental build reads and writes what Sphinx alone would.

``tests/roots/test-guest`` is a small reST documentation site with no write-up; one of its pages warns
while it is read (a title underline too short) and when it is written (a ``:ref:`` to a label nobody
defined), as real sites do (ablog's docs, offline: six pages with unreachable intersphinx targets). Each
test builds one copy of it as it is and one with ``extensions.append("sphinx_contributions")`` as the only
change, the same builds in the same order, and compares which pages Sphinx reads and writes: on main a
no-op rebuild with the extension read the warning page again on every build (its "warnings that stay",
now the extension's own warnings only unless ``contributions_lasting_warnings`` is on).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOTS
from .edits import edit

GUEST = ROOTS / "test-guest"
#: Sphinx's progress lines, one per page when the output is not a terminal
_READ = re.compile(r"^reading sources\.\.\. \[\s*\d+%\] (\S+)", re.M)
_WRITTEN = re.compile(r"^writing output\.\.\. \[\s*\d+%\] (\S+)", re.M)
WARNINGS = [
    "guide.rst:2: WARNING: Title underline too short.",
    "guide.rst:6: WARNING: undefined label: 'nowhere' [ref.ref]",
]


def guest(dest: Path, *, extension: bool, lines: str = "") -> Path:
    """A copy of the guest site at ``dest``, with the extension appended (and ``lines`` of ``conf.py``)."""
    shutil.copytree(GUEST, dest)
    if extension or lines:
        with (dest / "conf.py").open("a", encoding="utf-8") as conf:
            conf.write(('extensions.append("sphinx_contributions")\n' if extension else "") + lines)
    return dest


#: the pages read, the pages written and the warnings of one build
Run = tuple[list[str], list[str], list[str]]


def build(src: Path) -> Run:
    """One build of ``src`` into the same output and doctree folders beside it: the pages read, the pages
    written and the warnings (paths relative to ``src``)."""
    out = src.parent / (src.name + "-out")
    command = [sys.executable, "-m", "sphinx", "-b", "html", "--no-color", "-d", str(out / "doctrees")]
    done = subprocess.run([*command, str(src), str(out / "html")], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    warnings = [line.replace(f"{src}/", "") for line in done.stderr.splitlines() if "WARNING" in line]
    return _READ.findall(done.stdout), _WRITTEN.findall(done.stdout), warnings


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Run]]:
    """Each site built three times: from scratch, again with nothing changed, then after an edit of one
    page that holds no write-up (``notes.rst``)."""
    root = tmp_path_factory.mktemp("guest")
    results: dict[str, list[Run]] = {}
    for name, extension in (("without", False), ("with", True)):
        src = guest(root / name, extension=extension)
        runs = [build(src), build(src)]
        edit(src / "notes.rst", "Plain notes", "Plain notes, edited")
        runs.append(build(src))
        results[name] = runs
    return results


def test_a_clean_build_reads_and_writes_every_page_and_warns_as_without(builds: dict[str, list[Run]]) -> None:
    assert builds["with"][0] == builds["without"][0]
    read, written, warnings = builds["with"][0]
    every = ["guide", "index", "notes"]
    assert (sorted(read), sorted(written), warnings) == (every, every, WARNINGS)


def test_a_rebuild_with_nothing_changed_reads_and_writes_nothing(builds: dict[str, list[Run]]) -> None:
    assert builds["without"][1] == ([], [], [])
    assert builds["with"][1] == ([], [], [])


def test_an_edit_of_one_page_reads_and_writes_what_sphinx_alone_does(builds: dict[str, list[Run]]) -> None:
    # Sphinx alone: the page, and the page whose toctree holds it
    assert builds["without"][2][:2] == (["notes"], ["index", "notes"])
    assert builds["with"][2] == builds["without"][2]


def test_every_warning_stays_with_the_setting_on(tmp_path: Path) -> None:
    """``contributions_lasting_warnings = True`` (this site's ``conf.py``, what ``init`` writes): the page
    that warned is read and written again, and its warnings shown, on every build until it is fixed."""
    src = guest(tmp_path / "src", extension=True, lines="contributions_lasting_warnings = True\n")
    assert build(src)[2] == WARNINGS
    for _ in range(2):
        assert build(src) == (["guide"], ["guide", "index"], WARNINGS)  # index: its toctree holds the page
    edit(src / "guide.rst", "Guide\n====\n", "Guide\n=====\n")
    edit(src / "guide.rst", ":ref:`nowhere`", "``nowhere``")
    assert build(src) == (["guide"], ["guide", "index"], [])
    assert build(src) == ([], [], [])
