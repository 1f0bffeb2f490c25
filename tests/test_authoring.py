"""``AUTHORING.md`` and the manual's own pages (``docs/**/*.md``) cannot rot: every Markdown example in them
is built in a site of its own, strictly (or, where it shows a warning, with exactly that warning); every
directive, option, role, warning and command of the extension is documented in AUTHORING.md; every
command line shown parses; each part of AUTHORING.md is one page of the manual, included there, so no
text is written twice. (The make targets are the maintainers': README.md documents them.)

An example is a fenced ``markdown`` block right after a marker comment:
``<!-- example: NAME [path=PAGE] [with=NAME,...] [warns=contrib.SUBTYPE] [site=KIND] -->``: ``path`` is
where the page goes in the site (default ``contributions/NAME.md``), ``with`` adds other examples to the
site, ``warns`` is the warning expected (or the warnings, comma-separated, in order); ``site`` builds it
as *another* site that names this one ``portfolio`` in its ``intersphinx_mapping`` (the ``objects.inv``
of ``tests/roots/test-contrib-pages``), ``with-extension`` or ``without-extension`` (no
``sphinx_contributions``, only MyST and intersphinx); ``lock`` puts a lock file beside ``conf.py``: the
fenced ``json`` block after ``<!-- lock: NAME -->``; ``conf`` adds the lines of the fenced ``python`` block
after ``<!-- conf: NAME -->`` to the site's ``conf.py`` (a how-to's settings, built with its page); a
block that adds to the site's lists (``.append(``, ``+=``) is added to a host's ``conf.py`` that loads
MyST and an extension of its own, but not this one, and the host's own entries must stay.
Example names are unique across the files.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sphinx.util.console import strip_colors

from sphinx_contributions.cli.main import build_parser
from sphinx_contributions.keys import SECTION_NAMES
from sphinx_contributions.lock import LOCK_NAME, read_lock
from sphinx_contributions.read.directives import ContributionDirective
from sphinx_contributions.read.listing_directive import ContributionsDirective
from sphinx_contributions.read.metric_directive import MetricDirective
from sphinx_contributions.read.projects_directive import ProjectIntroDirective
from sphinx_contributions.warnings import ContribWarning

from .conftest import REPO

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.testing.util import SphinxTestApp

GUIDE = REPO / "AUTHORING.md"
TEXT = GUIDE.read_text(encoding="utf-8")
DOCS = REPO / "docs"
#: the manual's own pages (its reference is generated, its guide's pages include AUTHORING.md's parts)
PAGES = sorted(path for path in DOCS.rglob("*.md") if "_build" not in path.parts and path.name != "audit.md")
#: every text whose examples are built: the guide, then the manual's pages
SOURCES = {path: path.read_text(encoding="utf-8") for path in (GUIDE, *PAGES)}

#: a marker and its block may stand indented in a list item (``indent``): the block's lines are read without it
_MARKER = re.compile(r"^(?P<indent> *)<!-- example: (?P<spec>[^>]*?) -->\n(?P=indent)(?P<fence>`{3,})markdown\n", re.M)
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,})(?P<lang>[\w-]*)\n", re.M)


def _dedent(text: str, indent: str) -> str:
    """``text`` without the list item's ``indent`` on each line that has it."""
    return "".join(line.removeprefix(indent) for line in text.splitlines(keepends=True))


CONF = """\
extensions = ["myst_parser", "sphinx_contributions"]
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence", "deflist"]
html_baseurl = "https://example.org/"
nitpicky = True
"""
#: a site that exists, for a conf block that adds to its lists: MyST and its own extension and syntax
HOST_CONF = """\
extensions = ["myst_parser", "sphinx.ext.todo"]
exclude_patterns = ["_build"]
myst_enable_extensions = ["deflist"]
html_baseurl = "https://example.org/"
nitpicky = True
"""
INDEX = "# Examples\n"


