"""Write-ups show where they sit: the list of contributions marked current in the site navigation,
a way back to the list and the project, and previous/next links to the neighbouring write-ups in the
list's order — without a navigation entry per write-up."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

#: the order of the contributions list on the real site (`:sort: project`, then by key)
ORDER = [
    "contributions/ctranslate2-2103",
    "contributions/transformers-49135",
    "contributions/vllm-metal-1182",
]


def _soup(site: Path, docname: str) -> BeautifulSoup:
    return BeautifulSoup((site / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")


def _title(site: Path, docname: str) -> str:
    return _soup(site, docname).find("h1").get_text().rstrip("¶")


def test_each_write_up_marks_the_list_current_and_links_its_neighbours(site: Path) -> None:
    for i, docname in enumerate(ORDER):
        soup = _soup(site, docname)
        current = soup.select(".sidebar-tree li.current > a.current")
        assert [a.get_text() for a in current] == ["Contributions"], docname
        assert current[0]["href"] == "index.html"
        # one entry per profile page in the navigation, none per write-up
        assert len(soup.select(".sidebar-tree li")) == 3
        prev, nxt = soup.select_one("a.prev-page"), soup.select_one("a.next-page")
        expected_prev = ORDER[i - 1] if i else "contributions/index"
        assert prev is not None and prev["href"] == Path(expected_prev).name + ".html", docname
        assert prev.select_one(".title").get_text(strip=True) == _title(site, expected_prev)
        if i + 1 < len(ORDER):
            assert nxt is not None and nxt["href"] == Path(ORDER[i + 1]).name + ".html"
            assert nxt.select_one(".title").get_text(strip=True) == _title(site, ORDER[i + 1])
        else:
            assert nxt is None
        trail = soup.select_one(".contrib-breadcrumb")
        assert [(a.get_text(), a["href"]) for a in trail.select("a")] == [
            ("Contributions", "index.html"),
            (
                soup.select_one(".contrib-header-meta .contrib-project").get_text(),
                soup.select_one(".contrib-header-meta .contrib-project")["href"],
            ),
        ]


def test_profile_pages_keep_the_theme_navigation(site: Path) -> None:
    soup = _soup(site, "about/index")
    assert [a.get_text() for a in soup.select(".sidebar-tree a.current")] == ["About"]
    assert soup.select_one(".contrib-breadcrumb") is None
