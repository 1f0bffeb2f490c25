"""The ``contributions`` command (issue 7): the whole "Done when" sequence in a copy of the site, and
one clear line on stderr, a non-zero exit and no traceback for invalid input to each subcommand."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sphinx_contributions.cli.main import (
    COMMANDS,
    build_parser,
)
from sphinx_contributions.cli.new import parse_pull_request

from .conftest import copy_site, rtd_build

SECTIONS = ("problem", "root-cause", "fix", "verification")
ACCEPTED = (
    "give a pull request's address (https://github.com/OWNER/REPO/pull/NUMBER, "
    "https://gitlab.com/GROUP/NAME/-/merge_requests/NUMBER, https://codeberg.org/OWNER/REPO/pulls/NUMBER) "
    "or REPO#NUMBER (OWNER/REPO, gitlab.com/GROUP/NAME, codeberg.org/OWNER/REPO)"
)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of tests/roots/test-portfolio (a portfolio like the repository's), to add pages to."""
    return copy_site(tmp_path / "site")


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m sphinx_contributions ARGS`` (the same ``main`` as the ``contributions`` script)."""
    return subprocess.run(
        [sys.executable, "-m", "sphinx_contributions", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        # `new` asks no forge (test_sync.py does, of a fake one)
        env={**os.environ, "CONTRIBUTIONS_OFFLINE": "1", **(env or {})},
    )


def write_sections(text: str) -> str:
    """What the author does: a title and summary, each prompt replaced by text, the metric uncommented."""
    text = text.replace("# TODO: the title of sglang#1", "# Keep the scheduler from dropping queued requests")
    text = re.sub(r"^:summary: .*$", ":summary: Requests queued during a restart are now served.", text, flags=re.M)
    out = []
    metric = False
    for line in text.splitlines():
        metric = metric or line.startswith("% :::{metric}")
        if metric:
            out.append(line[2:])  # the metric example, from its opening fence to its closing one
            metric = line != "% :::"
        elif not line.startswith("%"):
            out.append(line)
            if re.match(r"^:{3,4}\{(problem|root-cause|fix|verification)\}$", line):
                out.append("Written by hand.")
    return "\n".join(out) + "\n"


def test_the_whole_authoring_sequence(site: Path, tmp_path: Path) -> None:
    # new: a draft page from the pull request's URL
    done = run("new", "https://github.com/sgl-project/sglang/pull/1", cwd=site)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        "wrote contributions/sglang-1.md: a draft of sglang#1, left out of the published site",
        # issue 45: before, nothing said the forge's facts are missing
        "GitHub was not asked (CONTRIBUTIONS_OFFLINE is set): fill in by hand the title, :status: (merged, open "
        "or closed), :date: (the day it merged) and :issue: (the issues it closes)",
        "next: write its title, summary and sections (preview: contributions serve), then run: contributions check",
    ]
    page = site / "contributions" / "sglang-1.md"
    text = page.read_text(encoding="utf-8")
    assert ":::{contribution}\n:repo: sgl-project/sglang\n:pr: 1\n:status: draft\n:summary: " in text
    for name in SECTIONS:
        assert re.search(rf"^:{{3,4}}\{{{name}\}}\n% ", text, flags=re.M), name
    assert "% :::{metric} " in text

    # check: passes, and lists the page as a draft that is not published
    done = run("check", cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    published, _, drafts = done.stdout.partition("Drafts, left out of the published site (2):")
    assert "sglang#1" not in published
    assert re.search(r"^  sglang#1 +TODO: the title of sglang#1 +draft +0/4 +0 +contributions/sglang-1$", drafts, re.M)
    assert done.stdout.rstrip().endswith("The site would publish: the strict build passes.")

    # status: draft removed, prompts still in place: check fails and names the unwritten sections,
    # and the title and summary still holding the scaffold's placeholder
    page.write_text(text.replace(":status: draft\n", ""), encoding="utf-8")
    done = run("check", cwd=site)
    assert done.returncode == 1
    _, _, drafts = done.stdout.partition("Drafts, left out of the published site (1):")  # the site's own draft
    assert drafts and "sglang#1" not in drafts.split("\n\n", 1)[0]
    report = done.stdout.split("Warnings (6):\n", 1)[1]
    for name in SECTIONS:
        prompt_left = f"section '{name}' is not written yet (it holds only comments or nothing)"
        assert re.search(
            rf"^  contributions/sglang-1\.md:\d+: WARNING: {re.escape(prompt_left)} \[contrib\.unwritten_section\]$",
            report,
            re.M,
        )
    for part in ("title", "summary"):
        placeholder = f"contribution sglang#1: the {part} is not written yet (it is still a 'TODO' placeholder)"
        line = {"title": 1, "summary": 6}[part]  # the heading's line; the option's line
        assert f"  contributions/sglang-1.md:{line}: WARNING: {placeholder} [contrib.placeholder]\n" in report
    assert done.stdout.rstrip().endswith("The site would not publish: the strict build stops on 6 warnings.")
    # ... and the strict build fails the same way: check lists exactly the build's warnings
    strict = rtd_build(site, tmp_path / "strict" / "html")
    assert strict.returncode == 1
    assert check_lines(done.stdout) == build_lines(strict.stderr, site)
    assert len(build_lines(strict.stderr, site)) == 6

    # sections written: check passes and the page is in every listing
    page.write_text(write_sections(page.read_text(encoding="utf-8")), encoding="utf-8")
    out = tmp_path / "published"
    done = run("check", "--outdir", str(out), cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(
        r"^  sglang#1 +Keep the scheduler from dropping queued requests +- +4/4 +1 +contributions/sglang-1$",
        done.stdout,
        re.M,
    )
    home = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="contributions/sglang-1.html"' in home
    listing = (out / "contributions/index.html").read_text(encoding="utf-8")
    assert 'href="sglang-1.html"' in listing
    document = json.loads((out / "contributions.json").read_text(encoding="utf-8"))
    assert "sglang#1" in [record["key"] for record in document["contributions"]]
    # a project of one write-up gets no page of its own (contributions_project_page_min, 2), and no link to one
    assert not (out / "projects").exists()
    assert "projects/" not in (out / "contributions/sglang-1.html").read_text(encoding="utf-8")

    # list: the same records as contributions.json (check --outdir builds with no stand-in canonical URL,
    # issue 45; list with the one the environment gives: none here), and a table
    done = run("list", "--json", cwd=site)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == document
    done = run("list", cwd=site)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^sglang#1 +- +- +sglang +Keep the scheduler", done.stdout, re.M)
    assert len(done.stdout.splitlines()) == 1 + len(document["contributions"])


HALF_WRITTEN = """\
# Half-written draft

