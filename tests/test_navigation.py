"""Write-ups show where they sit: the list of contributions marked current in the site navigation,
a way back to the list and the project, and previous/next links to the neighbouring write-ups in the
list's order — without a navigation entry per write-up."""

from __future__ import annotations

import json
import shutil
from importlib.metadata import version
from pathlib import Path

import sphinx
from bs4 import BeautifulSoup

from .conftest import PORTFOLIO, PROJECT_PAGES, ROOTS, MakeApp, copy_site, rtd_build
from .htmltools import one, soup

#: the order of the contributions list on the portfolio (`:sort: project`, then by key)
ORDER = [
    "contributions/alpha-101",
    "contributions/beta-202",
    "contributions/gamma-303",
]


def _soup(site: Path, docname: str) -> BeautifulSoup:
    return soup(site / f"{docname}.html")


def _title(site: Path, docname: str) -> str:
    return one(_soup(site, docname), "h1").get_text().rstrip("¶")


def test_each_write_up_marks_the_list_current_and_links_its_neighbours(site: Path) -> None:
    for i, docname in enumerate(ORDER):
        page = _soup(site, docname)
        current = page.select(".sidebar-tree li.current > a.current")
        assert [a.get_text() for a in current] == ["Contributions", _title(site, docname)], docname
        assert current[0]["href"] == "index.html"
        assert current[1]["aria-current"] == "page" and current[1]["href"] == "#"
        # one entry per profile page, and the write-ups (fewer than the limit) under Contributions
        assert len(page.select(".sidebar-tree li.toctree-l1")) == 3
        assert [a["href"] for a in page.select(".sidebar-tree ul.contrib-nav a")] == [
            "#" if name == docname else Path(name).name + ".html" for name in ORDER
        ]
        prev, nxt = page.select_one("a.prev-page"), page.select_one("a.next-page")
        if i:  # the write-up before; the first has none (its "Previous" was "Contributions": the breadcrumb's
            # and the end's way back say that)
            assert prev is not None and prev["href"] == Path(ORDER[i - 1]).name + ".html", docname
            assert one(prev, ".title").get_text(strip=True) == _title(site, ORDER[i - 1])
        else:
            assert prev is None, docname
        if i + 1 < len(ORDER):
            assert nxt is not None and nxt["href"] == Path(ORDER[i + 1]).name + ".html"
            assert one(nxt, ".title").get_text(strip=True) == _title(site, ORDER[i + 1])
        else:
            assert nxt is None
        # the breadcrumb above the title; at the end, the pull request again and the way back to the list
        heading = one(page, "h1")
        assert heading.find_previous_sibling("p", class_="contrib-breadcrumb") is not None
        end = one(page, "nav.contrib-end")
        assert [a["href"] for a in end.select("a.contrib-button-primary")] == [
            one(page, ".contrib-header a.contrib-button-primary")["href"]
        ]
        assert [a["href"] for a in end.select(".contrib-back a")] == ["index.html"]
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


def test_every_page_lists_the_write_ups_under_contributions(site: Path) -> None:
    for name in ("index", "about/index", "open-source/index", "tags/training", "projects/beta"):
        page = _soup(site, name)
        entry = one(page, ".sidebar-tree ul.contrib-nav").parent
        assert entry.select_one("a").get_text() == "Contributions"  # type: ignore[union-attr]
        assert len(page.select(".sidebar-tree ul.contrib-nav li")) == len(ORDER), name
        assert page.select(".sidebar-tree ul.contrib-nav a.current") == [], name


def test_the_home_page_has_no_pager_and_no_theme_credit(site: Path) -> None:
    home = _soup(site, "index")
    assert home.select(".related-pages a") == []
    footer = one(home, "footer").get_text(" ", strip=True)
    assert "Furo" not in footer and "pradyunsg" not in footer
    assert "Copyright © Ada Tester" in footer
    assert _soup(site, "about/index").select(".related-pages a")  # other pages keep previous/next


def test_a_project_page_marks_its_place_and_links_upstream(site: Path) -> None:
    page = _soup(site, "projects/beta")
    assert [a.get_text() for a in page.select(".sidebar-tree li.current > a.current")] == ["Open source"]
    trail = one(page, ".contrib-breadcrumb")
    assert [(a.get_text(), a["href"]) for a in trail.select("a")] == [
        ("Open source", "../open-source/index.html#project-beta")
    ]
    assert one(page, "h1").find_previous_sibling("p", class_="contrib-breadcrumb") is not None
    repo = one(page, ".contrib-project-repo a")
    assert (repo.get_text(), repo["href"]) == (
        "github.com/example/beta",
        "https://github.com/example/beta",
    )
    # the overview's heading and one-liner for the project, as the open-source page shows them
    overview = one(_soup(site, "open-source/index"), "section#project-beta")
    intro = one(page, ".contrib-project-intro").get_text(" ", strip=True)
    assert one(page, ".contrib-project-heading").get_text() == one(overview, "h2").get_text().rstrip("¶")
    assert intro and intro in overview.get_text(" ", strip=True)
    assert page.select(".contrib-project-intro a.headerlink") == []