@dataclass(frozen=True)
class Example:
    name: str
    path: str
    text: str
    with_: tuple[str, ...] = ()
    warns: str | None = None
    site: str | None = None
    lock: str | None = None
    conf: str | None = None


def _examples() -> dict[str, Example]:
    examples: dict[str, Example] = {}
    for text in SOURCES.values():
        for match in _MARKER.finditer(text):
            name, *fields = match["spec"].split()
            options = dict(field.split("=", 1) for field in fields)
            assert set(options) <= {"path", "with", "warns", "site", "lock", "conf"}, match["spec"]
            assert options.get("site") in (None, "with-extension", "without-extension"), match["spec"]
            body_start = match.end()
            end = text.index(f"\n{match['indent']}{match['fence']}\n", body_start - 1)
            assert name not in examples, f"example {name!r} is given twice"
            examples[name] = Example(
                name,
                options.get("path", f"contributions/{name}.md"),
                _dedent(text[body_start : end + 1], match["indent"]),
                tuple(filter(None, options.get("with", "").split(","))),
                options.get("warns"),
                options.get("site"),
                options.get("lock"),
                options.get("conf"),
            )
    return examples


EXAMPLES = _examples()

_LOCK = re.compile(r"^<!-- lock: (?P<name>\S+) -->\n```json\n(?P<text>.*?)^```\n", re.M | re.S)
#: the lock files of the guide's examples: name → the file's text
LOCKS = {match["name"]: match["text"] for text in SOURCES.values() for match in _LOCK.finditer(text)}
_CONF = re.compile(
    r"^(?P<indent> *)<!-- conf: (?P<name>\S+) -->\n(?P=indent)```python\n(?P<text>.*?)^(?P=indent)```\n", re.M | re.S
)
#: the settings of the examples: name → lines added to the site's conf.py
CONFS = {
    match["name"]: _dedent(match["text"], match["indent"])
    for text in SOURCES.values()
    for match in _CONF.finditer(text)
}


#: another site: this site, named ``portfolio``, through its objects.inv (``{inventory}``)
OTHER_SITE = """\
extensions = [{extensions}"myst_parser", "sphinx.ext.intersphinx"]
intersphinx_mapping = {{"portfolio": ("https://portfolio.example.org/en/latest/", {inventory!r})}}
html_baseurl = "https://other.example.org/"
nitpicky = True
"""


def _adds_to_the_site(example: Example) -> bool:
    """Whether the example's conf block adds to a site's own lists (``.append(``, ``+=``)."""
    return example.conf is not None and any(word in CONFS[example.conf] for word in (".append(", "+="))


def _site(srcdir: Path, example: Example, inventory: Path | None = None) -> None:
    srcdir.mkdir(parents=True)
    if example.site is None:
        conf = HOST_CONF if _adds_to_the_site(example) else CONF
    else:
        extension = '"sphinx_contributions", ' if example.site == "with-extension" else ""
        conf = OTHER_SITE.format(extensions=extension, inventory=str(inventory))
    if example.conf is not None:
        conf += CONFS[example.conf]
    (srcdir / "conf.py").write_text(conf, encoding="utf-8")
    (srcdir / "index.md").write_text(INDEX, encoding="utf-8")
    if example.lock is not None:
        (srcdir / LOCK_NAME).write_text(LOCKS[example.lock], encoding="utf-8")
    for part in (*(EXAMPLES[name] for name in example.with_), example):
        path = srcdir / part.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(part.text, encoding="utf-8")


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 10
    assert "worked-example" in EXAMPLES