:::{contribution}
:repo: example/omega
:pr: 9
:status: draft
:summary: A draft with one section written.
:::

:::{problem}
% What was wrong? (a prompt: a MyST comment)
:::

:::{root-cause}
<!-- an HTML comment is not writing either -->
:::

:::{fix}
Written.
:::

:::{verification}
:::
"""


def test_check_counts_only_written_sections_of_a_draft(site: Path) -> None:
    """The drafts' table counts a section as written when it holds more than comments (MyST's ``%`` or
    HTML's ``<!-- -->``) or nothing: the rule the build applies to a published page."""
    (site / "contributions" / "omega-9.md").write_text(HALF_WRITTEN, encoding="utf-8")
    done = run("check", cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    _, _, drafts = done.stdout.partition("Drafts, left out of the published site (2):")
    assert re.search(r"^  omega#9 +Half-written draft +draft +1/4 +0 +contributions/omega-9$", drafts, re.M), drafts
    # published, the same page warns for exactly the three sections the table counts as unwritten
    (site / "contributions" / "omega-9.md").write_text(HALF_WRITTEN.replace(":status: draft\n", ""), encoding="utf-8")
    done = run("check", cwd=site)
    assert done.returncode == 1
    unwritten = re.findall(r"section '([\w-]+)' is not written yet", done.stdout)
    assert unwritten == ["problem", "root-cause", "verification"], done.stdout


def test_list_drafts_includes_them(site: Path) -> None:
    assert run("new", "sgl-project/sglang#1", cwd=site).returncode == 0
    assert "sglang#1" not in run("list", cwd=site).stdout
    done = run("list", "--drafts", "--json", cwd=site)
    assert done.returncode == 0
    assert "sglang#1" in [record["key"] for record in json.loads(done.stdout)["contributions"]]
    # the drafts' unwritten sections: shown by the preview, which builds drafts (check leaves them out)
    assert re.fullmatch(
        r"contributions list: the build, drafts included, gave \d+ warnings; run 'contributions serve' to see "
        r"them \('contributions check' leaves drafts out\)\n",
        done.stderr,
    ), done.stderr


def test_new_with_root_elsewhere(site: Path, tmp_path: Path) -> None:
    done = run("new", "github.com/sgl-project/sglang/pull/7/files", "--root", str(site), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (site / "contributions/sglang-7.md").is_file()
    assert done.stdout.splitlines()[-1].endswith("contributions check --root site")


def test_help_names_the_guide_and_version_says_it(tmp_path: Path) -> None:
    from sphinx_contributions import __version__

    shown = run("--help", cwd=tmp_path).stdout
    guide = Path(shown.split("every warning and command):\n", 1)[1].splitlines()[0].strip())
    assert guide.read_text(encoding="utf-8") == (Path(__file__).parent.parent / "AUTHORING.md").read_text()
    import sphinx

    done = run("--version", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"contributions (sphinx-contributions) {__version__}, Sphinx {sphinx.__version__}\n",
        "",
    )


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "contributions"
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: contributions ")


@pytest.mark.parametrize("args", [(), ("init",), ("serve",), ("new",), ("check",), ("list",)])
def test_help_on_every_command(args: tuple[str, ...], tmp_path: Path) -> None:
    done = run(*args, "--help", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith(f"usage: {' '.join(('contributions', *args))} ")
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("text", "repo", "number"),
    [
        ("https://github.com/sgl-project/sglang/pull/1", "sgl-project/sglang", 1),
        ("https://github.com/sgl-project/sglang/pull/1/", "sgl-project/sglang", 1),
        ("https://github.com/sgl-project/sglang/pull/1/files#diff-1", "sgl-project/sglang", 1),
        ("http://www.github.com/OpenNMT/CTranslate2/pull/2103?w=1", "OpenNMT/CTranslate2", 2103),
        ("github.com/vllm-project/vllm-metal/pull/1182", "vllm-project/vllm-metal", 1182),
        ("huggingface/transformers#49135", "huggingface/transformers", 49135),
        ("  huggingface/transformers#49135\n", "huggingface/transformers", 49135),
        ("https://gitlab.com/group/sub/name/-/merge_requests/3", "gitlab.com/group/sub/name", 3),
        ("https://gitlab.com/Group/name/-/merge_requests/3/diffs?view=inline", "gitlab.com/Group/name", 3),
        ("gitlab.com/group/sub/name!3", "gitlab.com/group/sub/name", 3),
        ("GitLab.com/group/name#3", "gitlab.com/group/name", 3),
        ("https://codeberg.org/forgejo/forgejo/pulls/7/files", "codeberg.org/forgejo/forgejo", 7),
        ("codeberg.org/forgejo/forgejo#7", "codeberg.org/forgejo/forgejo", 7),
    ],
)
def test_accepted_forms(text: str, repo: str, number: int) -> None:
    pull = parse_pull_request(text)
    assert (pull.repo, pull.number) == (repo, number)


def _one_line(text: str) -> str:
    return f"contributions new: {text!r} is not a pull request; {ACCEPTED}"


INVALID = [
    # (arguments, the one stderr line, exit status)
    (
        (),
        "contributions: choose a command: init, serve, discover, new, check, list, sync (see contributions --help)",
        2,
    ),
    (("--bogus",), "contributions: unrecognized arguments: --bogus (see contributions --help)", 2),
    (("new",), "contributions new: the following arguments are required: PR (see contributions new --help)", 2),
    (
        ("new", "https://github.com/sgl-project/sglang/issues/1"),
        _one_line("https://github.com/sgl-project/sglang/issues/1"),
        2,
    ),
    (("new", "https://gitlab.com/a/b/-/issues/1"), _one_line("https://gitlab.com/a/b/-/issues/1"), 2),
    (("new", "https://codeberg.org/a/b/issues/1"), _one_line("https://codeberg.org/a/b/issues/1"), 2),
    (("new", "sglang#1"), _one_line("sglang#1"), 2),
    # on main "a pull request of the GitHub Enterprise at github.com"
    *(
        (("new", url), _one_line(url), 2)
        for url in (
            "https://github.com/a/..%2F..%2Fetc/pull/2",
            "https://www.github.com/a/../pull/2",
            "https://codeberg.org/a/b%2Fc/pulls/2",
        )
    ),
    (("new", "https://github.com/sgl-project/sglang"), _one_line("https://github.com/sgl-project/sglang"), 2),
    (
        ("new", "sgl-project/sglang#0"),
        "contributions new: 'sgl-project/sglang#0' is not a pull request (pull request number must be a "
        f"positive integer, got '0'); {ACCEPTED}",
        2,
    ),
    (
        ("new", "x/y#1", "--root", "nowhere"),
        "contributions new: no Sphinx site at 'nowhere' (no conf.py); run it in the site's folder or pass --root; "
        "to start a site there, run: contributions init nowhere",
        2,
    ),
    (
        ("new", "x/y#1", "extra"),
        "contributions new: unrecognized arguments: extra (see contributions new --help)",
        2,
    ),
    (
        ("check", "--root", "nowhere"),
        "contributions check: no Sphinx site at 'nowhere' (no conf.py); run it in the site's folder or pass --root; "
        "to start a site there, run: contributions init nowhere",
        2,
    ),
    (("check", "extra"), "contributions check: unrecognized arguments: extra (see contributions check --help)", 2),
    (
        ("check", "--outdir"),
        "contributions check: argument --outdir: expected one argument (see contributions check --help)",
        2,
    ),
    (
        ("list", "--root", "nowhere"),
        "contributions list: no Sphinx site at 'nowhere' (no conf.py); run it in the site's folder or pass --root; "
        "to start a site there, run: contributions init nowhere",
        2,
    ),
    (("list", "--jsn"), "contributions list: unrecognized arguments: --jsn (see contributions list --help)", 2),
    *(  # issue 45: a near miss on a forge the extension reads says what is wrong (before: "the Gitea or
        # Forgejo at github.com", "the GitHub Enterprise at github.com")
        (("new", url), f"contributions new: {url!r} is not a pull request's address: {said}", 2)
        for url, said in (
            ("https://github.com/python/cpython/pulls/101441", "GitHub writes /pull/101441, not /pulls/101441"),
            ("https://github.com/python/cpython/pull/10144l", "'10144l' after /pull/ is not a number"),
            ("github.com/python/cpython/pull/", "no number after /pull/"),
            (
                "https://gitlab.com/group/name/merge_requests/3",
                "GitLab writes /-/merge_requests/3, not /merge_requests/3",
            ),
            ("https://codeberg.org/ada/tool/pull/2", "Codeberg writes /pulls/2, not /pull/2"),
            ("https://codeberg.org/ada/tool/pulls/two", "'two' after /pulls/ is not a number"),
        )
    ),
    *(  # issue 33: a forge the extension does not read is named (before: "is not a pull request")
        (
            ("new", url),
            f"contributions new: {url!r} is {said}; the extension knows pull requests on GitHub, gitlab.com and "
            "Codeberg only (a write-up's :repo: is a repository there)",
            2,
        )
        for url, said in (
            ("https://bitbucket.org/ada/tool/pull-requests/5", "a Bitbucket pull request"),
            (
                "https://gitlab.example.org/group/name/-/merge_requests/3",
                "a merge request of the GitLab at gitlab.example.org",
            ),
            (
                "https://git.example.org/ada/tool/pulls/2",
                "a pull request of the Gitea or Forgejo at git.example.org",
            ),
        )
    ),
]


@pytest.mark.parametrize(("args", "line", "status"), INVALID, ids=[" ".join(case[0]) or "-" for case in INVALID])
def test_invalid_input(args: tuple[str, ...], line: str, status: int, tmp_path: Path) -> None:
    done = run(*args, cwd=tmp_path)
    assert (done.returncode, done.stderr, done.stdout) == (status, line + "\n", "")


def test_invalid_command_name(tmp_path: Path) -> None:
    done = run("frob", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("contributions: argument COMMAND: invalid choice: 'frob'")
    assert done.stderr.endswith(" (see contributions --help)\n")


def test_new_says_when_the_forge_did_not_answer(site: Path) -> None:
    """issue 45: the forge asked and silent (here: nothing listens at its API's address) is said, with the
    facts to fill in by hand (before: nothing was said)."""
    env = {"CONTRIBUTIONS_OFFLINE": "", "GITHUB_API_URL": "http://127.0.0.1:9", "GH_TOKEN": "", "GITHUB_TOKEN": ""}
    done = run("new", "sgl-project/sglang#1", cwd=site, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[1] == (
        "GitHub did not answer: fill in by hand the title, :status: (merged, open or closed), :date: (the day it "
        "merged) and :issue: (the issues it closes)"
    )


def test_new_refuses_an_existing_page(site: Path) -> None:
    before = (site / "contributions/beta-202.md").read_text(encoding="utf-8")
    done = run("new", "https://github.com/example/beta/pull/202", cwd=site)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "contributions new: contributions/beta-202.md already exists; not overwritten\n"
    assert (site / "contributions/beta-202.md").read_text(encoding="utf-8") == before


def test_new_refuses_an_existing_key(site: Path) -> None:
    """Keys match without regard to case, whatever the file is called; drafts count too."""
    (site / "contributions/gamma-303.md").rename(site / "contributions/gamma-option.md")
    done = run("new", "example/GAMMA#303", cwd=site)
    assert (done.returncode, done.stdout) == (1, "")
    assert (
        done.stderr == "contributions new: gamma#303 already has a page, contributions/gamma-option.md; not written\n"
    )
    assert not (site / "contributions/gamma-303.md").exists()
    assert run("new", "sgl-project/sglang#1", cwd=site).returncode == 0
    (site / "contributions/sglang-1.md").rename(site / "contributions/draft.md")
    done = run("new", "sgl-project/sglang#1", cwd=site)
    assert done.stderr == "contributions new: sglang#1 already has a page, contributions/draft.md; not written\n"


def test_new_gives_another_owners_repository_of_one_name_its_own_key(site: Path) -> None:
    """``ROCm/sglang#1`` beside ``sgl-project/sglang#1``: an owner-qualified file and ``:key:``, and the
    strict build publishes both (before: "already has a page; not written", and no way to set a key)."""
    assert run("new", "sgl-project/sglang#1", cwd=site).returncode == 0
    done = run("new", "https://github.com/ROCm/sglang/pull/1", cwd=site)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[:2] == [
        "wrote contributions/rocm-sglang-1.md: a draft of ROCm-sglang#1, left out of the published site",
        "its key is ROCm-sglang#1 (':key:'): sglang#1 is sgl-project/sglang (contributions/sglang-1.md)'s",
    ]
    text = (site / "contributions/rocm-sglang-1.md").read_text(encoding="utf-8")
    assert text.startswith("# TODO: the title of ROCm-sglang#1\n\n:::{contribution}\n:repo: ROCm/sglang\n:pr: 1\n")
    assert ":pr: 1\n:key: ROCm-sglang#1\n:status: draft\n" in text
    # the same again: that key has its page now
    done = run("new", "ROCm/sglang#1", cwd=site)
    assert (done.returncode, done.stderr) == (
        1,
        "contributions new: contributions/rocm-sglang-1.md already exists; not overwritten\n",
    )
    for name in ("sglang-1.md", "rocm-sglang-1.md"):  # both written: the strict build publishes both
        path = site / "contributions" / name
        path.write_text(write_sections(path.read_text(encoding="utf-8")).replace(":status: draft", ":status: open"))
    (site / "contributions/rocm-sglang-1.md").write_text(
        (site / "contributions/rocm-sglang-1.md").read_text().replace("# TODO: the title of ROCm-sglang#1", "# On ROCm")
    )
    done = run("check", cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^  ROCm-sglang#1 +On ROCm +open +4/4 +\d+ +contributions/rocm-sglang-1$", done.stdout, re.M)
    assert re.search(r"^  sglang#1 +Keep the scheduler from dropping queued requests +open ", done.stdout, re.M)


def test_new_ignores_keys_outside_the_site(site: Path) -> None:
    """Pages in excluded folders (tests, _build …) are not the site's: their keys do not count."""
    (site / "tests").mkdir()
    shutil.copy(site / "contributions/beta-202.md", site / "tests/sglang.md")
    text = (site / "tests/sglang.md").read_text().replace("example/beta", "sgl-project/sglang")
    (site / "tests/sglang.md").write_text(text.replace(":pr: 202", ":pr: 1"))
    conf = site / "conf.py"
    assert '"tests",' in conf.read_text()
    assert run("new", "sgl-project/sglang#1", cwd=site).returncode == 0


DEBUG_HINT = (
    "contributions check: to see Sphinx's whole output and the traceback, run it again with CONTRIBUTIONS_DEBUG=1"
)


def stopped_lines(site: Path, builder: str = "html") -> str:
    """``check``'s two lines when Sphinx stops: the exception's own line, and how to see the rest; no log
    file is left behind (issue 45: before, ``/tmp/contributions-check-*.log``)."""
    tmp = site.parent / "tmp"
    tmp.mkdir(exist_ok=True)
    done = run("check", cwd=site, env={**os.environ, "TMPDIR": str(tmp)})
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert "Traceback" not in done.stderr
    first, second = done.stderr.splitlines()
    assert second == DEBUG_HINT
    assert list(tmp.iterdir()) == []
    head = f"contributions check: the Sphinx build ({builder}) stopped (exit status 2): "
    assert first.startswith(head), first
    return first.removeprefix(head)


def test_check_reports_a_build_that_stops(site: Path) -> None:
    (site / "conf.py").write_text("raise RuntimeError('broken conf')\n")
    line = stopped_lines(site)
    assert line == "ConfigError: There is a programmable error in your configuration file: RuntimeError: broken conf"
    debug = run("check", cwd=site, env={**os.environ, "CONTRIBUTIONS_DEBUG": "1"})
    assert "RuntimeError: broken conf" in debug.stderr.split(DEBUG_HINT)[0]


def test_check_prints_the_config_error_line(site: Path) -> None:
    """A syntax error in conf.py: the ConfigError's line, not Sphinx's "Please also report this…"."""
    (site / "conf.py").write_text('project = "x"\nextensions = [\n', encoding="utf-8")
    line = stopped_lines(site)
    assert line == (
        "ConfigError: There is a syntax error in your configuration file: '[' was never closed (conf.py, line 2)"
    )


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        (  # issue 45: before, "the Sphinx build (html) stopped … ExtensionError: Could not import …" and a log
            'extensions = ["myst_parser", "sphinx_contribution"]',
            "extensions names 'sphinx_contribution', which is not installed: did you mean 'sphinx_contributions'?",
        ),
        (
            'extensions = ["myst_parser", "sphinx_contributions", "no_such_extension_here"]',
            "extensions names 'no_such_extension_here', which is not installed: install the package that "
            "provides it, or remove it from extensions",
        ),
    ],
)
def test_check_names_what_is_not_installed(site: Path, setting: str, line: str) -> None:
    """One line, at the line of conf.py that names it, with the fix; no log file left behind."""
    conf = site / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + f"\n{setting}\n", encoding="utf-8")
    number = len(conf.read_text(encoding="utf-8").splitlines())
    tmp = site.parent / "tmp"
    tmp.mkdir()
    done = run("check", cwd=site, env={**os.environ, "TMPDIR": str(tmp)})
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"contributions check: conf.py:{number}: {line}\n")
    assert list(tmp.iterdir()) == []


MINIMAL_CONF = 'extensions = ["myst_parser", "sphinx_contributions"]\nexclude_patterns = ["_build"]\n'
WRITE_UP = """\
# Fix the cache key

:::{contribution}
:repo: example-org/demo
:pr: 1
:summary: Requests with different options no longer share one cache entry.
:::

:::{problem}
Two requests got one answer.
:::

:::{root-cause}
The key left the options out.
:::

:::{fix}
The key includes them.
:::

:::{verification}
A test checks both answers.
:::
"""


def minimal_site(root: Path, conf: str, write_up: str = WRITE_UP) -> Path:
    (root / "contributions").mkdir(parents=True)
    (root / "conf.py").write_text(conf, encoding="utf-8")
    (root / "index.md").write_text("# Home\n\n:::{contributions}\n:::\n", encoding="utf-8")
    (root / "contributions" / "demo-1.md").write_text(write_up, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("conf", "warning"),
    [
        (
            MINIMAL_CONF,
            'WARNING: myst_enable_extensions has no "colon_fence": write-ups\' ":::" directives would be read as '
            'plain text; add "colon_fence" to myst_enable_extensions in conf.py [contrib.config]',
        ),
        (
            'extensions = ["sphinx_contributions"]\nsource_suffix = {".rst": "restructuredtext"}\n',
            'WARNING: sphinx_contributions reads write-ups as MyST Markdown with ":::" directives, but myst_parser '
            'is not loaded: add "myst_parser" to extensions and "colon_fence" to myst_enable_extensions in conf.py '
            "[contrib.config]",
        ),
    ],
)
def test_check_names_the_myst_setting(tmp_path: Path, conf: str, warning: str) -> None:
    """One warning that names every setting to add, and nothing else (before: 0 contributions and warnings
    about everything else; a reST site learnt of colon_fence only in the build after it added myst_parser;
    colon_fence was switched on behind the site's back)."""
    site = minimal_site(tmp_path / "site", conf)
    if "myst_parser" not in conf:
        (site / "index.rst").write_text("Home\n====\n", encoding="utf-8")
        (site / "index.md").unlink()
    done = run("check", cwd=site)
    assert done.returncode == 1, done.stderr
    assert done.stdout.split("Warnings (1):\n", 1)[1].splitlines()[0] == "  conf.py:1: " + warning
    # nothing switched on for the site: the write-up is not read as one until the site adds the setting
    assert not re.search(r"^  demo#1 ", done.stdout, re.M)


def test_check_refuses_a_requirement_only_this_machine_resolves(tmp_path: Path) -> None:
    """issue 45: ``requirements.txt`` naming the extension by a ``file://`` URL, an absolute path or a path
    outside the site: Read the Docs cannot install it, so the site would not publish (before: "would
    publish"); the rule is the one ``init`` warns by. A wheel in the site and a Git URL pass."""
    site = minimal_site(tmp_path / "site", MINIMAL_CONF + 'myst_enable_extensions = ["colon_fence"]\n')
    (site / "vendor").mkdir()
    (site / "vendor/sphinx_contributions-0.1.0-py3-none-any.whl").write_bytes(b"")
    (site / "requirements.txt").write_text(
        "furo\n"
        "sphinx-contributions[serve] @ file:///home/ada/sphinx-contributions  # the clone\n"
        "/home/ada/dist/sphinx_contributions-0.1.0-py3-none-any.whl\n"
        "../sphinx_contributions-0.1.0-py3-none-any.whl[serve]\n"
        "./vendor/sphinx_contributions-0.1.0-py3-none-any.whl[serve]\n"
        "sphinx-contributions @ git+https://github.com/ada/sphinx-contributions@0123abc\n",
        encoding="utf-8",
    )
    done = run("check", cwd=site)
    fix = (
        ": Read the Docs installs from a clone of the site, where it is not; commit a wheel of it in vendor/ and "
        "write ./vendor/NAME.whl[serve], write a Git URL it can reach (sphinx-contributions[serve] @ "
        "git+https://…), or the released name once sphinx-contributions is on PyPI [check.requirements]"
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.split("Warnings (3):\n", 1)[1].splitlines()[:3] == [
        f"  requirements.txt:{number}: WARNING: {line!r} installs sphinx-contributions from this machine only{fix}"
        for number, line in (
            (2, "sphinx-contributions[serve] @ file:///home/ada/sphinx-contributions  # the clone"),
            (3, "/home/ada/dist/sphinx_contributions-0.1.0-py3-none-any.whl"),
            (4, "../sphinx_contributions-0.1.0-py3-none-any.whl[serve]"),
        )
    ]


MISSING_THEME = (
    "WARNING: html_theme 'no_such_theme' is not installed; install it with: pip install no-such-theme "
    "(this build uses alabaster instead) [contrib.missing_theme]"
)


def test_a_missing_theme_is_one_line_in_a_plain_build(tmp_path: Path) -> None:
    """Before: Sphinx's "Theme error!" report with a traceback, asking for a bug report, and no site."""
    conf = MINIMAL_CONF + 'myst_enable_extensions = ["colon_fence"]\nhtml_theme = "no_such_theme"\n'
    conf += 'html_theme_options = {"sidebar_hide_name": True}\n'  # the missing theme's: not passed on
    site = minimal_site(tmp_path / "site", conf)
    command = [sys.executable, "-m", "sphinx", "-q", "--no-color", "-b", "html", str(site), str(tmp_path / "out")]
    for strict, status in ((["-W", "--keep-going"], 1), ([], 0)):
        done = subprocess.run([*command, *strict], capture_output=True, text=True, check=False)
        assert (done.returncode, done.stderr.splitlines()) == (status, [f"{site / 'conf.py'}:4: {MISSING_THEME}"])
    assert "Fix the cache key" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")


def test_check_names_a_missing_theme_and_its_install(tmp_path: Path) -> None:
    conf = MINIMAL_CONF + 'myst_enable_extensions = ["colon_fence"]\nhtml_theme = "no_such_theme"\n'
    site = minimal_site(tmp_path / "site", conf)
    done = run("check", cwd=site)
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout.split("Warnings (1):\n", 1)[1].splitlines()[0] == f"  conf.py:4: {MISSING_THEME}"


@pytest.mark.parametrize(("written", "real"), [("pydata-sphinx-theme", "pydata_sphinx_theme"), ("Furo", "furo")])
def test_a_theme_written_as_its_distribution_gets_its_real_name(tmp_path: Path, written: str, real: str) -> None:
    """Issue 33: ``html_theme = "pydata-sphinx-theme"``, which is installed under the name
    ``pydata_sphinx_theme`` (before: "not installed; install it with: pip install pydata-sphinx-theme")."""
    conf = MINIMAL_CONF + f'myst_enable_extensions = ["colon_fence"]\nhtml_theme = "{written}"\n'
    site = minimal_site(tmp_path / "site", conf)
    command = [sys.executable, "-m", "sphinx", "-q", "--no-color", "-W", "-b", "html", str(site), str(tmp_path / "out")]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr.splitlines()) == (
        1,
        [
            f"{site / 'conf.py'}:4: WARNING: html_theme {written!r} is not a theme's name; the installed theme is "
            f'{real!r}: write html_theme = "{real}" (this build uses alabaster instead) [contrib.missing_theme]'
        ],
    )


@pytest.mark.parametrize(
    ("theme", "command"),
    [
        ("furo", "pip install furo"),
        ("pydata_sphinx_theme", "pip install pydata-sphinx-theme"),
        ("sphinx_book_theme", "pip install sphinx-book-theme"),
        ("sphinx_rtd_theme", "pip install sphinx-rtd-theme"),
        ("my_theme", "pip install my-theme"),
    ],
)
def test_the_install_command_of_a_theme(theme: str, command: str) -> None:
    from sphinx_contributions.themes import install_command

    assert install_command(theme) == command


def test_check_builders(tmp_path: Path) -> None:
    """--builders html,epub,latex: every format; the PDF compiled when latexmk is there, and a character
    its font lacks is a warning (xelatex writes it only to its log and exits 0)."""
    conf = MINIMAL_CONF + 'myst_enable_extensions = ["colon_fence"]\nlatex_engine = "xelatex"\n'
    conf += 'project = author = copyright = "Ada"\nversion = "1"\n'  # what ePub 3 wants
    site = minimal_site(tmp_path / "site", conf)
    kept = tmp_path / "kept"
    done = run("check", "--outdir", str(kept), "--builders", "html,epub,latex", cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    compiled = shutil.which("latexmk") is not None
    # --outdir keeps each builder's output (before: only the HTML)
    assert sorted(path.name for path in kept.iterdir()) == ["epub", "html", "latex"]
    assert (kept / "html" / "contributions" / "demo-1.html").is_file()
    assert list((kept / "epub").glob("*.epub")) and list((kept / "latex").glob("*.tex"))
    if compiled:
        assert list((kept / "latex").glob("*.pdf"))
    note = (
        "latex: the PDF compiled with latexmk"
        if compiled
        else "latex: the PDF was not compiled (latexmk is not installed)"
    )
    assert (
        done.stdout.rstrip().splitlines()[-1]
        == f"The site would publish: the strict builds pass (html, epub, latex; {note})."
    )
    if not compiled:
        from .tools import missing

        missing("latexmk not found: install it with `apt-get install latexmk` (CI does this in .ci/run)")
    page = site / "contributions" / "demo-1.md"
    page.write_text(WRITE_UP.replace("Two requests got one answer.", "Two requests got one answer \U0001f600."))
    done = run("check", "--builders", "html,latex", cwd=site)
    assert done.returncode == 1
    warnings = done.stdout.split("Warnings (1):\n", 1)[1].splitlines()[0]
    assert re.fullmatch(
        r"  latex: [\w-]+\.tex: WARNING: the PDF leaves out \U0001f600 \(U\+1F600\): there is no such character in "
        r"font \S+ \(choose a font that has it in latex_elements\['fontpkg'\]\) \[latex\.missing_character\]",
        warnings,
    ), warnings


def test_check_refuses_an_unknown_builder(site: Path) -> None:
    done = run("check", "--builders", "html,pdf", cwd=site)
    assert (done.returncode, done.stderr) == (
        2,
        "contributions check: --builders takes a comma-separated list of html, dirhtml, epub, latex; got 'html,pdf'\n",
    )


def test_new_reports_an_unreadable_conf(site: Path) -> None:
    (site / "conf.py").write_text("raise RuntimeError('broken conf')\n")
    done = run("new", "sgl-project/sglang#1", cwd=site)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr == "contributions new: cannot read conf.py: RuntimeError: broken conf\n"


def test_parser_knows_the_commands() -> None:
    parser = build_parser()
    subparsers = next(action for action in parser._actions if action.dest == "command")
    assert set(subparsers.choices) == set(COMMANDS)  # type: ignore[arg-type]
    assert parser.parse_args(["new", "a/b#1"]).pr == "a/b#1"
    assert parser.parse_args(["list", "--json"]).json is True
    assert parser.parse_args(["check", "--root", "x"]).root == "x"


def test_check_reads_plain_warnings_under_ci(site: Path) -> None:
    """Sphinx colours its output when ``CI`` is set; the report is plain data, so ``check`` lists the
    warning all the same (regression: under CI the report was empty of pages)."""
    page = site / "contributions" / "beta-202.md"
    page.write_text(page.read_text(encoding="utf-8").replace(":status: merged", ":status: shipped"), encoding="utf-8")
    environ = {key: value for key, value in os.environ.items() if key not in {"NO_COLOR", "NO_COLOUR"}}
    done = subprocess.run(
        [sys.executable, "-m", "sphinx_contributions", "check"],
        cwd=site,
        capture_output=True,
        text=True,
        check=False,
        env={**environ, "CI": "true"},
    )
    assert done.returncode == 1
    assert "\x1b[" not in done.stdout
    line = page.read_text(encoding="utf-8").splitlines().index(":status: shipped") + 1  # the option's line
    assert (
        "Warnings (1):\n"
        f"  contributions/beta-202.md:{line}: WARNING: option ignored: status must be one of merged, open, "
        "closed, draft; got 'shipped' [contrib.bad_status]\n"
    ) in done.stdout


# -- check reads the build's report, not Sphinx's output -------------------------------------------------

#: a write-up with a warning of each phase: while reading (the extension's, MyST's), when checking across
#: pages (a duplicate key) and when resolving links (an unknown key)
BROKEN = """# Broken

:::{contribution}
:repo: example/beta
:pr: 202
:summary: Duplicates a key.
:status: shipped
:state: merged
:::

:::{problem}
See {contrib}`nope#1` and [nowhere](#nowhere).
:::

:::{root-cause}
r
:::

:::{fix}
f
:::

:::{verification}
v
:::
"""


def check_lines(stdout: str) -> list[str]:
    """The warnings ``check`` printed."""
    block = stdout.split("\nWarnings (", 1)[1].split("\n\n", 1)[0]
    return sorted(line[2:] for line in block.splitlines()[1:])


def build_lines(stderr: str, site: Path) -> list[str]:
    """The warnings a Sphinx build printed, paths relative to the site."""
    return sorted(line.replace(f"{site}/", "") for line in stderr.splitlines() if ": WARNING: " in line)


def test_check_lists_the_same_warnings_as_the_build(site: Path, tmp_path: Path) -> None:
    (site / "contributions" / "zz-broken.md").write_text(BROKEN, encoding="utf-8")  # after the real page
    done = run("check", cwd=site)
    assert done.returncode == 1, done.stderr
    strict = rtd_build(site, tmp_path / "strict" / "html")
    assert strict.returncode == 1
    lines = check_lines(done.stdout)
    assert lines == build_lines(strict.stderr, site)
    assert lines == [
        "contributions/zz-broken.md:12: WARNING: 'myst' cross-reference target not found: 'nowhere' "
        "[myst.xref_missing]",
        "contributions/zz-broken.md:12: WARNING: {contrib} target not found: 'nope#1' [contrib.unknown_key]",
        "contributions/zz-broken.md:3: WARNING: contribution beta#202 is already declared in "
        "contributions/beta-202.md; this page is not listed [contrib.duplicate_key]",
        "contributions/zz-broken.md:7: WARNING: option ignored: status must be one of merged, open, closed, draft; "
        "got 'shipped' [contrib.bad_status]",
        "contributions/zz-broken.md:8: WARNING: 'contribution' has no option 'state': did you mean 'status'? Write "
        "':status:' [contrib.unknown_name]",
    ]


def test_check_does_not_read_sphinx_output(site: Path) -> None:
    """With ``show_warning_types = False`` Sphinx's own lines carry no ``[type.subtype]``; the report does."""
    conf = site / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + "\nshow_warning_types = False\n", encoding="utf-8")
    page = site / "contributions" / "beta-202.md"
    page.write_text(page.read_text(encoding="utf-8").replace(":status: merged", ":status: shipped"), encoding="utf-8")
    done = run("check", cwd=site)
    assert done.returncode == 1
    assert "got 'shipped' [contrib.bad_status]\n" in done.stdout


def test_check_builds_with_a_canonical_url_as_read_the_docs_does(tmp_path: Path) -> None:
    """Issue 33: ``check`` sets ``READTHEDOCS_CANONICAL_URL`` as Read the Docs does, so an ``init`` site's
    feed is built, with its dates from the git history: a clone one commit deep, whose undated write-up's
    last commit is beyond it, fails ``check`` as it fails on Read the Docs (before: no canonical URL, no
    feed, and ``check`` passed). ``--canonical-url`` gives the address; the feed holds it."""
    environ = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH" and not k.startswith(("GIT_", "READ"))}
    src = tmp_path / "src"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx_contributions",
            "init",
            str(src),
            "--yes",
            "--requirement",
            "sphinx-contributions",
        ],
        capture_output=True,
        text=True,
        check=False,
        env=environ,
    )
    assert done.returncode == 0, done.stderr
    page = src / "contributions" / "demo-1.md"
    page.write_text(page.read_text(encoding="utf-8").replace(":status: draft\n", ":status: merged\n"), encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(src)]
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    for when in ("01", "02"):  # the write-up in January; February's commit touches only the about page
        if when == "02":
            with (src / "about.md").open("a", encoding="utf-8") as file:
                file.write("\nMore about me.\n")
        subprocess.run([*git, "add", "-A"], check=True)
        stamp = f"2026-{when}-01T00:00:00Z"
        env = {**environ, "GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
        subprocess.run([*git, "commit", "-qm", f"month {when}"], check=True, env=env)
    command = [sys.executable, "-m", "sphinx_contributions", "check"]
    full = tmp_path / "full"
    subprocess.run(["git", "clone", "-q", src.as_uri(), str(full)], check=True)
    kept = tmp_path / "kept"
    url = "https://ada.readthedocs.io/en/latest/"
    done = subprocess.run(
        [*command, "--outdir", str(kept), "--canonical-url", url], cwd=full, capture_output=True, text=True, env=environ
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    feed = (kept / "contributions.atom").read_text(encoding="utf-8")
    # the entry's id is its key's (write/exports.entry_id), its link the page's address
    assert f"<id>{url}contributions.json#demo%231</id>" in feed and "2026-01-01T00:00:00Z" in feed
    assert f'href="{url}contributions/demo-1.html"' in feed
    # issue 45: output kept without an address given holds no stand-in one (before: the PDF's title page,
    # canonical links and the feed named https://example.readthedocs.io/en/latest/)
    plain = tmp_path / "plain"
    done = subprocess.run([*command, "--outdir", str(plain)], cwd=full, capture_output=True, text=True, env=environ)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    written = [path for path in plain.rglob("*") if path.is_file() and path.suffix in (".html", ".json", ".xml")]
    assert written and [path for path in written if b"example.readthedocs.io" in path.read_bytes()] == []
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", src.as_uri(), str(shallow)], check=True)
    done = subprocess.run(command, cwd=shallow, capture_output=True, text=True, env=environ)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.split("Warnings (1):\n", 1)[1] == (
        "  contributions/demo-1.md:7: WARNING: the git history is shallow: this write-up's feed entry (no 'date') "
        "would take the time of the clone's boundary commit, not of its last commit; fetch the whole history "
        "('git fetch --unshallow') or give the page a ':date:' [contrib.shallow_history]\n"
        "\nThe site would not publish: the strict build stops on 1 warning.\n"
    )
    refused = subprocess.run([*command, "--canonical-url", "ada"], cwd=shallow, capture_output=True, text=True)
    assert (refused.returncode, refused.stderr.splitlines()[-1]) == (
        2,
        "contributions check: --canonical-url takes the site's address (https://…/); got 'ada'",
    )
