"""The manual (``docs/``, issue 33): it builds strictly (``-n -W``), and its reference is generated from the
package's tables: its ``objects.inv`` holds every directive and option, every role, every setting and every
subcommand and option, and it names every warning kind and event. One build for the module, into a temporary
folder; in it, a directive carries an option that only the test adds (in the build's process, before Sphinx
starts), and the reference shows it without any page edited."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

from sphinx_contributions.cli.common import PROG
from sphinx_contributions.cli.main import build_parser
from sphinx_contributions.extension import EVENTS
from sphinx_contributions.settings import SETTINGS
from sphinx_contributions.themes import THEMES
from sphinx_contributions.warnings import ContribWarning

from .conftest import REPO

DOCS = REPO / "docs"
#: an option no directive has, added by the build's process to ``metric``
PROBE = "probe-option-added-by-a-test"
BUILD = f"""
import sys
from docutils.parsers.rst import directives
from sphinx_contributions.read.metric_directive import MetricDirective
MetricDirective.option_spec = {{**MetricDirective.option_spec, {PROBE!r}: directives.unchanged}}
from sphinx.cmd.build import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs")
    command = [sys.executable, "-c", BUILD, "-n", "-W", "--keep-going", "-q", "-b", "html"]
    done = subprocess.run(
        [*command, "-d", str(out / "doctrees"), str(DOCS), str(out / "html")], capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return out / "html"


def inventory(built: Path) -> dict[str, set[str]]:
    with (built / "objects.inv").open("rb") as stream:
        found = InventoryFile.load(stream, "", lambda base, uri: uri)
    return {kind: set(objects) for kind, objects in found.items()}


def test_the_inventory_holds_every_directive_option_role_setting_and_subcommand(built: Path) -> None:
    from sphinx_contributions.read.directives import ContributionDirective
    from sphinx_contributions.read.listing_directive import ContributionsDirective
    from sphinx_contributions.read.metric_directive import MetricDirective

    found = inventory(built)
    directives = {
        "contribution": ContributionDirective,
        "contributions": ContributionsDirective,
        "metric": MetricDirective,
    }
    sections = {"problem", "root-cause", "fix", "verification", "known-limits", "projects", "project"}
    assert found["rst:directive"] == {f"contrib:{name}" for name in {*directives, *sections}}
    for name, cls in directives.items():
        for option in cls.option_spec or {}:
            assert f"contrib:{name}:{option}" in found["rst:directive:option"], (name, option)
    assert found["rst:role"] == {"contrib:contrib", "contrib:pr", "contrib:issue", "contrib:export"}
    assert {row.name for row in SETTINGS} == found["std:confval"]
    parser = build_parser()
    (commands,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    assert found["std:contrib-command"] == {f"{PROG} {name}" for name in commands.choices}
    for name, sub in commands.choices.items():
        for action in sub._actions:
            for flag in action.option_strings:
                if not isinstance(action, argparse._HelpAction):
                    assert f"{PROG}-{name}.{flag}" in found["std:cmdoption"], (name, flag)
    assert found["std:contrib-warning"] == {f"contrib.{member.value}" for member in ContribWarning}
    assert found["std:contrib-event"] == set(EVENTS)


def test_an_option_added_in_the_code_is_in_the_reference(built: Path) -> None:
    """The build's process gave ``metric`` one more option; no page names it, the reference shows it."""
    assert f"contrib:metric:{PROBE}" in inventory(built)["rst:directive:option"]
    texts = [path for path in DOCS.rglob("*.*") if path.is_file() and path.suffix != ".webp"]
    assert not any(PROBE in path.read_text(encoding="utf-8") for path in texts)
    page = (built / "reference" / "directives.html").read_text(encoding="utf-8")
    assert f'id="directive-option-contrib-metric-{PROBE}"' in page


def test_every_name_of_the_reference_has_a_description(built: Path) -> None:
    """issue 45: every directive (argument, content, example), directive option (type, default, meaning,
    from the directive's own ``option_doc``), role, setting, command option, event (when, arguments, what a
    handler may and must not do) and warning kind (cause, message, fix) is described; an entry without one
    would say "(no description)" (before: about 40 options with an empty description, 20 words on events,
    no fix for any warning)."""
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from contrib_reference import DIRECTIVE_DOCS, EVENT_DOCS, ROLE_DOCS, WARNING_DOCS, extension_names
    finally:
        sys.path.remove(str(DOCS / "_ext"))

    directives, roles = extension_names()
    assert set(DIRECTIVE_DOCS) == set(directives)
    assert all(all(part.strip() for part in docs) for docs in DIRECTIVE_DOCS.values())
    for name, cls in directives.items():
        docs = getattr(cls, "option_doc", {})
        assert set(docs) == set(getattr(cls, "option_spec", None) or {}), name
        assert all(doc.type and doc.default and doc.meaning for doc in docs.values()), name
    assert set(ROLE_DOCS) == set(roles)
    assert set(EVENT_DOCS) == set(EVENTS)
    assert all(all(part.strip() for part in docs) for docs in [*ROLE_DOCS.values(), *EVENT_DOCS.values()])
    assert set(WARNING_DOCS) == set(ContribWarning)
    assert all(row.description.strip() for row in SETTINGS)
    for page in ("directives", "warnings", "events", "settings", "commands"):
        text = (built / "reference" / f"{page}.html").read_text(encoding="utf-8")
        if page == "directives":  # the one option without a description: the one the build's process added
            (without,) = re.findall(r'id="([^"]+)"[^\n]*\n(?:[^\n]*\n){0,3}<dd><p>\(no description\)', text)
            assert without == f"directive-option-contrib-metric-{PROBE}"
            text = text.replace("(no description)", "", 1)
        assert "(no description)" not in text and "(no example)" not in text, page
        assert "<dd></dd>" not in text, page
    parser = build_parser()
    (commands,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    for name, sub in commands.choices.items():
        assert sub.description, name
        for action in sub._actions:
            assert action.help, (name, action.dest)


def test_the_reference_shows_the_myst_form_first(built: Path) -> None:
    """Every page a user writes is MyST: each directive's and role's signature is MyST's, reST's beside it."""
    import html

    page = html.unescape(re.sub(r"<[^>]+>", "", (built / "reference" / "directives.html").read_text(encoding="utf-8")))
    assert re.search(r":::\{contrib:metric\}\s+reST:\s+\.\.\s+contrib:metric::", page)
    assert re.search(r"\{contrib:issue\}`…`\s+reST:\s+:contrib:issue:`…`", page)


def test_every_directive_and_role_is_shown_rendered_beside_its_source(built: Path) -> None:
    """issue 45: each directive and role appears in the manual's examples as its source and, beside it, what
    the extension made of it in this build (the header and sections are the example page's own, rendered
    around their source); before, no example was rendered at all."""
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from contrib_reference import extension_names
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    directives, roles = extension_names()
    boxes: dict[str, set[str]] = {}  # name → the kinds of example that show it: "rendered" beside the source, or "page"
    for page in sorted((built / "examples").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        for classes in re.findall(r'<div class="(contrib-example [^"]*)"', text):
            kind = "page" if "contrib-example-page" in classes else "rendered"
            for name in re.findall(r"\bshows-([\w-]+)", classes):
                boxes.setdefault(name, set()).add(kind)
        results = re.findall(r'<div class="contrib-example-result docutils container">\s*(.{0,40})', text, re.S)
        assert all(result.strip() and not result.startswith("</div>") for result in results), page.name
    counts = {name: sorted(boxes.get(name, ())) for name in [*directives, *roles]}
    assert [name for name, kinds in counts.items() if not kinds] == []
    # the header and sections are the page's own; the rest are rendered in the example's box
    page_only = {"contribution", "problem", "root-cause", "fix", "verification"}
    assert [name for name in counts if name not in page_only and "rendered" not in counts[name]] == []
    header = (built / "examples" / "demo-7.html").read_text(encoding="utf-8")
    assert "contrib-header-card" in header and header.count('class="contrib-section"') >= 4
    # every figure kind: an improvement, a higher-is-better one, approximate values, a check that held, no words
    figures = (built / "examples" / "demo-12.html").read_text(encoding="utf-8")
    assert figures.count("shows-metric") == 4 and "held" in figures and "~1.03e-1" in figures
    listings = (built / "examples" / "listings.html").read_text(encoding="utf-8")
    for layout in ("contrib-table", "contrib-cards", "contrib-proof-row", "contrib-filter"):
        assert layout in listings, layout


def test_the_warnings_page_names_every_kind_with_its_cause(built: Path) -> None:
    page = (built / "reference" / "warnings.html").read_text(encoding="utf-8")
    for member in ContribWarning:
        assert f'id="contrib-warning-contrib.{member.value}"' in page, member
    assert "(no description)" not in page


def test_the_manual_has_its_own_read_the_docs_configuration() -> None:
    import yaml  # type: ignore[import-untyped]

    config = yaml.safe_load((DOCS / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert config["sphinx"] == {"configuration": "docs/conf.py", "fail_on_warning": True}
    assert config["python"]["install"] == [{"method": "pip", "path": "."}, {"requirements": "docs/requirements.txt"}]
    assert (DOCS / "requirements.txt").read_text(encoding="utf-8").split() == ["furo"]


def test_the_themes_gallery_shows_every_supported_theme_at_both_widths(built: Path) -> None:
    """docs/how-to/themes.md names every theme of ``THEMES`` and shows a picture of each at phone and laptop
    width; each picture the page references is a file docs/gallery.py made, and is in the built page."""
    import re

    from PIL import Image

    page = (DOCS / "how-to" / "themes.md").read_text(encoding="utf-8")
    pictures = re.findall(r"^:::\{figure\} (gallery/\S+)$", page, re.M)
    assert pictures == [f"gallery/{theme}-{size}.webp" for theme in THEMES for size in ("phone", "laptop")]
    for theme in THEMES:
        assert f"### `{theme}`" in page, theme
    html = (built / "how-to" / "themes.html").read_text(encoding="utf-8")
    for picture in pictures:
        path = DOCS / "how-to" / picture
        with Image.open(path) as image:
            assert image.width == (390 if picture.endswith("-phone.webp") else 1280), picture
        assert f'src="../_images/{path.name}"' in html, picture
        assert (built / "_images" / path.name).is_file(), picture


def test_the_tutorial_is_short_numbered_steps() -> None:
    """issue 45: numbered steps, each a command or an edit and what you should see, one of them writing a
    section and one a figure; no paragraph over 60 words (before: 834 words, a first step of 228)."""
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    prose = re.sub(r"^( *)```.*?^\1```", "", text, flags=re.S | re.M)  # the commands and edits aside
    paragraphs = [" ".join(block.split()) for block in re.split(r"\n\s*\n", prose) if block.strip()]
    assert max(len(paragraph.split()) for paragraph in paragraphs) <= 60
    steps = [int(number) for number in re.findall(r"^ ?(\d+)\. ", text, re.M)]
    assert steps == list(range(1, len(steps) + 1)) and len(steps) >= 10
    assert ":::{problem}" in text and ":::{metric}" in text
    assert "{doc}`how-to/install`" in text  # the install choices are a how-to of their own


#: what the manual, written for the extension's users, never speaks of (issue 45): this repository, its
#: tests, its first portfolio, the package's folders and wiring
CONTRIBUTORS_WORDS = (
    "this repository",
    "extension's tests",
    "package's tests",
    "package's own tests",
    "tests/",
    "test suite",
    "first written for",
    "vllm-metal",
    "HANDLERS",
    "sphinx_contributions/",
    "version.py",
)


def test_the_manual_is_written_for_its_users(built: Path) -> None:
    """Its text (code and examples aside) speaks to a user; contributor material is CONTRIBUTING.md's."""
    import html

    found = []
    for page in sorted(built.rglob("*.html")):
        if page.name in ("genindex.html", "search.html") or "_sources" in page.parts:
            continue
        # code and examples aside: blocks, and inline code (a user's own paths, such as tests/test_cache.py)
        text = re.sub(r"<(script|style|pre|code)[^>]*>.*?</\1>", "", page.read_text(encoding="utf-8"), flags=re.S)
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
        found += [f"{page.relative_to(built)}: {word}" for word in CONTRIBUTORS_WORDS if word in text]
    assert found == []
    assert "## The package's layout: the stages of a build" in (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
