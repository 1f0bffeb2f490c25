"""The package as others get it: the sdist and wheel build and pass ``twine check --strict``; the wheel
holds the licence, ``py.typed``, the static files and the schema; installed alone into a clean venv it
builds the package README's minimal site strictly; the unpacked sdist carries its tests and runs them;
the pinned set is complete.

The build uses ``--no-isolation``: the pinned setuptools of ``.venv`` (``requirements/constraints.txt``)
instead of the newest from the index, so it works offline and gives the same result each time (an
isolated build made a wheel of the same files). ``build`` still checks that the environment meets
``build-system.requires``. Building and installing take about a minute; ``-m "not packaging"`` leaves
these tests out of a quick run.
"""

from __future__ import annotations

import email
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import Message
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]  # PyYAML (through MyST-Parser), without stubs

from .conftest import REPO
from .sdist_suite import UNBUILT, counts
from .tools import require_epubcheck, require_font, require_tool

pytestmark = pytest.mark.packaging

PACKAGE = "sphinx_contributions"
PACKAGE_README = REPO / PACKAGE / "README.md"
CONSTRAINTS = REPO / "requirements" / "constraints.txt"
INFO_LINE = (
    "html_baseurl is not set (no canonical URL), so no absolute URL to the site is written; left out: "
    "canonical links, absolute URLs in contributions.json, the Atom feed contributions.atom; set html_baseurl "
    "(on Read the Docs: READTHEDOCS_CANONICAL_URL) to write them"
)


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run ``command``; its output, or a failure that shows it."""
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{command} exited {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout + done.stderr


@dataclass(frozen=True)
class Dists:
    sdist: Path
    wheel: Path
    #: the sdist, unpacked
    unpacked: Path


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    """sdist and wheel (the wheel built from the sdist, as ``python -m build`` does), from a copy of the
    sources, so the build writes nothing into the working tree."""
    tmp = tmp_path_factory.mktemp("dists")
    source = tmp / "source"
    shutil.copytree(REPO, source, ignore=UNBUILT)
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", tmp / "dist", source)
    (sdist,) = (tmp / "dist").glob("*.tar.gz")
    (wheel,) = (tmp / "dist").glob("*.whl")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp / "unpacked", filter="data")
    (unpacked,) = (tmp / "unpacked").iterdir()
    return Dists(sdist, wheel, unpacked)


def wheel_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def wheel_metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        return email.message_from_string(archive.read(name).decode("utf-8"))


def test_twine_check_strict(dists: Dists) -> None:
    output = run(sys.executable, "-m", "twine", "check", "--strict", dists.sdist, dists.wheel)
    assert output.count("PASSED") == 2, output
    assert "WARNING" not in output, output


def test_wheel_holds_the_package_its_data_and_the_licence(dists: Dists) -> None:
    """Every file of the package's folder is in the wheel (modules, ``py.typed``, static files, schema,
    and any data folder added later), except the README, which is the long description only."""
    source = {
        path.relative_to(REPO).as_posix()
        for path in (REPO / PACKAGE).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".pyo"}
    }
    files = wheel_files(dists.wheel)
    in_package = {name for name in files if name.startswith(PACKAGE + "/")}
    assert in_package == source - {f"{PACKAGE}/README.md"}
    with zipfile.ZipFile(dists.wheel) as archive:  # the guide, as a file (the package's is a link to it)
        assert archive.read(f"{PACKAGE}/AUTHORING.md") == (REPO / "AUTHORING.md").read_bytes()
    for name in (
        "py.typed",
        "AUTHORING.md",
        "static/contributions.css",
        "static/contributions.js",
        "schema/contributions.schema.json",
    ):
        assert f"{PACKAGE}/{name}" in files, name
    (licence,) = [name for name in files if name.endswith(".dist-info/licenses/LICENSE")]
    with zipfile.ZipFile(dists.wheel) as archive:
        assert archive.read(licence) == (REPO / "LICENSE").read_bytes()
    assert all(name.startswith((f"{PACKAGE}/", f"{PACKAGE}-")) for name in files), sorted(files)


def test_wheel_metadata(dists: Dists) -> None:
    metadata = wheel_metadata(dists.wheel)
    assert metadata["Name"] == "sphinx-contributions"
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert "MIT License" in (REPO / "LICENSE").read_text(encoding="utf-8")
    classifiers = metadata.get_all("Classifier") or []
    for classifier in (
        "Framework :: Sphinx :: Extension",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Topic :: Documentation :: Sphinx",
        "Typing :: Typed",
    ):
        assert classifier in classifiers, classifier
    assert not [c for c in classifiers if c.startswith("License ::")]  # the licence is License-Expression
    assert metadata.get_all("Project-URL") == [
        "Homepage, https://github.com/the-cross-art",
        "Author, https://github.com/the-cross-art",
    ]
    requires = metadata.get_all("Requires-Dist") or []
    assert "markdown-it-py<5,>=4.2" in requires  # imported by the extension itself
    assert 'pillow<14,>=11; extra == "cards"' in requires  # social cards only
    assert 'sphinx-autobuild<2026,>=2025.8.25; extra == "serve"' in requires
    assert not [r for r in requires if r.lower().startswith("pillow") and "extra" not in r]
    # the long description is the package's own README, not the site's
    assert metadata["Description-Content-Type"] == "text/markdown"
    body = metadata.get_payload()
    assert isinstance(body, str)
    assert body.strip() == PACKAGE_README.read_text(encoding="utf-8").strip()


def test_sdist_holds_the_tests_and_what_they_read_but_not_the_site(dists: Dists) -> None:
    root = dists.unpacked
    for name in (
        "LICENSE",
        "AUTHORING.md",
        "Makefile",
        "requirements/constraints.txt",
        "pyproject.toml",
        "MANIFEST.in",
        "tests/__init__.py",
        "tests/conftest.py",
        "tests/treediff.py",
        "tests/node/package.json",
        "tests/node/package-lock.json",
        ".github/workflows/release.yml",  # tests/test_packaging.py reads it
        f"{PACKAGE}/README.md",
    ):
        assert (root / name).is_file(), name
    tests = {path.name for path in (REPO / "tests").glob("*.py")}
    assert {path.name for path in (root / "tests").glob("*.py")} == tests
    roots = {path.relative_to(REPO).as_posix() for path in (REPO / "tests/roots").rglob("*") if path.is_file()}
    assert {path.relative_to(root).as_posix() for path in (root / "tests/roots").rglob("*") if path.is_file()} == roots
    # the portfolio's pages are the owner's content, not under the MIT licence
    for name in ("conf.py", "index.md", "README.md", "contributions", "about", "open-source", "_static"):
        assert not (root / name).exists(), name


def collected_ids(collected: str) -> set[str]:
    """The test ids a ``pytest --collect-only -q`` run printed."""
    return {line for line in collected.splitlines() if line.startswith("tests/") and "::" in line}


def test_tests_run_from_the_unpacked_sdist(dists: Dists) -> None:
    """Every test module imports there (conftest, treediff, the roots' paths), and a few run against the
    sdist's own package, the test portfolio among them; the module about the real site skips as one, as
    the site is not in the sdist; it collects the repository's tests but that module, so ``make test``
    runs each test once, from the repository (``make test-sdist`` runs the sdist's whole suite)."""
    root = dists.unpacked
    env = {**os.environ, "PYTHONPATH": str(root)}
    located = run(sys.executable, "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)", cwd=root, env=env)
    assert Path(located.strip()).is_relative_to(root), located
    pytest_ = (sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q")
    collected = run(*pytest_, "--collect-only", "tests", cwd=root, env=env)
    assert " error" not in collected, collected
    # the sdist ships the suite: the same tests as the repository's, but the module about the site
    ours = run(*pytest_, "--collect-only", "tests", cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert collected_ids(collected) == {
        test for test in collected_ids(ours) if not test.startswith("tests/test_site.py")
    }
    output = run(
        *pytest_,
        "tests/test_model.py",
        "tests/test_warnings.py::test_the_root_itself_builds_strictly",
        "tests/test_authoring.py::test_every_markdown_block_is_an_example",
        "tests/test_exports.py::test_opengraph_description_from_summary",
        "tests/test_site.py",
        "-rs",
        cwd=root,
        env=env,
    )
    found = counts(output)
    assert (
        found.get("skipped") == 1
        and found.get("passed", 0) > 0
        and set(found) <= {"passed", "skipped", "warnings", "in"}
    ), output
    assert "the portfolio's pages are not in the sdist: run tests/test_site.py from the repository" in output, output


_EXAMPLE = re.compile(
    r"^<!-- package-example: (?P<path>\S+) -->\n(?P<fence>`{3,})\w+\n(?P<body>.*?)^(?P=fence)$", re.M | re.S
)


def package_readme_site() -> dict[str, str]:
    """The minimal site of the package README: each fenced block after a ``package-example`` marker."""
    text = PACKAGE_README.read_text(encoding="utf-8")
    examples = {match["path"]: match["body"] for match in _EXAMPLE.finditer(text)}
    assert len(examples) == len(re.findall(r"^```(?!console)\w+$", text, re.M)), "a code block without a marker"
    return examples


def test_package_readme_holds_a_minimal_site() -> None:
    site = package_readme_site()
    assert sorted(site) == ["conf.py", "contributions/demo-1.md", "index.md"]
    assert 'extensions = ["myst_parser", "sphinx_contributions"]' in site["conf.py"]
    assert "html_baseurl =" not in site["conf.py"].replace("# html_baseurl =", "")  # shown, not set
    assert INFO_LINE in PACKAGE_README.read_text(encoding="utf-8").replace("\n", " ")


def test_the_wheel_alone_builds_the_minimal_site_strictly(dists: Dists, tmp_path: Path) -> None:
    """A clean venv with the wheel and its dependencies only (pinned); the README's minimal site built
    from a folder outside the source tree, with ``-I`` so nothing but the venv is importable."""
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "-c",
        CONSTRAINTS,
        dists.wheel,
    )
    work = tmp_path / "work"
    site = work / "site"
    for name, text in package_readme_site().items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    env = clean_env()

    located = run(python, "-I", "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)", cwd=work, env=env)
    assert Path(located.strip()).is_relative_to(venv), located
    shown_help = run(venv / "bin" / "contributions", "--help", cwd=work, env=env)
    assert "usage: contributions" in shown_help
    # the guide it points at is in the installed package (before: "AUTHORING.md", which the wheel lacked)
    guide = Path(shown_help.split("every warning and command):\n", 1)[1].splitlines()[0].strip())
    assert guide.is_relative_to(venv) and guide.read_bytes() == (REPO / "AUTHORING.md").read_bytes(), guide
    assert run(venv / "bin" / "contributions", "--version", cwd=work, env=env).startswith(
        "contributions (sphinx-contributions) 0.1.0, Sphinx 9."
    )

    def build(outdir: Path, *extra: str) -> str:
        command = [
            str(python),
            "-I",
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-b",
            "html",
            *extra,
            str(site),
            str(outdir),
        ]
        done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr
        assert "WARNING" not in done.stderr, done.stderr
        return done.stdout

    html = work / "html"
    assert INFO_LINE in build(html).splitlines()
    assert not (html / "contributions.atom").exists()
    # the doctrees are Sphinx's default, html/.doctrees: the report goes there, never beside the output
    # folder (the watched source tree of `sphinx-autobuild . _build/html`)
    assert not list(work.glob("contributions-report.*"))
    report = json.loads((html / ".doctrees" / "contributions-report.html.json").read_text(encoding="utf-8"))
    assert report["builder"] == "html"
    for name in ("contributions.json", "contributions.schema.json", "_static/contributions.css"):
        assert (html / name).is_file(), name
    index = (html / "index.html").read_text(encoding="utf-8")
    assert 'href="contributions/demo-1.html"' in index and "Fix the cache key" in index
    assert "Wrong answers per 1000 requests" in (html / "contributions/demo-1.html").read_text(encoding="utf-8")

    with_base = work / "html-with-base"
    assert INFO_LINE not in build(with_base, "-D", "html_baseurl=https://example.org/")
    # no project, author or date set, no git: the feed says nothing rather than "not set", and dates the
    # undated page by its source file, never 1970
    feed = (with_base / "contributions.atom").read_text(encoding="utf-8")
    assert "not set" not in feed and "1970" not in feed
    assert "<title>Contributions</title>" in feed and "<author>" not in feed
    mtime = datetime.fromtimestamp(int((site / "contributions/demo-1.md").stat().st_mtime), UTC)
    assert f"<updated>{mtime:%Y-%m-%dT%H:%M:%SZ}</updated>" in feed

    # no Pillow in this venv (the cards extra): cards on is one clear warning, and the build goes on
    assert (
        run(python, "-I", "-c", "import importlib.util as u; print(u.find_spec('PIL'))", cwd=work, env=env) == "None\n"
    )
    done = subprocess.run(
        [
            str(python),
            "-I",
            "-m",
            "sphinx",
            "-b",
            "html",
            "-q",
            "-D",
            "contributions_social_cards=1",
            "-D",
            "html_baseurl=https://example.org/",
            str(site),
            str(work / "cards"),
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stderr) == (
        0,
        "WARNING: contributions_social_cards is on but Pillow is not installed: no social cards are written "
        "(install it with: pip install 'sphinx-contributions[cards]') [contrib.config]\n",
    )
    assert (work / "cards" / "index.html").is_file()


def clean_env() -> dict[str, str]:
    """This environment without Python's variables or a fixed build date."""
    keep = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    keep.pop("SOURCE_DATE_EPOCH", None)
    return keep | {"NO_COLOR": "1"}


def clean_venv(tmp_path: Path, *requirements: str | Path) -> Path:
    """A venv with only ``requirements`` and their dependencies (pinned); its python."""
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    pip = (sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--disable-pip-version-check")
    run(*pip, "-c", CONSTRAINTS, *requirements)
    return python


def test_import_does_not_need_pillow(tmp_path: Path) -> None:
    """``import sphinx_contributions`` and a build with cards off, where Pillow cannot be imported."""
    site = tmp_path / "site"
    for name, text in package_readme_site().items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    script = (
        "import sys; sys.modules['PIL'] = None\n"  # None in sys.modules: any import of PIL raises ImportError
        "import sphinx_contributions\n"
        "from sphinx.cmd.build import main\n"
        f"sys.exit(main(['-W', '-q', '-b', 'html', {str(site)!r}, {str(tmp_path / 'out')!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "out" / "contributions" / "demo-1.html").is_file()


INIT_FLAGS = ("--name", "Ada Lovelace", "--role", "Compiler engineer · Python", "--github", "ada", "--yes")


def test_the_wheel_starts_a_site_that_builds_in_every_format(dists: Dists, tmp_path: Path) -> None:
    """What a newcomer does: the wheel into a clean venv (with a theme), ``contributions init`` with flags
    and standard input closed, then the strict builds Read the Docs runs: html, dirhtml, epub (epubcheck
    clean) and the PDF (latexmk), with furo and with pydata-sphinx-theme."""
    java, jar = require_epubcheck()
    latexmk = require_tool("latexmk", "latexmk")
    require_tool("xelatex", "texlive-xetex texlive-latex-extra")
    require_font("FreeSerif", "fonts-freefont-otf")
    python = clean_venv(tmp_path, dists.wheel, "furo", "pydata-sphinx-theme")
    contributions = python.parent / "contributions"
    env = clean_env()
    work = tmp_path / "work"
    work.mkdir()
    # no serve extra here: serve says what to install
    run(contributions, "init", "probe", "--yes", cwd=work, env=env)
    done = subprocess.run(
        [contributions, "serve", "--root", "probe"], cwd=work, env=env, capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (
        1,
        "contributions serve: the live preview needs sphinx-autobuild, which is not installed; install it with: "
        "pip install 'sphinx-autobuild<2026,>=2025.8.25'\n",
    )
    for theme in ("furo", "pydata_sphinx_theme"):
        name = f"site-{theme}"
        done = subprocess.run(
            [contributions, "init", name, *INIT_FLAGS, "--theme", theme],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, done.stderr
        site = work / name
        # ten files, and the wheel this venv was installed from, in vendor/ (issue 33)
        assert len([path for path in site.rglob("*") if path.is_file()]) == 11
        assert (site / "vendor" / dists.wheel.name).read_bytes() == dists.wheel.read_bytes()
        for builder in ("html", "dirhtml", "epub", "latex"):
            out = tmp_path / theme / builder
            command = [str(python), "-I", "-m", "sphinx", "-W", "--keep-going", "-b", builder]
            done = subprocess.run(
                [*command, "-d", str(tmp_path / theme / "doctrees"), str(site), str(out)],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, f"{theme} {builder}\n{done.stderr}"
            assert "WARNING" not in done.stderr, done.stderr
        (book,) = (tmp_path / theme / "epub").glob("*.epub")
        report = tmp_path / theme / "epubcheck.json"
        subprocess.run([java, "-jar", jar, book, "--json", report, "-q"], capture_output=True, check=False)
        checker = json.loads(report.read_text(encoding="utf-8"))["checker"]
        assert (checker["nFatal"], checker["nError"], checker["nWarning"]) == (0, 0, 0), theme
        latex = tmp_path / theme / "latex"
        command = [
            latexmk,
            "-r",
            "latexmkrc",
            "-pdf",
            "-f",
            "-dvi-",
            "-ps-",
            "-interaction=nonstopmode",
            "ada-lovelace.tex",
        ]
        done = subprocess.run(command, cwd=latex, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-3000:]
        assert (latex / "ada-lovelace.pdf").is_file()
        assert "Missing character" not in (latex / "ada-lovelace.log").read_text(encoding="utf-8", errors="replace")
        if theme == "pydata_sphinx_theme":
            assert "pydata-sphinx-theme" in (tmp_path / theme / "html" / "index.html").read_text(encoding="utf-8")


THEME_NAMES = ("furo", "pydata_sphinx_theme", "sphinx_book_theme", "sphinx_rtd_theme", "alabaster")


def next_steps(stdout: str) -> list[str]:
    """The commands ``init`` prints after "next:", without their comments."""
    lines = stdout.split("next:\n", 1)[1].splitlines()
    return [line.split("#", 1)[0].strip() for line in lines if line.startswith("  ")]


def test_the_wheel_in_a_clean_venv_follows_inits_next_steps(dists: Dists, tmp_path: Path) -> None:
    """Issue 27's path, under each of the five themes: the wheel alone in a clean venv (pip and nothing
    else), ``init --theme``, then the next steps it prints, run as printed: ``pip install -r
    requirements.txt`` (the wheel's own file URL and the theme: it resolves before any release), ``serve``
    (the sample draft is served), ``new``, and the strict ``check`` of html, epub and latex. Before: the
    requirement was ``sphinx-contributions>=0.1.0``, which is on no index, and no step installed the theme."""
    require_tool("latexmk", "latexmk")
    require_tool("xelatex", "texlive-xetex texlive-latex-extra")
    require_font("FreeSerif", "fonts-freefont-otf")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)  # with pip: the next steps run it
    bin_dir = venv / "bin"
    run(bin_dir / "python", "-m", "pip", "install", "--quiet", "-c", CONSTRAINTS, dists.wheel)
    env = clean_env() | {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "VIRTUAL_ENV": str(venv),
        "PIP_CONSTRAINT": str(CONSTRAINTS),  # the pinned set, as everywhere in the tests
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "CONTRIBUTIONS_OFFLINE": "1",  # `new` asks no forge
    }
    from .test_init import fetch, free_port

    for theme in THEME_NAMES:
        work = tmp_path / theme
        work.mkdir()
        done = subprocess.run(
            ["contributions", "init", "site", "--yes", "--theme", theme],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
        assert done.stdout.splitlines()[1].startswith(
            f"requirements.txt installs sphinx-contributions from vendor/{dists.wheel.name}, a copy of "
            f"{dists.wheel}, where this copy was installed from (it is not on PyPI yet); commit vendor/"
        )
        steps = next_steps(done.stdout)
        assert [step.split()[:2] for step in steps] == [
            ["cd", "site"],
            ["pip", "install"],
            ["contributions", "serve"],
            ["contributions", "new"],
            ["contributions", "check"],
        ]
        site = work / "site"
        requirements = (site / "requirements.txt").read_text(encoding="utf-8").splitlines()[2:]
        assert requirements == [f"./vendor/{dists.wheel.name}[serve]", *THEME_PACKAGES[theme]]
        run(*shlex.split(steps[1]), cwd=site, env=env)
        port = free_port()
        server = subprocess.Popen(
            [*shlex.split(steps[2]), "--port", str(port)],
            cwd=site,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            page = fetch(f"http://127.0.0.1:{port}/contributions/demo-1.html", time.monotonic() + 180)
            assert "Fix the cache key" in page and "Draft" in page, theme
        finally:
            server.terminate()
            server.wait(timeout=30)
        new = steps[3].replace(
            "https://github.com/OWNER/REPO/pull/NUMBER", "https://github.com/sgl-project/sglang/pull/1"
        )
        assert "wrote contributions/sglang-1.md" in run(*shlex.split(new), cwd=site, env=env)
        check = run(*shlex.split(steps[4]), "--builders", "html,epub,latex", cwd=site, env=env)
        assert "The site would publish: the strict builds pass (html, epub, latex; latex: the PDF compiled" in check, (
            theme + "\n" + check
        )


def read_the_docs_env(env: dict[str, str]) -> dict[str, str]:
    """The variables Read the Docs sets for a build of the latest version."""
    return env | {
        "READTHEDOCS": "True",
        "READTHEDOCS_VERSION": "latest",
        "READTHEDOCS_PROJECT": "ada",
        "READTHEDOCS_CANONICAL_URL": "https://ada.readthedocs.io/en/latest/",
    }


def test_an_init_site_installs_on_read_the_docs_from_a_clone(dists: Dists, tmp_path: Path) -> None:
    """Issue 33's publish path, before any release: the wheel (from a folder that is then deleted) in a
    clean venv, ``init``, the site committed with git and cloned elsewhere; in a fresh venv, from the
    clone's root, what its ``.readthedocs.yaml`` names (``python.install`` requirements, installed as Read
    the Docs runs pip), then its strict build with Read the Docs' variables (the canonical URL set). The
    README's install command is that one. Before: ``requirements.txt`` named the wheel by a ``file://``
    URL ("No such file or directory" in the clone), and the README's command asked PyPI for
    sphinx-contributions[serve], which is not there."""
    wheelhouse = tmp_path / "wheelhouse"
    wheelhouse.mkdir()
    wheel = shutil.copy(dists.wheel, wheelhouse)
    python = clean_venv(tmp_path, wheel)
    env = clean_env()
    work = tmp_path / "work"
    work.mkdir()
    run(python.parent / "contributions", "init", "site", *INIT_FLAGS, cwd=work, env=env)
    shutil.rmtree(wheelhouse)  # the original wheel gone
    site = work / "site"
    git = ("git", "-c", "user.name=Ada", "-c", "user.email=ada@example.org", "-c", "init.defaultBranch=main")
    run(*git, "init", "-q", cwd=site)
    run(*git, "add", "-A", cwd=site)
    run(*git, "commit", "-q", "-m", "a portfolio", cwd=site)
    clone = tmp_path / "clone"
    run("git", "clone", "-q", "--depth", "50", site.as_uri(), clone)
    shutil.rmtree(site)
    config = yaml.safe_load((clone / ".readthedocs.yaml").read_text(encoding="utf-8"))
    installs = [step["requirements"] for step in config["python"]["install"]]
    assert installs == ["requirements.txt"]
    readme = (clone / "README.md").read_text(encoding="utf-8")
    assert "from this folder: `pip install -r requirements.txt` (the" in readme
    venv = tmp_path / "rtd-venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    rtd_python = venv / "bin" / "python"
    pip = (sys.executable, "-m", "pip", "--python", rtd_python, "install", "--quiet", "--disable-pip-version-check")
    for requirements in installs:  # Read the Docs runs pip in the clone's root
        run(*pip, "-c", CONSTRAINTS, "--exists-action=w", "-r", requirements, cwd=clone, env=env)
    command = [str(rtd_python), "-I", "-m", "sphinx", "-T", "-W", "--keep-going", "-n", "-b", "html"]
    done = subprocess.run(
        [*command, "-d", "_build/doctrees", "-D", "language=en", ".", "_readthedocs/html"],
        cwd=clone / Path(config["sphinx"]["configuration"]).parent,
        env=read_the_docs_env(env),
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    home = (clone / "_readthedocs" / "html" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://ada.readthedocs.io/en/latest/index.html"' in home


#: what ``init --theme`` puts in requirements.txt after the extension
THEME_PACKAGES = {
    "furo": ["furo"],
    "pydata_sphinx_theme": ["pydata-sphinx-theme"],
    "sphinx_book_theme": ["sphinx-book-theme"],
    "sphinx_rtd_theme": ["sphinx-rtd-theme"],
    "alabaster": [],
}


def test_the_release_workflow_builds_checks_and_publishes_on_a_tag() -> None:
    """``.github/workflows/release.yml``: on a version tag, build the sdist and wheel and check them
    (``twine check --strict``), then publish with PyPI's trusted publishing: the OIDC token permission on
    the publishing job alone, no API token anywhere."""
    text = (REPO / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    commands = "\n".join(step.get("run", "") for step in build["steps"])
    assert "python -m build" in commands and "python -m twine check --strict dist/*" in commands
    assert 'test "v${version}" = "${GITHUB_REF_NAME}"' in commands  # the tag is the package's version
    assert any(step.get("uses", "").startswith("actions/upload-artifact@") for step in build["steps"])
    assert "permissions" not in build
    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert [step["uses"].split("@")[0] for step in publish["steps"]] == [
        "actions/download-artifact",
        "pypa/gh-action-pypi-publish",
    ]
    assert "password" not in text and "secrets." not in text


def test_the_pinned_set_is_complete_and_consistent() -> None:
    """``pip check`` is clean and every package installed in this environment is pinned, at that version;
    but for those ``make test-latest`` upgrades on purpose to their newest release (``CONTRIB_UPGRADED``)."""
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    run(*pip, "check")

    def normal(name: str) -> str:  # a distribution's name as PEP 503 compares it
        return re.sub(r"[-_.]+", "-", name).lower()

    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[normal(name)] = version
    frozen = subprocess.run([*pip, "freeze", "--all", "--exclude-editable"], capture_output=True, text=True)
    installed = {}
    for line in frozen.stdout.splitlines():
        name, _, version = line.partition("==")
        installed[normal(name)] = version
    upgraded = {normal(name) for name in os.environ.get("CONTRIB_UPGRADED", "").split()}
    unpinned = {name: version for name, version in installed.items() if pins.get(name) != version}
    assert {name: version for name, version in unpinned.items() if name not in upgraded} == {}


def test_every_package_the_extension_imports_is_declared() -> None:
    """A module the package imports that is neither the standard library's nor its own comes from a
    distribution its metadata names, as a dependency or in an extra (babel and markupsafe were imported
    and never declared: they came only through Sphinx and Jinja)."""
    import ast
    import tomllib
    from importlib.metadata import packages_distributions

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements.extend(extra)
    declared = {canonicalize_name(Requirement(text).name) for text in requirements}
    imported: set[str] = set()
    for path in (REPO / PACKAGE).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    distributions = packages_distributions()
    missing = {}
    for module in sorted(imported - set(sys.stdlib_module_names) - {PACKAGE, "__future__"}):
        names = {canonicalize_name(name) for name in distributions.get(module, [module])}
        if not names & declared:
            missing[module] = sorted(names)
    assert missing == {}


def test_make_test_runs_each_test_once() -> None:
    """``make test`` ran the whole suite, then the unpacked sdist's whole suite again (1,209 and 1,173
    tests): each test runs once, and the sdist's shipping is this module's business."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert recipe == ["\t$(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)"]  # over the cores (xdist)