def test_the_sidebar_limit_bounds_the_links_on_every_page(tmp_path: Path) -> None:
    """``contributions_sidebar_limit`` write-ups, then a link to all of them; a write-up further down the
    list is shown after them, marked."""
    out = tmp_path / "html"
    done = rtd_build(PORTFOLIO, out, "-D", "contributions_sidebar_limit=1")
    assert done.returncode == 0, done.stderr
    about = soup(out / "about/index.html")
    assert [a.get_text() for a in about.select(".sidebar-tree ul.contrib-nav a")] == [
        _title(out, ORDER[0]),
        "All 3 contributions",
    ]
    last = soup(out / f"{ORDER[-1]}.html")
    assert [(a.get_text(), "current" in a["class"]) for a in last.select(".sidebar-tree ul.contrib-nav a")] == [
        (_title(out, ORDER[0]), False),
        (_title(out, ORDER[-1]), True),
        ("All 3 contributions", False),
    ]


def test_a_write_up_past_the_sidebar_limit_changes_the_count_on_every_page(tmp_path: Path) -> None:
    """A write-up added below the limit's first ones leaves the links as they are, and "All 3" becomes
    "All 4" on every page, in an incremental build (the sidebar's digest holds the count where there is a
    limit: ``make mutate``'s ``sidebar-count``, a survivor of the sampled mutation run)."""
    src = copy_site(tmp_path / "src")
    out = tmp_path / "html"
    assert rtd_build(src, out, "-D", "contributions_sidebar_limit=1").returncode == 0
    (src / "contributions" / "beta-7.md").write_text(
        "# An older write-up\n\n:::{contribution}\n:repo: example/beta\n:pr: 7\n:date: 2000-01-01\n"
        ":summary: Summary of the older write-up.\n:::\n\n:::{problem}\nProblem text.\n:::\n\n"
        ":::{root-cause}\nCause text.\n:::\n\n:::{fix}\nFix text.\n:::\n\n:::{verification}\nVerification text.\n:::\n",
        encoding="utf-8",
    )
    done = rtd_build(src, out, "-D", "contributions_sidebar_limit=1")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    for name in ("about/index", "index", *ORDER):
        links = [a.get_text() for a in soup(out / f"{name}.html").select(".sidebar-tree ul.contrib-nav a")]
        assert links[0] == _title(out, ORDER[0]) and links[-1] == "All 4 contributions", (name, links)


def test_a_changed_title_reaches_every_sidebar_on_an_incremental_build(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    out = tmp_path / "html"
    assert rtd_build(src, out, *PROJECT_PAGES).returncode == 0
    page = src / "contributions" / "gamma-303.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("# Gamma option", "# Gamma options", 1),
        encoding="utf-8",
    )
    done = rtd_build(src, out, *PROJECT_PAGES)
    assert done.returncode == 0, done.stderr
    for name in ("index", "about/index", "tags/training", "projects/beta", "contributions/alpha-101"):
        titles = [a.get_text() for a in soup(out / f"{name}.html").select(".sidebar-tree ul.contrib-nav a")]
        assert "Gamma options on the fast path" in titles, (name, titles)


def test_a_title_with_markup_characters_is_text_in_every_sidebar(tmp_path: Path) -> None:
    """A write-up's title is text wherever the sidebar shows it: ``<`` and ``&`` from a code span in the
    heading are escaped once, never markup and never ``&amp;amp;``."""
    src = copy_site(tmp_path / "src")
    page = src / "contributions" / "gamma-303.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("# Gamma option", "# Gamma `<option>` & `&amp;`", 1), encoding="utf-8"
    )
    out = tmp_path / "html"
    done = rtd_build(src, out, *PROJECT_PAGES)
    assert done.returncode == 0, done.stderr
    title = "Gamma <option> & &amp; on the fast path"
    for name in ("index", "about/index", "contributions/alpha-101", "projects/beta"):
        links = soup(out / f"{name}.html").select(".sidebar-tree ul.contrib-nav a")
        assert title in [a.get_text() for a in links], name
        assert not soup(out / f"{name}.html").select(".sidebar-tree ul.contrib-nav option"), name


