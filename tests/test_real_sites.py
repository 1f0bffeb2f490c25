"""Small copies of real documentation sites nobody here wrote (issue 44, item 3; the sites themselves,
their versions and the results are in benchmarks/README.md): tests/roots/test-pallets (Flask: ``extlinks``
owning ``issue``/``pr``/``ghsa``, sphinx-notfound-page with ``notfound_urls_prefix = None`` set as
pallets-sphinx-themes sets it, a layout overriding ``metatags``) and tests/roots/test-marshmallow
(sphinx-issues' ``:issue:``/``:pr:``/``:user:``, alabaster's options, ``default_role = "py:obj"``).

Each builder builds each site without the extension and with ``extensions`` plus ``sphinx_contributions``,
in the same folders one after the other: the whole output trees (the 404 page included) and everything the
builds print are the same. Then a write-up is added the manual's way (docs/how-to/existing-site.md's
settings below the site's own) and the site builds strictly, its own links intact."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOTS
from .test_authoring import CONFS
from .test_foreign import WRITE_UP, comparable
from .treediff import first_difference

SITES = {"pallets": ROOTS / "test-pallets", "marshmallow": ROOTS / "test-marshmallow"}
BUILDERS = ("html", "dirhtml", "epub")


def sphinx(src: Path, out: Path, builder: str, *extra: str) -> tuple[int, str, str]:
    """A strict build (``-W --keep-going``), not quiet: what it prints is compared too."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "NO_COLOR": "1"}
    env.pop("READTHEDOCS", None)
    command = [sys.executable, "-m", "sphinx", "-b", builder, "-W", "--keep-going", *extra]
    command += ["-d", str(out.parent / "doctrees"), str(src), str(out)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("site", sorted(SITES))
def test_a_real_site_without_a_write_up_is_the_same_with_the_extension(tmp_path: Path, site: str, builder: str) -> None:
    src = tmp_path / "src"
    shutil.copytree(SITES[site], src)
    conf = src / "conf.py"
    original = conf.read_text(encoding="utf-8")
    said = []
    for name, text in (("without", original), ("with", original + '\nextensions.append("sphinx_contributions")\n')):
        shutil.rmtree(tmp_path / "doctrees", ignore_errors=True)
        conf.write_text(text, encoding="utf-8")
        said.append(sphinx(src, tmp_path / "out", builder))
        (tmp_path / "out").rename(tmp_path / name)
    assert said[0][0] == 0 and said[0][2] == ""
    assert said[1] == said[0]  # the same exit, stdout and stderr, whole
    assert first_difference(comparable(tmp_path / "without"), comparable(tmp_path / "with")) is None
    if site == "pallets" and builder != "epub":
        page = "404.html" if builder == "html" else "404/index.html"
        assert (tmp_path / "with" / page).is_file()  # the 404 page was compared


@pytest.mark.parametrize("site", sorted(SITES))
def test_a_write_up_added_the_manual_s_way_builds_strictly(tmp_path: Path, site: str) -> None:
    src = tmp_path / "src"
    shutil.copytree(SITES[site], src)
    (src / "upstream.md").write_text(WRITE_UP, encoding="utf-8")
    with (src / "conf.py").open("a", encoding="utf-8") as conf:
        # a site without MyST, as the how-to says: myst_parser appended and the list set, then its settings
        conf.write('\nextensions.append("myst_parser")\nmyst_enable_extensions = []\n' + CONFS["shared-site"])
    code, _, stderr = sphinx(src, tmp_path / "html", "html")
    assert (code, stderr) == (0, "")
    out = tmp_path / "html"
    assert 'href="https://github.com/widgets/widgets/pull/456"' in (out / "upstream.html").read_text(encoding="utf-8")
    changes = "changes.html" if site == "pallets" else "changelog.html"
    own = {"pallets": "https://github.com/pallets/flask/pull/5676", "marshmallow": "pull/2279"}[site]
    assert own in (out / changes).read_text(encoding="utf-8")
