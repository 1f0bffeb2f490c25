"""Links to write-ups and their sections: from a page of the site (MyST links to a section's anchor,
``{ref}`` labels, ``{contrib}`` with a section), and from another site through this site's
``objects.inv`` (intersphinx), once with the extension installed there and once without it.

Missing sections are warnings (``tests/test_warnings.py``); the forms the authoring guide shows are
built by ``tests/test_authoring.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from sphinx.util.console import strip_colors

from .conftest import MakeApp, copy_site, rtd_build
from .edits import edit

ALPHA = "Add per-layer tables to the alpha loader"
BETA = "Fix the beta decoder mask"
BASE = "https://portfolio.example.org/en/latest/"

LINKS_PAGE = """\
---
orphan: true
---

# Links

- path: [the root cause](../contributions/alpha-101.md#root-cause)
- path untitled: [](../contributions/beta-202.md#verification)
- ref: {ref}`alpha-101-root-cause`
- ref any case: {ref}`Beta-202-Verification`
- ref page: {ref}`gamma-303`
- contrib: {contrib}`Alpha#101#root-cause`
- contrib any case: {contrib}`the check <BETA#202#Verification>`
"""


def body_links(page: Path) -> dict[str, tuple[str, str]]:
    """``- name: …`` item → (text, href) of its one link."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    found = {}
    for item in soup.select('[role="main"] li'):
        name, _, _ = item.get_text().partition(": ")
        link = item.find("a")
        assert isinstance(link, Tag), name
        found[name] = (link.get_text(), str(link["href"]))
    return found


def test_links_to_sections_land_on_the_section(tmp_path: Path) -> None:
    """A page of the portfolio links to sections of two write-ups in every form; the strict build passes
    and each link's target page has an element with that id."""
    src = copy_site(tmp_path / "src")
    (src / "about/links.md").write_text(LINKS_PAGE, encoding="utf-8")
    out = tmp_path / "out/html"
    done = rtd_build(src, out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    links = body_links(out / "about/links.html")
    assert links == {
        "path": ("the root cause", "../contributions/alpha-101.html#root-cause"),
        "path untitled": (f"{BETA} — Verification", "../contributions/beta-202.html#verification"),
        "ref": (f"{ALPHA} — Root cause", "../contributions/alpha-101.html#root-cause"),
        "ref any case": (f"{BETA} — Verification", "../contributions/beta-202.html#verification"),
        "ref page": ("Gamma option on the fast path", "../contributions/gamma-303.html#contribution"),
        "contrib": (f"{ALPHA} — Root cause", "../contributions/alpha-101.html#root-cause"),
        "contrib any case": ("the check", "../contributions/beta-202.html#verification"),
    }
    for _, href in links.values():
        path, _, anchor = href.partition("#")
        target = BeautifulSoup((out / "about" / path).resolve().read_text(encoding="utf-8"), "html.parser")
        section = target.find(id=anchor)
        assert isinstance(section, Tag), href
        assert section.name in {"section", "div"}, href


def test_links_follow_a_changed_title_on_an_incremental_build(tmp_path: Path) -> None:
    """Untitled section links show the write-up's title: when it changes, the linking page is rewritten by
    an incremental build, as a clean build writes it (Sphinx itself rewrites only {contrib}-free pages that
    changed)."""
    src = copy_site(tmp_path / "src")
    # no {contrib} link here: those make the page depend on the write-up already
    page = "".join(line for line in LINKS_PAGE.splitlines(keepends=True) if "{contrib}" not in line)
    (src / "about/links.md").write_text(page, encoding="utf-8")
    assert rtd_build(src, tmp_path / "inc/html").returncode == 0
    edit(src / "contributions/alpha-101.md", "# Add per-layer tables", "# Add per-layer model tables")
    edit(src / "contributions/beta-202.md", ":::{verification}", ":::{verification} How it was checked")
    assert rtd_build(src, tmp_path / "inc/html").returncode == 0
    assert rtd_build(src, tmp_path / "clean/html").returncode == 0
    incremental = body_links(tmp_path / "inc/html/about/links.html")
    assert incremental == body_links(tmp_path / "clean/html/about/links.html")
    assert incremental["ref"][0] == "Add per-layer model tables to the alpha loader — Root cause"
    assert incremental["path untitled"][0] == f"{BETA} — How it was checked"
    assert incremental["ref any case"][0] == f"{BETA} — How it was checked"


# -- another site, through this site's objects.inv ------------------------------------------------------

WITH_EXTENSION = """\
# Elsewhere

- write-up: {external+portfolio:contrib:contrib}`Alpha#101`
- any case: {external+portfolio:contrib:contrib}`alpha#101`
- section: {external+portfolio:contrib:contrib}`BETA#202#Verification`
- explicit: {external+portfolio:contrib:contrib}`the mask fix <beta#202>`
- label: {external+portfolio:ref}`Alpha-101-Root-Cause`
"""

WITHOUT_EXTENSION = """\
# Elsewhere

- write-up: [](inv:portfolio:contrib:contribution#alpha#101)
- section: [](inv:portfolio:contrib:section#beta#202#verification)
- explicit: [the mask fix](inv:portfolio:contrib:contribution#beta#202)
- label: {external+portfolio:ref}`Alpha-101-Root-Cause`
- label inv: [](inv:portfolio:std:label#gamma-303-fix)
"""

EXPECTED = {
    "write-up": (ALPHA, BASE + "contributions/alpha-101.html#contribution"),
    "any case": (ALPHA, BASE + "contributions/alpha-101.html#contribution"),
    "section": (f"{BETA} — Verification", BASE + "contributions/beta-202.html#verification"),
    "explicit": ("the mask fix", BASE + "contributions/beta-202.html#contribution"),
    "label": (f"{ALPHA} — Root cause", BASE + "contributions/alpha-101.html#root-cause"),
    "label inv": ("Gamma option on the fast path — Fix", BASE + "contributions/gamma-303.html#fix"),
}


def other_site(srcdir: Path, inventory: Path, page: str, *, extension: bool) -> Path:
    """A second site whose ``intersphinx_mapping`` names this site ``portfolio`` (a local objects.inv)."""
    srcdir.mkdir(parents=True)
    extensions = ["myst_parser", "sphinx.ext.intersphinx", *(["sphinx_contributions"] if extension else [])]
    (srcdir / "conf.py").write_text(
        f"extensions = {extensions!r}\n"
        f"intersphinx_mapping = {{'portfolio': ({BASE!r}, {str(inventory)!r})}}\n"
        "html_baseurl = 'https://other.example.org/'\n"
        "nitpicky = True\n",
        encoding="utf-8",
    )
    (srcdir / "index.md").write_text(page, encoding="utf-8")
    return srcdir


@pytest.mark.parametrize(
    ("extension", "page"), [(True, WITH_EXTENSION), (False, WITHOUT_EXTENSION)], ids=["with", "without"]
)
def test_another_site_links_by_title(
    make_app: MakeApp,
    site: Path,
    tmp_path: Path,
    extension: bool,
    page: str,
) -> None:
    srcdir = other_site(tmp_path / "other", site / "objects.inv", page, extension=extension)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()).splitlines() == []
    links = body_links(Path(app.outdir) / "index.html")
    assert links == {name: EXPECTED[name] for name in links}
    assert len(links) == page.count("\n- ")


def test_another_site_without_the_extension_matches_inv_names_exactly(
    make_app: MakeApp,
    site: Path,
    tmp_path: Path,
) -> None:
    """MyST's ``inv:`` links match names as objects.inv holds them (lowercase keys): the guide says so."""
    page = "# Elsewhere\n\n- write-up: [](inv:portfolio:contrib:contribution#Alpha#101)\n"
    srcdir = other_site(tmp_path / "other", site / "objects.inv", page, extension=False)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()).splitlines() == [
        f"{srcdir / 'index.md'}:3: WARNING: No matches for 'portfolio:contrib:contribution:Alpha#101' "
        "[myst.iref_missing]"
    ]