def _sidebar(out: Path, name: str) -> list[tuple[str, bool]]:
    """(text, marked current) of each link in a page's sidebar, in order."""
    return [(a.get_text(), "current" in a["class"]) for a in soup(out / f"{name}.html").select(".sidebar-tree a")]


def test_an_entry_with_pages_below_it_is_marked_and_lists_the_write_ups(tmp_path: Path) -> None:
    """furo writes the list's entry as ``toctree-l1 has-children`` when it has a page of its own below it,
    and Sphinx as ``current current-page`` with ``href="#"`` on the list itself: both are still found."""
    out = tmp_path / "html"
    done = rtd_build(ROOTS / "test-navigation", out)
    assert done.returncode == 0, done.stderr
    numpy, pandas = (
        ("Fix the overflow of a reduction over a very long axis of a memory-mapped array", False),
        (
            "Add a keyword to read_csv for strict column types",
            False,
        ),
    )
    method, about = ("How these are written", False), ("About", False)
    assert _sidebar(out, "index") == [("Contributions", False), numpy, pandas, method, about]
    assert _sidebar(out, "contributions/index") == [("Contributions", True), numpy, pandas, method, about]
    assert _sidebar(out, "contributions/numpy-27001") == [
        ("Contributions", True),
        (numpy[0], True),
        pandas,
        method,
        about,
    ]
    assert _sidebar(out, "tags/io") == [("Contributions", True), numpy, pandas, method, about]
    assert _sidebar(out, "about") == [("Contributions", False), numpy, pandas, method, ("About", True)]


def test_a_navigation_of_another_shape_is_said_not_left_unmarked(tmp_path: Path) -> None:
    """A furo release that writes its entries another way (here: classes renamed between furo's handler
    and the extension's) is a [contrib.compat] warning naming furo's version, once, and fails the strict
    build; before, the sidebar silently lost the current entry and the write-ups."""
    out = tmp_path / "html"
    done = rtd_build(ROOTS / "test-navigation", out, "-D", "nav_shape=renamed")
    assert done.returncode == 1
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert warnings == [
        f"WARNING: furo {version('furo')} has no top-level navigation entries of the shape "
        '<li class="toctree-l1 …"><a class="… reference internal" href="…">: the sidebar neither marks nor extends '
        "the entry of the list of contributions ('contributions/index') (sphinx-contributions needs an update) "
        "[contrib.compat]"
    ]


def _search_terms(out: Path) -> dict[str, set[str]]:
    """The words Sphinx's search finds each page by (stemmed), from ``searchindex.js``."""
    text = (out / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    found: dict[str, set[str]] = {}
    for term, pages in index["terms"].items():
        for page in [pages] if isinstance(pages, int) else pages:
            found.setdefault(index["docnames"][page], set()).add(term)
    return found


def test_the_way_back_is_not_searched(make_app: MakeApp, tmp_path: Path) -> None:
    """The breadcrumb ("Contributions › project") and the end of a write-up (its actions again, "All
    contributions") are navigation, the same on every write-up: Sphinx's search leaves them out (before,
    every write-up was found by "all" and "contributions"); the header, its pull request included, is
    searched, and so is every figure of Verification (its label, values and change: "throughput" is the
    second figure's, which the header no longer shows); a value is its own word, not glued to the label before
    it (the index held "sum3")."""
    srcdir = tmp_path / "src"
    shutil.copytree(ROOTS / "test-navigation", srcdir)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    # Sphinx 9 indexes no numbers and fewer stop words (its own tokenizer and stemmer, not the extension's)
    assert sorted(_search_terms(Path(app.outdir))["contributions/numpy-27001"]) == ([
        "0e", "2e", "A", "An", "The", "around", "axe", "bit", "correct", "element", "error", "everi", "file",
        "gb", "higher", "index", "integ", "issu", "known", "larg", "limit", "longer", "lower", "mean",
        "merg", "numer", "numpi", "platform", "pull", "relat", "request", "right", "s", "scope", "sum", "tag",
        "throughput", "wrap",
    ] if sphinx.version_info >= (9, 0) else [
        "", "0", "0e", "1", "10", "10⁷", "2", "26990", "27001", "2e", "2³¹", "2⁶³", "3", "32", "4", "5", "64", "8",
        "9", "A", "The", "again", "an", "ar", "around", "ax", "bit", "correct", "element", "error", "everi", "file",
        "gb", "higher", "i", "index", "integ", "issu", "known", "larg", "limit", "longer", "lower", "mean", "merg",
        "more", "numer", "numpi", "out", "platform", "pull", "rel", "request", "right", "scope", "so", "sum", "tag",
        "than", "throughput", "wa", "wrap",
    ])  # fmt: skip
