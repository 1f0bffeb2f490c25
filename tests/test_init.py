"""``contributions init`` (issue 18): the site it writes, asking only in a terminal, never overwriting; the
site building strictly in every format a release publishes; the start of AUTHORING.md (init → install →
serve → new → check → publish) run as written, ``serve`` included. The same from the wheel in a clean venv, with
furo and pydata-sphinx-theme: ``tests/test_packaging.py``."""

from __future__ import annotations

import json
import os
import pty
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from importlib import metadata
from pathlib import Path

import pytest

from sphinx_contributions.cli.init import scaffold_templates

from .conftest import REPO
from .tools import require_epubcheck, require_font, require_tex_file, require_tool

#: what init writes, every time
FILES = [
    ".gitignore",
    ".pre-commit-config.yaml",
    ".readthedocs.yaml",
    "README.md",
    "about.md",
    "conf.py",
    "contributions/demo-1.md",
    "contributions/index.md",
    "index.md",
    "requirements.txt",
]
#: where this copy of the extension was installed from: the folder of ``make``'s editable install
#: (the wheel's own case: tests/test_packaging.py)
ORIGIN = next(
    json.loads(text)["url"]
    for dist in metadata.distributions(name="sphinx-contributions")
    if (text := dist.read_text("direct_url.json"))
)
FLAGS = ("--name", "Ada Lovelace", "--role", "Compiler engineer · Python", "--github", "ada")


def run(
    *args: str, cwd: Path, stdin: int | None = subprocess.DEVNULL, text_in: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sphinx_contributions", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        stdin=None if text_in is not None else stdin,
        input=text_in,
    )


def files_of(folder: Path) -> list[str]:
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())


def sphinx(site: Path, builder: str, out: Path) -> subprocess.CompletedProcess[str]:
    """The strict build Read the Docs runs."""
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", builder, "-d", str(out / "doctrees")]
    return subprocess.run([*command, str(site), str(out / builder)], capture_output=True, text=True, check=False)


def test_every_template_is_one_file() -> None:
    assert sorted(scaffold_templates().values()) == FILES