def test_every_markdown_block_is_an_example() -> None:
    """No Markdown block escapes the build: each one follows an example marker, in the guide and in the
    manual's pages; and every conf block is one an example builds with."""
    count = 0
    for path, text in SOURCES.items():
        blocks = [m for m in _FENCE.finditer(text) if m["lang"] == "markdown"]
        count += len(blocks)
        for block in blocks:
            before = text[: block.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
            # an example (a page built as it stands), or an edit the tutorial makes (built by
            # test_the_tutorial_s_edits_build)
            assert before.startswith(("<!-- example: ", "<!-- edit: ")), (path.name, block.start())
    assert count == len(EXAMPLES) + len(EDITS)
    assert {example.conf for example in EXAMPLES.values() if example.conf} == set(CONFS)


_PART = re.compile(r"^<!-- part: (?P<name>[\w-]+) -->\n(?P<text>.*?)^<!-- end: (?P=name) -->\n", re.M | re.S)
#: AUTHORING.md's parts, each one page of the manual
PARTS = {match["name"]: match["text"] for match in _PART.finditer(TEXT)}
_INCLUDE = re.compile(
    r"^```\{include\} (?P<path>\S+)\n:start-after: <!-- part: (?P<name>[\w-]+) -->\n"
    r":end-before: <!-- end: (?P=name) -->\n```\n",
    re.M,
)


def test_each_part_of_the_guide_is_one_page_of_the_manual() -> None:
    """One source per text: every part of AUTHORING.md is included by exactly one page of the manual, and
    the parts cover the guide from its first part to its end (nothing of it missing from the manual)."""
    assert len(PARTS) >= 10
    assert TEXT.index("<!-- part: ") > 0 and TEXT.rstrip("\n").endswith(f"<!-- end: {list(PARTS)[-1]} -->")
    assert sum(len(part) for part in PARTS.values()) > 0.95 * len(TEXT)
    included: dict[str, list[str]] = {}
    for path in PAGES:
        for match in _INCLUDE.finditer(SOURCES[path]):
            assert (path.parent / match["path"]).resolve() == GUIDE, (path, match["path"])
            included.setdefault(match["name"], []).append(path.relative_to(DOCS).as_posix())
    assert {name: len(pages) for name, pages in included.items()} == dict.fromkeys(PARTS, 1)


def _paragraphs(text: str) -> set[str]:
    return {" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if len(p) > 120 and not p.startswith("```")}


def test_no_paragraph_of_the_guide_is_copied_into_the_manual() -> None:
    guide = _paragraphs(TEXT)
    for path in PAGES:
        assert not _paragraphs(SOURCES[path]) & guide, path


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_builds(
    name: str, make_app: Callable[..., SphinxTestApp], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    example = EXAMPLES[name]
    for other in example.with_:
        assert other in EXAMPLES, f"{name}: with={other} is not an example"
    srcdir = tmp_path / "src"
    # another site links to this one through the objects.inv of tests/roots/test-contrib-pages (built once
    # per session), which holds the write-ups the guide's examples name
    inventory = Path(request.getfixturevalue("contrib_pages_app").outdir) / "objects.inv"
    _site(srcdir, example, inventory if example.site else None)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    if example.warns is None:
        assert warnings == []
    else:  # the warnings named, in order (MyST's own, then the extension's "did you mean")
        kinds = example.warns.split(",")
        assert len(warnings) == len(kinds), warnings
        for warning, kind in zip(warnings, kinds, strict=True):
            assert warning.startswith(f"{srcdir / example.path}:")
            assert warning.endswith(f"[{kind}]")
    if _adds_to_the_site(example):  # the site's own entries kept beside the extension's
        assert {"sphinx.ext.todo", "myst_parser", "sphinx_contributions"} <= set(app.extensions)
        assert list(app.config.myst_enable_extensions) == ["deflist", "colon_fence"]
    html = Path(app.outdir) / Path(example.path).with_suffix(".html")
    is_draft = ":status: draft" in example.text
    assert html.is_file() != is_draft
    if example.site:  # every link leads to this site
        assert all(a.startswith("https://portfolio.example.org/") for a in _external_links(html)), name
        assert len(_external_links(html)) == example.text.count("portfolio")


def test_the_existing_site_how_to_adds_to_the_site_s_lists() -> None:
    """Copied as shown into a site's ``conf.py``, the how-to's settings keep the site's own extensions and
    MyST syntax (on fd8d401 they replaced both lists: a site lost its extensions and its ``deflist``)."""
    settings: dict[str, object] = {}
    exec(HOST_CONF + CONFS["shared-site"], settings)
    assert settings["extensions"] == ["myst_parser", "sphinx.ext.todo", "sphinx_contributions"]
    assert settings["myst_enable_extensions"] == ["deflist", "colon_fence"]


_EDIT = re.compile(
    r"^(?P<indent> *)<!-- edit: (?P<name>\S+) -->\n(?P=indent)```markdown\n(?P<text>.*?)^(?P=indent)```\n", re.M | re.S
)
#: the tutorial's edits of the page ``contributions new`` writes: name → the Markdown it shows
EDITS = {m["name"]: _dedent(m["text"], m["indent"]) for m in _EDIT.finditer(SOURCES[DOCS / "tutorial.md"])}


def _replace_block(text: str, block: str) -> str:
    """``text`` with the directive ``block`` opens (its first line) replaced by ``block``, up to its closing
    fence (the opening's colons alone on a line)."""
    opening = block.splitlines()[0]
    fence = opening[: len(opening) - len(opening.lstrip(":"))]
    start = text.index(opening + "\n")
    end = text.index(f"\n{fence}\n", start) + len(fence) + 2
    return text[:start] + block + text[end:]


def test_the_tutorial_s_edits_build(tmp_path: Path) -> None:
    """Steps 7 to 12 of the tutorial as a reader makes them: ``contributions new`` writes the page, each edit
    shown replaces what its step says (the first line, the header's lines, a section), the other two
    sections get a sentence, and the site builds strictly with the figure the step promises."""
    from .conftest import copy_site, rtd_build

    assert set(EDITS) == {"title", "header", "problem", "verification"}
    site = copy_site(tmp_path / "site")
    env = {**os.environ, "CONTRIBUTIONS_OFFLINE": "1"}
    new = [sys.executable, "-m", "sphinx_contributions", "new", "https://github.com/sgl-project/sglang/pull/1"]
    assert subprocess.run(new, cwd=site, env=env, capture_output=True, check=False).returncode == 0
    page = site / "contributions" / "sglang-1.md"
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = EDITS["title"]  # step 8: the first line
    text = "".join(lines)
    for line in EDITS["header"].splitlines():  # step 9: each header line replaces the option's own line
        option = line.split(":", 2)[1]
        text, count = re.subn(rf"^:{option}: .*$", line, text, count=1, flags=re.M)
        assert count == 1, option
    text = _replace_block(text, EDITS["problem"])  # step 10
    for name in ("root-cause", "fix"):  # step 11: "the same way"
        text = _replace_block(text, f":::{{{name}}}\nA sentence of the {name}.\n:::\n")
    text = _replace_block(text, EDITS["verification"])  # step 12: the whole block
    page.write_text(text, encoding="utf-8")
    (site / "contributions" / "demo-1.md").unlink(missing_ok=True)  # step 13
    built = rtd_build(site, tmp_path / "html")
    assert (built.returncode, built.stderr) == (0, "")
    html = (tmp_path / "html" / "contributions" / "sglang-1.html").read_text(encoding="utf-8")
    assert "Keep queued requests across a scheduler restart" in html
    assert "down to 0" in html


def _external_links(html: Path) -> list[str]:
    return re.findall(r'<a class="reference external" href="([^"]+)"', html.read_text(encoding="utf-8"))


def test_every_directive_and_option_is_documented() -> None:
    for name in ("contribution", *SECTION_NAMES, "metric", "contributions", "projects", "project"):
        assert f"`{name}`" in TEXT, name
        assert f"{{{name}}}" in TEXT, name
    for directive in (ContributionDirective, MetricDirective, ContributionsDirective, ProjectIntroDirective):
        for option in directive.option_spec:
            assert f"`:{option}:`" in TEXT, (directive.__name__, option)


def test_every_role_is_documented() -> None:
    for role in ("contrib", "pr", "issue", "export"):
        assert f"{{{role}}}`" in TEXT, role


@pytest.mark.parametrize("kind", list(ContribWarning), ids=lambda kind: kind.value)
def test_every_warning_is_documented(kind: ContribWarning) -> None:
    assert re.search(rf"^\| `contrib\.{kind.value}` \| \S", TEXT, re.M), kind


def test_every_setting_is_documented() -> None:
    for name in (
        "contributions_index",
        "contributions_include_drafts",
        "contributions_feed_title",
        "contributions_author",
        "contributions_social_cards",
        "contributions_noindex",
        "contributions_lock",
        "contributions_check_titles",
        "contributions_tag_page_min",
        "contributions_project_page_min",
        "contributions_filter_min",
    ):
        assert f"| `{name}` |" in TEXT, name


def test_the_guide_names_no_make_target() -> None:
    """The make targets are the repository's (an adopter's site has none): the guide the package ships names
    none (README.md documents them: tests/test_site.py)."""
    assert re.findall(r"`make [\w-]+", TEXT) == []


def _console_commands() -> list[list[str]]:
    commands = []
    for block in re.finditer(r"^```console\n(.*?)^```", "\n".join(SOURCES.values()), re.M | re.S):
        for line in block[1].splitlines():
            if line.startswith("$ contributions "):
                commands.append(shlex.split(line[2:])[1:])
    return commands


def test_every_command_and_option_is_documented() -> None:
    parser = build_parser()
    subparsers = next(action for action in parser._actions if action.dest == "command")
    for name, sub in subparsers.choices.items():  # type: ignore[union-attr]
        assert f"`contributions {name}" in TEXT, name
        for action in sub._actions:
            for flag in action.option_strings:
                if flag not in ("-h",):
                    assert f"`{flag}" in TEXT or f"{flag} " in TEXT, (name, flag)
    shown = {command[0] for command in _console_commands()}
    assert shown == set(subparsers.choices)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", _console_commands(), ids=" ".join)
def test_every_command_shown_parses(command: list[str]) -> None:
    args, extra = build_parser().parse_known_args(command)
    assert extra == []
    assert args.command == command[0]


def test_lock_examples_follow_the_schema(tmp_path: Path) -> None:
    """Each lock the guide shows is one the build reads (and the schema accepts), in the lock's own layout."""
    import json

    import jsonschema

    from sphinx_contributions.lock import SCHEMA_PATH, dumps_lock

    assert LOCKS
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    for name, text in LOCKS.items():
        jsonschema.validate(json.loads(text), schema)
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        assert read_lock(path), name
        assert json.loads(dumps_lock(read_lock(path))) == json.loads(text)


def test_lock_examples_show_their_facts(make_app: Callable[..., SphinxTestApp], tmp_path: Path) -> None:
    """The agreeing example's header shows the merge date and the first release, as the guide says."""
    example = EXAMPLES["lock-agrees"]
    srcdir = tmp_path / "src"
    _site(srcdir, example)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    html = (Path(app.outdir) / "contributions/demo-21.html").read_text(encoding="utf-8")
    assert '<p class="contrib-forge-facts">merged on 2025-11-20 · first shipped in v2.4.0</p>' in html
    assert '"merged on 2025-11-20 · first shipped in v2.4.0"' in TEXT
    made = html[html.index('<p class="contrib-made">') :]
    made = re.sub(r"<[^>]+>", "", made[: made.index("</p>")])
    assert made == "+12 −3 in 2 files, 1 of them a test · 2 commits · 1 approval · merged after 6 days"
    assert f'"{made}"' in " ".join(TEXT.split())
