"""The ``projects`` listing: a section per project with a write-up, from the records, with the intro the
page gives for it; a project without an intro still gets its section."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from .conftest import ROOTS, copy_site, rtd_build
from .htmltools import attr, one, soup

SGLANG_PAGE = """\
# A write-up for a project the site has never shown

:::{contribution}
:repo: sgl-project/sglang
:pr: 5555
:project: SGLang
:summary: Summary of the SGLang write-up.
:::

:::{problem}
Problem text.
:::

:::{root-cause}
Cause text.
:::

:::{fix}
Fix text.
:::

:::{verification}
Verification text.
:::
"""


def _sections(html: Path) -> list[tuple[str, str, list[str]]]:
    """(id, heading, write-up titles) of each project section of a page."""
    return [
        (
            attr(section, "id"),
            one(section, "h2").get_text().rstrip("¶"),
            [a.get_text() for a in section.select(".contrib-title-link")],
        )
        for section in soup(html).select("section.contrib-project-section")
    ]


def test_open_source_page_lists_every_project_from_the_records(site: Path) -> None:
    assert _sections(site / "open-source/index.html") == [
        ("project-gamma", "Example · gamma", ["Gamma option on the fast path"]),
        ("project-beta", "Example · beta", ["Fix the beta decoder mask"]),
        ("project-alpha", "Example · Alpha", ["Add per-layer tables to the alpha loader"]),
    ]


def test_a_write_up_for_a_new_project_gets_its_section_with_no_other_file_edited(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    out = tmp_path / "build" / "html"
    assert rtd_build(src, out).returncode == 0
    (src / "contributions" / "sglang-5555.md").write_text(SGLANG_PAGE, encoding="utf-8")
    done = rtd_build(src, out)  # incremental, as `make html` after adding the file
    assert done.returncode == 0, done.stderr
    sections = _sections(out / "open-source/index.html")
    # projects with an intro first, in the order written; the new one (no intro) after them, its name as heading
    assert [s[0] for s in sections] == [
        "project-gamma",
        "project-beta",
        "project-alpha",
        "project-sglang",
    ]
    assert sections[-1][1:] == ("SGLang", ["A write-up for a project the site has never shown"])


def _build(tmp_path: Path, pages: dict[str, str]) -> tuple[str, Path]:
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-listing", src)
    for name, text in pages.items():
        (src / name).write_text(text, encoding="utf-8")
    app = SphinxTestApp("html", srcdir=src, freshenv=True, status=StringIO(), warning=StringIO())
    try:
        app.build(force_all=True)
    finally:
        app.cleanup()
    return strip_colors(app.warning.getvalue()), Path(app.outdir)


OVERVIEW = """\
# Projects

::::{projects}
:::{project} Beta
:heading: The beta project
Beta's intro.
:::

:::{project} nowhere
Intro of a project without write-ups.
:::

A stray paragraph.
::::

:::{project} alpha
An intro outside any listing.
:::
"""


def test_projects_listing_orders_intros_first_and_warns_about_what_it_cannot_show(tmp_path: Path) -> None:
    warnings, out = _build(tmp_path, {"overview.md": "---\norphan: true\n---\n" + OVERVIEW})
    assert warnings.splitlines() == [
        f"{tmp_path}/src/overview.md:6: WARNING: a 'projects' listing holds only 'project' intros; "
        "'A stray paragraph.' is not shown [contrib.bad_listing]",
        f"{tmp_path}/src/overview.md:19: WARNING: project intro 'alpha' is outside a 'projects' listing "
        "and is not shown [contrib.unknown_project]",
        # line 12 in the file: MyST 5.2 numbers a directive nested in another one line late (as the
        # xfail in test_warnings.py records); this test shows it when MyST fixes it
        f"{tmp_path}/src/overview.md:13: WARNING: project intro 'nowhere' names no project with a write-up; "
        "it is not shown [contrib.unknown_project]",
    ]
    sections = _sections(out / "overview.html")
    assert [(s[0], s[1]) for s in sections] == [
        ("project-beta", "The beta project"),  # "beta" and "Beta": one project, as its page has it
        ("project-alpha", "alpha"),
        ("project-gamma", "gamma"),
    ]
    assert sections[0][2] == ["Beta feature", "Mu change"]  # newest first
    page = (out / "overview.html").read_text(encoding="utf-8")
    assert "Beta&#8217;s intro." in page or "Beta’s intro." in page
    assert "A stray paragraph." not in page and "without write-ups" not in page


def test_a_project_of_one_write_up_gets_no_page_and_its_links_lead_to_its_section(tmp_path: Path) -> None:
    """``contributions_project_page_min`` (2 by default): each project of the portfolio has one write-up,
    so no page of one card (there were three, repeating the overview); the header's, the breadcrumb's
    and the listings' project links lead to the project's section of the overview page instead."""
    out = tmp_path / "html"
    done = rtd_build(copy_site(tmp_path / "src"), out)
    assert done.returncode == 0, done.stderr
    assert not (out / "projects").exists()
    write_up = soup(out / "contributions/beta-202.html")
    assert [attr(a, "href") for a in write_up.select("article a.contrib-project")] == [
        "../open-source/index.html#project-beta",  # the breadcrumb
        "../open-source/index.html#project-beta",  # the header
    ]
    listed = soup(out / "contributions/index.html").select("article a.contrib-project")
    assert sorted({attr(a, "href") for a in listed}) == [
        "../open-source/index.html#project-alpha",
        "../open-source/index.html#project-beta",
        "../open-source/index.html#project-gamma",
    ]
    assert soup(out / "open-source/index.html").select_one("section#project-beta") is not None


def test_no_row_of_a_project_page_links_to_the_page_itself(tmp_path: Path) -> None:
    """With a page per project, the page's own rows name the project as text: the card's project link
    pointed at the page itself (``href="#"``)."""
    out = tmp_path / "html"
    done = rtd_build(copy_site(tmp_path / "src"), out, "-D", "contributions_project_page_min=1")
    assert done.returncode == 0, done.stderr
    page = soup(out / "projects/beta.html")
    rows = page.select("article ol.contrib-proof > li")
    assert len(rows) == 1
    assert rows[0].select("a.contrib-project") == [] and rows[0].select(".contrib-project")
    assert [attr(a, "href") for a in page.select("article a") if attr(a, "href") == "#"] == []