def test_init_with_flags_reads_nothing(tmp_path: Path) -> None:
    """Standard input is not a terminal: the flags and defaults, and what is waiting on stdin is not read."""
    done = run("init", "site", *FLAGS, cwd=tmp_path, text_in="Someone Else\nanswer\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "wrote a portfolio site in site (10 files): Ada Lovelace, theme furo",
        f"requirements.txt installs sphinx-contributions from {ORIGIN}, where this copy was installed "
        "from (it is not on PyPI yet); that resolves on this machine only: for Read the Docs, build a wheel "
        "there (python -m build) and give it to init (--requirement dist/….whl: init copies it into vendor/), "
        "give a Git URL it can reach (--requirement git+https://…), or the released name once "
        "sphinx-contributions is on PyPI",
        "write-ups here use the short names ({pr}, :::{fix}); on a documentation site you share with other "
        "extensions, write the contrib: forms ({contrib:pr}, :::{contrib:fix}), which never collide",
        "next:",
        "  cd site",
        "  pip install -r requirements.txt    # sphinx-contributions, sphinx-autobuild (for serve) and furo",
        "  contributions serve    # live preview on http://127.0.0.1:8000",
        "  contributions new https://github.com/OWNER/REPO/pull/NUMBER   # your first write-up",
        "  contributions check    # the strict build: exit 0 = would publish",
    ]
    site = tmp_path / "site"
    assert files_of(site) == FILES
    conf = (site / "conf.py").read_text(encoding="utf-8")
    for line in (
        'project = "Ada Lovelace"',
        'author = "Ada Lovelace"',
        'contributions_tagline = "Compiler engineer · Python"',
        'contributions_profile_links = ["https://github.com/ada"]',
        'version = os.environ.get("READTHEDOCS_VERSION", "latest")',
        'html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL", "")',
        'extensions = ["myst_parser", "sphinx_contributions"]',
        'myst_enable_extensions = ["colon_fence"]',
        'html_theme = "furo"',
        'latex_engine = "xelatex"',
        'latex_documents = [("index", "ada-lovelace.tex", project, author, "manual", False)]',
    ):
        assert f"\n{line}\n" in conf, line
    index = (site / "index.md").read_text(encoding="utf-8")
    assert "\n# Ada Lovelace\n\n**Compiler engineer · Python**\n" in index
    assert "[github.com/ada](https://github.com/ada) · [About](about.md)" in index
    assert ":::{contributions}\n:layout: cards\n:limit: 6\n:::" in index  # before: every write-up, unbounded
    # the filter hidden below six write-ups says so where it is asked for (issue 33)
    assert (
        "% The filter buttons (project, tag, state) show once the list holds 6 write-ups: fewer need no filter.\n"
        "% `:filter: 1` shows them at any length; `contributions_filter_min` in conf.py sets it for every list.\n"
        ":::{contributions}\n:layout: cards\n:filter:\n:::"
    ) in (site / "contributions/index.md").read_text()
    assert ":status: draft\n" in (site / "contributions/demo-1.md").read_text(encoding="utf-8")
    rtd = (site / ".readthedocs.yaml").read_text(encoding="utf-8")
    assert "formats:\n  - pdf\n  - epub\n" in rtd
    assert "    post_checkout:\n" in rtd and "      - git fetch --unshallow || true\n" in rtd
    assert "        entry: contributions check\n" in (site / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    # this copy is the editable install of a folder (make): the requirement is that folder
    assert (site / "requirements.txt").read_text(encoding="utf-8").splitlines()[2:] == [
        f"sphinx-contributions[serve] @ {ORIGIN}",
        "furo",
    ]
    readme = (site / "README.md").read_text(encoding="utf-8")
    assert "contributions serve" in readme and "contributions check" in readme
    # issue 45: what it says of the sample stays true once the sample is deleted (before: "delete it")
    assert "`contributions init` wrote a sample draft, `contributions/demo-1.md`, to show the format;" in readme
    assert "delete it when" not in readme
    for name in FILES:  # each file says it is free to use
        assert "MIT licence" in (site / name).read_text(encoding="utf-8"), name


def test_init_defaults_and_other_themes(tmp_path: Path) -> None:
    done = run("init", "a", "--yes", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    conf = (tmp_path / "a" / "conf.py").read_text(encoding="utf-8")
    assert '\nproject = "Your Name"\n' in conf and '\ncontributions_tagline = ""\n' in conf
    assert "\ncontributions_profile_links = []\n" in conf
    index = (tmp_path / "a" / "index.md").read_text(encoding="utf-8")
    assert "**" not in index and "[About](about.md)" in index  # no role line, no links
    done = run("init", "b", "--theme", "pydata-sphinx-theme", "--link", "https://gitlab.com/ada", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    conf = (tmp_path / "b" / "conf.py").read_text(encoding="utf-8")
    assert '\nhtml_theme = "pydata_sphinx_theme"\n' in conf
    assert '\ncontributions_profile_links = ["https://gitlab.com/ada"]\n' in conf
    assert "pydata-sphinx-theme" in (tmp_path / "b" / "requirements.txt").read_text(encoding="utf-8")
    done = run("init", "c", "--theme", "alabaster", cwd=tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "c" / "requirements.txt").read_text(encoding="utf-8").splitlines()[2:] == [
        f"sphinx-contributions[serve] @ {ORIGIN}"
    ]
    lines = done.stdout.splitlines()
    assert lines[lines.index("next:") + 2] == (
        "  pip install -r requirements.txt    # sphinx-contributions and sphinx-autobuild (for serve); "
        "alabaster comes with Sphinx"
    )


@pytest.mark.parametrize(
    ("given", "line", "note"),
    [
        (
            "git+https://codeberg.org/ada/sphinx-contributions@v0.1.0",
            "sphinx-contributions[serve] @ git+https://codeberg.org/ada/sphinx-contributions@v0.1.0",
            "requirements.txt installs sphinx-contributions from "
            "git+https://codeberg.org/ada/sphinx-contributions@v0.1.0, as given (--requirement)",
        ),
        (  # a repository's address: pip needs git+
            "https://github.com/ada/sphinx-contributions",
            "sphinx-contributions[serve] @ git+https://github.com/ada/sphinx-contributions",
            "requirements.txt installs sphinx-contributions from git+https://github.com/ada/sphinx-contributions, "
            "as given (--requirement)",
        ),
        (  # a wheel's address: as it is
            "https://example.org/sphinx_contributions-0.1.0-py3-none-any.whl",
            "sphinx-contributions[serve] @ https://example.org/sphinx_contributions-0.1.0-py3-none-any.whl",
            "requirements.txt installs sphinx-contributions from "
            "https://example.org/sphinx_contributions-0.1.0-py3-none-any.whl, as given (--requirement)",
        ),
        (
            "sphinx-contributions==0.1.0",
            "sphinx-contributions[serve]==0.1.0",
            "requirements.txt installs sphinx-contributions from PyPI: sphinx-contributions[serve]==0.1.0",
        ),
        (
            "Sphinx_Contributions[cards]>=0.1",
            "sphinx-contributions[cards,serve]>=0.1",
            "requirements.txt installs sphinx-contributions from PyPI: sphinx-contributions[cards,serve]>=0.1",
        ),
    ],
)
def test_init_requirement(tmp_path: Path, given: str, line: str, note: str) -> None:
    done = run("init", "site", "--yes", "--requirement", given, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[1] == note
    assert (tmp_path / "site" / "requirements.txt").read_text(encoding="utf-8").splitlines()[2:] == [line, "furo"]


def test_init_requirement_as_a_path(tmp_path: Path) -> None:
    """A wheel or sdist, by a path relative to where init runs: copied into the site's ``vendor/`` and named
    by that path relative to the site's root, which pip reads from the folder it runs in (the clone's root
    on Read the Docs). Before: a ``file://`` URL of the original, which no clone resolves; and a relative
    path was refused. A source folder stays a file URL, and init says what resolves elsewhere."""
    wheel = tmp_path / "dist" / "sphinx_contributions-0.1.0-py3-none-any.whl"
    wheel.parent.mkdir()
    wheel.write_bytes(b"the wheel")
    done = run("init", "site", "--yes", "--requirement", "dist/" + wheel.name, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[:2] == [
        "wrote a portfolio site in site (11 files): Your Name, theme furo",
        f"requirements.txt installs sphinx-contributions from vendor/{wheel.name}, a copy of {wheel}, as given "
        "(--requirement); commit vendor/ with the site: Read the Docs installs it from the clone (once "
        "sphinx-contributions is on PyPI: --requirement sphinx-contributions)",
    ]
    site = tmp_path / "site"
    assert (site / "requirements.txt").read_text(encoding="utf-8").splitlines()[2:] == [
        f"./vendor/{wheel.name}[serve]",
        "furo",
    ]
    assert (site / "vendor" / wheel.name).read_bytes() == b"the wheel"
    assert files_of(site) == sorted([*FILES, f"vendor/{wheel.name}"])
    readme = (site / "README.md").read_text(encoding="utf-8")
    assert f"`vendor/{wheel.name}` is the extension itself, which\n`requirements.txt` names by that path" in readme
    assert "vendor" not in (site / ".gitignore").read_text(encoding="utf-8")
    # a second init into the same folder writes nothing, the wheel included
    again = run("init", "site", "--yes", "--requirement", "dist/" + wheel.name, cwd=tmp_path)
    assert again.returncode == 1 and "nothing written" in again.stderr
    (tmp_path / "src").mkdir()
    done = run("init", "other", "--yes", "--requirement", "src", cwd=tmp_path)
    assert done.stdout.splitlines()[1] == (
        f"requirements.txt installs sphinx-contributions from {(tmp_path / 'src').as_uri()}, as given "
        "(--requirement); that resolves on this machine only: for Read the Docs, build a wheel there "
        "(python -m build) and give it to init (--requirement dist/….whl: init copies it into vendor/), give a "
        "Git URL it can reach (--requirement git+https://…), or the released name once sphinx-contributions "
        "is on PyPI"
    )


def test_the_home_page_lists_the_latest_six(tmp_path: Path) -> None:
    """The home page's cards are bounded (before: every write-up, a 123 KB page at 60); the list has all."""
    assert run("init", "site", "--yes", cwd=tmp_path).returncode == 0
    site = tmp_path / "site"
    sample = (site / "contributions/demo-1.md").read_text(encoding="utf-8")
    for number in range(2, 10):  # eight published write-ups
        text = sample.replace(":pr: 1\n", f":pr: {number}\n").replace(":status: draft\n", ":status: merged\n")
        (site / f"contributions/demo-{number}.md").write_text(text, encoding="utf-8")
    done = sphinx(site, "html", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    home = (tmp_path / "out/html/index.html").read_text(encoding="utf-8")
    listing = (tmp_path / "out/html/contributions/index.html").read_text(encoding="utf-8")
    assert (
        home.count('<div class="contrib-card contrib-item'),
        listing.count('<div class="contrib-card contrib-item'),
    ) == (
        6,
        8,
    )


@pytest.mark.parametrize("given", ["https://github.com/ada", "github.com/ada/", "@ada"])
def test_init_reads_a_github_profile_address(tmp_path: Path, given: str) -> None:
    """Before: "'https://github.com/ada' is not a GitHub user name"."""
    done = run("init", "site", "--yes", "--github", given, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    conf = (tmp_path / "site" / "conf.py").read_text(encoding="utf-8")
    assert '\ncontributions_profile_links = ["https://github.com/ada"]\n' in conf


def test_init_refuses_another_requirement(tmp_path: Path) -> None:
    done = run("init", "site", "--yes", "--requirement", "numpy", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        "contributions init: --requirement takes a path (a wheel, an sdist or a source folder), a Git URL "
        "(git+https://…) or the released name (sphinx-contributions, sphinx-contributions==VERSION); got 'numpy'\n",
    )
    assert not (tmp_path / "site").exists()


def test_init_asks_in_a_terminal(tmp_path: Path) -> None:
    """In a terminal each question that no flag answered; Enter takes the default; a bad answer is asked
    again."""
    primary, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "sphinx_contributions", "init", "site", "--theme", "furo"],
        cwd=tmp_path,
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
    )
    os.close(secondary)
    shown = b""

    def answer_after(prompt: bytes, answer: bytes) -> None:
        nonlocal shown
        deadline = time.monotonic() + 60
        while prompt not in shown and time.monotonic() < deadline:
            shown += os.read(primary, 4096)
        assert prompt in shown, shown
        shown = shown.split(prompt, 1)[1]
        os.write(primary, answer)

    answer_after(b"Your name [Your Name]: ", b"Grace Hopper\n")
    answer_after(b"(optional): ", b"\n")  # the role: none
    answer_after(b"Your GitHub user name (optional): ", b"not a user!\n")
    answer_after(b"Your GitHub user name (optional): ", b"grace\n")
    assert process.wait(timeout=60) == 0
    os.close(primary)
    conf = (tmp_path / "site" / "conf.py").read_text(encoding="utf-8")
    assert '\nproject = "Grace Hopper"\n' in conf and '\ncontributions_tagline = ""\n' in conf
    assert '\ncontributions_profile_links = ["https://github.com/grace"]\n' in conf


@pytest.mark.parametrize(
    ("args", "line", "status"),
    [
        (
            ("--theme", "sphinxdoc"),
            "contributions init: unknown theme 'sphinxdoc'; choose one of furo, pydata_sphinx_theme, "
            "sphinx_book_theme, sphinx_rtd_theme, alabaster",
            2,
        ),
        (
            ("--github", "a b"),
            "contributions init: 'a b' is not a GitHub user name (letters, digits and single hyphens)",
            2,
        ),
        (
            ("--link", "github.com/ada"),
            "contributions init: --link takes a web address (https://…); got 'github.com/ada'",
            2,
        ),
    ],
)
def test_init_refuses_bad_options(args: tuple[str, ...], line: str, status: int, tmp_path: Path) -> None:
    done = run("init", "site", *args, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (status, "", line + "\n")
    assert not (tmp_path / "site").exists()


def test_init_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.md").write_text("# Mine\n", encoding="utf-8")
    (tmp_path / "site" / "notes.txt").write_text("kept\n", encoding="utf-8")
    done = run("init", "site", "--yes", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "contributions init: site already has index.md; nothing written\n")
    assert files_of(tmp_path / "site") == ["index.md", "notes.txt"]


def test_new_in_an_empty_folder_points_to_init(tmp_path: Path) -> None:
    done = run("new", "a/b#1", "--root", "empty", cwd=tmp_path)
    assert done.stderr == (
        "contributions new: no Sphinx site at 'empty' (no conf.py); run it in the site's folder or pass --root; "
        "to start a site there, run: contributions init empty\n"
    )


# -- the site builds in every format ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def init_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("init")
    assert run("init", "site", *FLAGS, cwd=work).returncode == 0
    return work / "site"


@pytest.mark.parametrize("builder", ["html", "dirhtml", "epub", "latex"])
def test_the_site_builds_strictly(init_site: Path, tmp_path: Path, builder: str) -> None:
    done = sphinx(init_site, builder, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    report = json.loads((tmp_path / "doctrees" / f"contributions-report.{builder}.json").read_text(encoding="utf-8"))
    assert report["drafts"] == [{"docname": "contributions/demo-1", "key": "demo#1"}]
    assert report["records"] == []


def test_the_site_has_no_exports_until_it_has_a_write_up(init_site: Path, tmp_path: Path) -> None:
    assert sphinx(init_site, "html", tmp_path).returncode == 0
    html = tmp_path / "html"
    assert not [name for name in ("contributions.json", "contributions.schema.json") if (html / name).exists()]
    home = (html / "index.html").read_text(encoding="utf-8")
    assert "Compiler engineer · Python" in home and 'href="https://github.com/ada"' in home


def test_the_guides_sitemap_and_404_advice_builds(init_site: Path, tmp_path: Path) -> None:
    """The init site has no sitemap.xml, 404 page or robots.txt of its own (Read the Docs serves those:
    AUTHORING.md, "In five minutes", says why); the two extensions the guide names for a sitemap of every
    page and a 404 page in the site's theme, added to conf.py as it says, build strictly as Read the Docs
    builds and write both."""
    import shutil

    guide = (REPO / "AUTHORING.md").read_text(encoding="utf-8")
    said = re.search(
        r'`(?P<names>"sphinx_sitemap", "notfound.extension")` to `extensions` in `conf.py`, and there also\s+'
        r"`(?P<scheme>sitemap_url_scheme = \"\{link\}\")`",
        guide,
    )
    assert said is not None
    env = {**os.environ, "READTHEDOCS_CANONICAL_URL": "https://ada.readthedocs.io/en/latest/"}
    plain = tmp_path / "plain"
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
    done = subprocess.run([*command, str(init_site), str(plain)], capture_output=True, text=True, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    assert [name for name in ("sitemap.xml", "404.html", "robots.txt") if (plain / name).exists()] == []
    site = Path(shutil.copytree(init_site, tmp_path / "site"))
    conf = (site / "conf.py").read_text(encoding="utf-8")
    line = 'extensions = ["myst_parser", "sphinx_contributions"]'
    assert line in conf
    conf = conf.replace(line, f"{line[:-1]}, {said['names']}]")
    # without the scheme the guide names, the sitemap's URLs would hold /en/latest/ twice: one warning says so
    (site / "conf.py").write_text(conf, encoding="utf-8")
    done = subprocess.run([*command, str(site), str(tmp_path / "doubled")], capture_output=True, text=True, env=env)
    baseurl = next(n for n, text in enumerate(conf.splitlines(), 1) if text.startswith("html_baseurl ="))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{site / 'conf.py'}:{baseurl}: WARNING: sitemap_url_scheme '{{lang}}{{version}}{{link}}' adds "
        "'en/latest/' to the site's address 'https://ada.readthedocs.io/en/latest/', which ends with it already: "
        "every URL of the sitemap would hold it twice (https://ada.readthedocs.io/en/latest/en/latest/index.html); "
        'set sitemap_url_scheme = "{link}" in conf.py [contrib.config]'
    ]
    (site / "conf.py").write_text(conf + f"{said['scheme']}\n", encoding="utf-8")
    out = tmp_path / "html"
    done = subprocess.run([*command, str(site), str(out)], capture_output=True, text=True, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://ada.readthedocs.io/en/latest/about.html</loc>" in sitemap
    assert "/en/latest/en/" not in sitemap  # without the scheme the guide names: …/en/latest/en/latest/about.html
    assert "Ada Lovelace" in (out / "404.html").read_text(encoding="utf-8")


def test_list_on_a_site_without_write_ups(init_site: Path) -> None:
    """No contributions.json on the site, and ``list`` says so rather than stopping."""
    assert (run("list", cwd=init_site).returncode, run("list", cwd=init_site).stdout) == (0, "none\n")
    done = run("list", "--json", cwd=init_site)
    assert json.loads(done.stdout) == {"$schema": "contributions.schema.json", "contributions": [], "version": 1}
    assert json.loads(run("list", "--drafts", "--json", cwd=init_site).stdout)["contributions"][0]["key"] == "demo#1"


def test_the_epub_is_valid(init_site: Path, tmp_path: Path) -> None:
    java, jar = require_epubcheck()
    assert sphinx(init_site, "epub", tmp_path).returncode == 0
    (book,) = (tmp_path / "epub").glob("*.epub")
    report = tmp_path / "epubcheck.json"
    subprocess.run([java, "-jar", str(jar), str(book), "--json", str(report), "-q"], capture_output=True, check=False)
    checker = json.loads(report.read_text(encoding="utf-8"))["checker"]
    assert (checker["nFatal"], checker["nError"], checker["nWarning"]) == (0, 0, 0)


def test_the_pdf_compiles_with_its_title_page(init_site: Path, tmp_path: Path) -> None:
    latexmk = require_tool("latexmk", "latexmk")
    require_tool("xelatex", "texlive-xetex texlive-latex-extra")
    require_tex_file("pzdr.tfm", "texlive-fonts-recommended")
    require_font("FreeSerif", "fonts-freefont-otf")
    pdftotext = require_tool("pdftotext", "poppler-utils")
    assert sphinx(init_site, "latex", tmp_path).returncode == 0
    latex = tmp_path / "latex"
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
    done = subprocess.run(command, cwd=latex, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:]
    log = (latex / "ada-lovelace.log").read_text(encoding="utf-8", errors="replace")
    assert "Missing character" not in log
    first = subprocess.run(
        [pdftotext, "-l", "1", str(latex / "ada-lovelace.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    # the title block (at the top of the first page, which also carries its page number)
    assert [line for line in first.splitlines() if line.strip() and line.strip() not in {"i", "1"}] == [
        "Ada Lovelace",
        "Compiler engineer · Python",
        "github.com/ada",
    ]


# -- the start of AUTHORING.md, run as written -----------------------------------------------------------


def start_commands(path: Path) -> list[str]:
    """The ``$`` lines of a guide's first console block that starts a site."""
    text = path.read_text(encoding="utf-8")
    block = re.search(r"^```console\n(\$ contributions init .*?)^```", text, re.M | re.S)
    assert block is not None
    return [line[2:] for line in block[1].splitlines() if line.startswith("$ ")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str, deadline: float) -> str:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return str(response.read().decode("utf-8"))
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def run_serve(args: list[str], cwd: Path) -> str:
    """``contributions serve`` on a free port of this machine, until the sample draft is served."""
    port = free_port()
    command = [sys.executable, "-m", "sphinx_contributions", *args, "--port", str(port)]
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        return fetch(f"http://127.0.0.1:{port}/contributions/demo-1.html", time.monotonic() + 120)
    finally:
        process.terminate()  # the command's own process is the server: stopping it stops the preview
        process.wait(timeout=30)
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", port)) != 0, "the preview server outlived the command"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of the package, built from a copy of the sources (nothing is written into the working tree)."""
    import shutil

    from .sdist_suite import UNBUILT

    tmp = tmp_path_factory.mktemp("wheel")
    shutil.copytree(REPO, tmp / "source", ignore=UNBUILT)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp)]
    subprocess.run([*command, str(tmp / "source")], check=True, capture_output=True)
    (found,) = tmp.glob("*.whl")
    return found


@pytest.mark.parametrize("guide", ["AUTHORING.md", "sphinx_contributions/README.md"])
def test_the_start_runs_as_written(guide: str, tmp_path: Path, wheel: Path) -> None:
    """(The site's README says the same sequence: tests/test_site.py.) The guide's reader installed the
    wheel, which ``init`` copies into the site; this environment's editable copy would be named by a
    ``file://`` URL, which ``check`` refuses (issue 45), so ``init`` is given the wheel."""
    cwd = tmp_path
    commands = start_commands(REPO / guide)
    assert commands == start_commands(REPO / "AUTHORING.md")  # one sequence, said three times
    assert [shlex.split(line)[:2] for line in commands] == [
        ["contributions", "init"],
        ["cd", "my-portfolio"],
        ["pip", "install"],
        ["contributions", "serve"],
        ["contributions", "new"],
        ["contributions", "check"],
        ["contributions", "check"],
    ]
    for line in commands:
        words = shlex.split(line)
        if words[0] == "cd":
            cwd = cwd / words[1]
        elif words[0] == "pip":  # it resolves as written (installing would replace this venv's editable copy)
            command = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", *words[2:]]
            resolved = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
            assert resolved.returncode == 0, line + "\n" + resolved.stdout + resolved.stderr
        elif words[1] == "serve":
            page = run_serve(words[1:], cwd)
            assert "Fix the cache key" in page and "Draft" in page  # the sample draft, in the preview
        else:
            given = ["--requirement", str(wheel)] if words[1] == "init" else []
            done = run(*words[1:], *given, cwd=cwd)
            assert done.returncode == 0, line + "\n" + done.stdout + done.stderr
    assert (
        done.stdout.rstrip()
        .splitlines()[-1]
        .startswith("The site would publish: the strict builds pass (html, epub, latex")
    )
