"""Write-ups show where they sit: the list of contributions marked current in the site navigation,
a way back to the list and the project, and previous/next links to the neighbouring write-ups in the
list's order — without a navigation entry per write-up."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

from .html import one, soup

#: the order of the contributions list on the real site (`:sort: project`, then by key)
ORDER = [
    "contributions/ctranslate2-2103",
    "contributions/transformers-49135",
    "contributions/vllm-metal-1182",
]


def _soup(site: Path, docname: str) -> BeautifulSoup:
    return soup(site / f"{docname}.html")


def _title(site: Path, docname: str) -> str:
    return one(_soup(site, docname), "h1").get_text().rstrip("¶")


def test_each_write_up_marks_the_list_current_and_links_its_neighbours(site: Path) -> None:
    for i, docname in enumerate(ORDER):
        page = _soup(site, docname)
        current = page.select(".sidebar-tree li.current > a.current")
        assert [a.get_text() for a in current] == ["Contributions"], docname
        assert current[0]["href"] == "index.html"
        # one entry per profile page in the navigation, none per write-up
        assert len(page.select(".sidebar-tree li")) == 3
        prev, nxt = page.select_one("a.prev-page"), page.select_one("a.next-page")
        expected_prev = ORDER[i - 1] if i else "contributions/index"
        assert prev is not None and prev["href"] == Path(expected_prev).name + ".html", docname
        assert one(prev, ".title").get_text(strip=True) == _title(site, expected_prev)
        if i + 1 < len(ORDER):
            assert nxt is not None and nxt["href"] == Path(ORDER[i + 1]).name + ".html"
            assert one(nxt, ".title").get_text(strip=True) == _title(site, ORDER[i + 1])
        else:
            assert nxt is None
        trail = one(page, ".contrib-breadcrumb")
        project = one(page, ".contrib-header-meta .contrib-project")
        assert [(a.get_text(), a["href"]) for a in trail.select("a")] == [
            ("Contributions", "index.html"),
            (project.get_text(), project["href"]),
        ]


def test_profile_pages_keep_the_theme_navigation(site: Path) -> None:
    page = _soup(site, "about/index")
    assert [a.get_text() for a in page.select(".sidebar-tree a.current")] == ["About"]
    assert page.select_one(".contrib-breadcrumb") is None
