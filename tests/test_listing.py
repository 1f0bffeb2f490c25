"""The ``contributions`` listing directive and the generated tag and project pages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from sphinx.util.console import strip_colors

from .conftest import ROOTS, MakeApp, rtd_build
from .htmltools import one
from .htmltools import soup as _soup

TITLES = {"a-1": "Zeta fix", "b-2": "Beta feature", "c-3": "alpha thing", "d-4": "Mu change"}


def _section(soup: BeautifulSoup, section_id: str) -> Tag:
    section = soup.find("section", id=section_id)
    assert isinstance(section, Tag), section_id
    return section


def _listed(section: Tag) -> list[str]:
    """The titles of the listed contributions, in order."""
    return [one(item, ".contrib-title-link").get_text() for item in section.select(".contrib-item")]


@pytest.mark.parametrize(
    ("section_id", "expected"),
    [
        ("default", ["Beta feature", "Zeta fix", "Mu change", "alpha thing"]),  # date: newest first, undated last
        ("cards-by-title", ["alpha thing", "Beta feature", "Mu change", "Zeta fix"]),  # case-insensitive
        ("project-beta", ["Beta feature", "Mu change"]),  # by display name or repository, any case
        ("tag-shared", ["Beta feature", "Zeta fix"]),  # "Shared Tag" and "shared tag" are one tag
        ("status-open", ["Beta feature"]),
        ("latest-two", ["Beta feature", "Zeta fix"]),
        ("by-project", ["Zeta fix", "Beta feature", "Mu change", "alpha thing"]),  # ties: by key
        ("filterable", ["Beta feature", "Zeta fix", "Mu change", "alpha thing"]),
    ],
)
def test_listing_filters_sorts_and_limits(listing_site: Path, section_id: str, expected: list[str]) -> None:
    assert _listed(_section(_soup(listing_site / "index.html"), section_id)) == expected


def test_table_columns(listing_site: Path) -> None:
    table = one(_section(_soup(listing_site / "index.html"), "default"), "table.contrib-table")
    assert [th.get_text(strip=True) for th in table.select("thead th")] == [
        "Project",
        "PR",
        "Contribution",
        "Impact",
        "State",
        "Key metric",
    ]
    first = one(table, "tbody tr")
    cells = [td.get_text(" ", strip=True) for td in first.select("td")]
    assert cells == ["beta", "#2", "Beta feature", "Beta summary.", "open", "Latency: 200 ms → 50 ms (≈4× lower)"]
    assert one(first, ".contrib-pr-link")["href"] == "https://github.com/org/beta/pull/2"
    assert one(first, ".contrib-title-link")["href"] == "b-2.html"
    assert one(first, ".contrib-project")["href"] == "projects/beta.html"
    undated = table.select("tbody tr")[-1]
    assert undated.select("td")[4].get_text(strip=True) == ""  # no state stated: none shown


def test_cards_carry_facets(listing_site: Path) -> None:
    section = _section(_soup(listing_site / "index.html"), "filterable")
    assert section.select_one(".contrib-listing.contrib-filterable > .contrib-cards > .contrib-card")
    item = section.select(".contrib-item")[0]
    expected = {"contrib-card", "contrib-project--beta", "contrib-status--open", "contrib-tag--shared-tag"}
    assert expected <= set(item["class"])
    assert item.select_one(".contrib-card-body .contrib-card-title")
    undated = section.select(".contrib-item")[-1]
    assert "contrib-status--unstated" in undated["class"]
    assert [a["href"] for a in item.select(".contrib-tags a")] == ["tags/shared-tag.html"]


@pytest.mark.parametrize(
    ("given", "overrides", "quiet"),
    [
        ("", {}, True),
        ("", {"contributions_filter_min": 4}, False),
        (" 5", {"contributions_filter_min": 2}, True),
        (" 4", {}, False),
    ],
)
def test_a_short_listing_shows_its_filter_only_when_asked(
    make_app: MakeApp, tmp_path: Path, given: str, overrides: dict[str, int], quiet: bool
) -> None:
    """Four write-ups: below ``contributions_filter_min`` (default 6) or a listing's own ``:filter: N``,
    the listing is marked ``contrib-filter-quiet``: the script shows no controls unless the address asks
    for a filter (``?tag=…``, a tag link's)."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-listing", src)
    index = src / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace(":filter:\n", f":filter:{given}\n"), encoding="utf-8")
    app = make_app("html", srcdir=src, freshenv=True, confoverrides=overrides)
    app.build(force_all=True)
    assert strip_colors(app.warning.getvalue()) == ""
    listing = one(_section(_soup(Path(app.outdir) / "index.html"), "filterable"), ".contrib-listing")
    assert "contrib-filterable" in listing["class"]
    assert ("contrib-filter-quiet" in listing["class"]) is quiet


def test_empty_listing_says_so(listing_site: Path) -> None:
    section = _section(_soup(listing_site / "index.html"), "nothing")
    assert one(section, ".contrib-empty").get_text() == "No contributions match."


def test_tag_and_project_pages(listing_site: Path) -> None:
    tag = _soup(listing_site / "tags/shared-tag.html")
    assert one(tag, "h1").get_text(strip=True).rstrip("¶") == "Tag: Shared Tag"
    assert _listed(tag) == ["Beta feature", "Zeta fix"]
    assert one(tag, ".contrib-title-link")["href"] == "../b-2.html"
    # a project's page: its write-ups as proof rows (the title linking to each, then the impact, else the
    # summary), no cards
    project = _soup(listing_site / "projects/beta.html")
    rows = project.select("ol.contrib-proof > li")
    assert [
        (one(row, ".contrib-title-link").get_text(), one(row, ".contrib-proof-impact").get_text()) for row in rows
    ] == [
        ("Beta feature", "Beta summary."),
        ("Mu change", "Delta summary."),
    ]
    assert project.select(".contrib-card") == []
    assert sorted(p.name for p in (listing_site / "tags").iterdir()) == ["one.html", "shared-tag.html", "two.html"]
    assert sorted(p.name for p in (listing_site / "projects").iterdir()) == ["alpha.html", "beta.html", "gamma.html"]


def test_header_links_to_tag_and_project_pages(listing_site: Path) -> None:
    header = one(_soup(listing_site / "a-1.html"), "#contribution")
    assert one(header, ".contrib-project")["href"] == "projects/alpha.html"
    assert [a["href"] for a in header.select(".contrib-tags a")] == ["tags/shared-tag.html", "tags/one.html"]


def test_a_tag_below_the_page_minimum_links_to_the_filtered_list(make_app: MakeApp, tmp_path: Path) -> None:
    """``contributions_tag_page_min`` (default 2): "Shared Tag" (two write-ups) has its page; "one" and "two"
    (one each) have none, and their links lead to the list (``contributions_index``) filtered by them; the
    list's own links stay on the list (``?tag=…``)."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-listing", src)
    app = make_app("html", srcdir=src, freshenv=True, confoverrides={"contributions_tag_page_min": 2})
    app.build(force_all=True)
    assert strip_colors(app.warning.getvalue()) == ""
    out = Path(app.outdir)
    assert sorted(p.name for p in (out / "tags").glob("*.html")) == ["shared-tag.html"]
    header = one(_soup(out / "a-1.html"), "#contribution")
    assert [a["href"] for a in header.select(".contrib-tags a")] == ["tags/shared-tag.html", "index.html?tag=one"]
    listed = _soup(out / "index.html").select(".contrib-card .contrib-facet-tag-two")
    assert listed and {a["href"] for a in listed} == {"?tag=two"}
    # and a tag page's own cards link the same way
    assert one(_soup(out / "tags/shared-tag.html"), ".contrib-facet-tag-one")["href"] == "../index.html?tag=one"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (":layout: grid", "layout must be one of table, cards, proof, got 'grid'"),
        (":sort: stars", "sort must be one of date, project, title, got 'stars'"),
        (":limit: 0", "limit must be a positive integer, got '0'"),
        (":status: shipped", "status must be one of merged, open, closed, draft; got 'shipped'"),
        (":tag:", "tag must not be empty"),
        (":filter: 0", "filter must be a positive integer, got '0'"),
    ],
)
def test_bad_listing_option_warns_and_shows_the_full_table(
    make_app: MakeApp, tmp_path: Path, options: str, message: str
) -> None:
    (tmp_path / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
    )
    (tmp_path / "index.md").write_text(f"# Listing\n\n:::{{contributions}}\n{options}\n:::\n")
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    warnings = app.warning.getvalue()
    assert (
        f"index.md:3: WARNING: contributions listing: {message}; showing the full table [contrib.bad_listing]"
        in warnings
    )


def test_rebuild_with_nothing_changed_still_writes_generated_pages(rootdir: Path, tmp_path: Path) -> None:
    """A build that writes no document still renders the tag and project pages (regression: the
    HTML writer needed figure numbers that only exist while a document is written)."""
    shutil.copytree(rootdir / "test-listing", tmp_path / "src")
    out = tmp_path / "build" / "html"
    assert rtd_build(tmp_path / "src", out).returncode == 0
    (out / "tags/shared-tag.html").unlink()
    again = rtd_build(tmp_path / "src", out)
    assert again.returncode == 0, again.stderr
    assert "0 source files that are out of date" in again.stdout
    assert _listed(_soup(out / "tags/shared-tag.html")) == ["Beta feature", "Zeta fix"]


def test_site_templates_override_the_extensions(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """A site's ``templates_path`` comes before the extension's templates: its
    ``contributions/listing_cards.html`` draws every cards listing (the table keeps the extension's),
    its ``contributions/generated.html`` every tag and project page."""
    shutil.copytree(rootdir / "test-templates", tmp_path / "src")
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    out = Path(app.outdir)
    index = _soup(out / "index.html")
    cards = _section(index, "cards")
    assert [li.get_text() for li in cards.select("ul.site-cards li")] == ["Zeta fix (alpha)"]
    assert one(cards, "ul.site-cards a")["href"] == "a-1.html"
    assert not cards.select(".contrib-card")
    assert _listed(_section(index, "table")) == ["Zeta fix"]  # listing_table.html is the extension's
    tag = _soup(out / "tags/shared-tag.html")
    assert one(tag, "p.site-intro").get_text() == "Everything filed under Shared Tag (1)."
    assert one(tag, "h1").get_text() == "Tag: Shared Tag"
    assert one(tag, "ul.site-cards a")["href"] == "../a-1.html"
    assert one(tag, "title").get_text().startswith("Tag: Shared Tag")
    assert one(_soup(out / "projects/alpha.html"), "p.site-intro").get_text() == "Everything filed under alpha (1)."


def test_generated_pages_carry_opengraph_title_and_description(listing_site: Path) -> None:
    page = (listing_site / "tags" / "shared-tag.html").read_text(encoding="utf-8")
    assert '<meta property="og:title" content="Tag: Shared Tag" />' in page
    assert '<meta property="og:description" content="Tag: Shared Tag: 2 contributions." />' in page
    assert '<meta name="description" content="Tag: Shared Tag: 2 contributions." />' in page
    assert '<meta property="og:url" content="https://example.org/portfolio/tags/shared-tag.html" />' in page
