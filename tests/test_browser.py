"""The built site in a real browser: Chromium driven by Playwright over a local HTTP server.

Every page type loads without console errors, failed requests or anything from another host; Sphinx's
search finds the write-ups; the faceted filter works by mouse, keyboard and URL, and degrades to the full
list without JavaScript; light, dark and a 390-px phone viewport render without horizontal scrolling;
deep links land on their section.

Chromium and the server are :mod:`tests.chromium`'s.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from .chromium import PREFIX, SCHEMES, SCREENSHOTS, SIZES, chromium, failed_request, serve
from .colours import contrast
from .conftest import rtd_build

pytestmark = pytest.mark.browser

#: page type -> path under PREFIX; the 404 page is reached through a missing URL, as a reader would
PAGES = {
    "home": "index.html",
    "contribution": "contributions/beta-202.html",
    "listing": "contributions/index.html",
    "open-source": "open-source/index.html",
    "tag": "tags/training.html",
    "project": "projects/beta.html",
    "search": "search.html?q=decoder",
    "404": "no/such/page.html",
}
#: Sphinx's search fetches every hit's page for its summary: slow on two shared cores
SEARCH_TIMEOUT_MS = 30_000
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    """The built site, served. Module-scoped, like ``browser``: no server thread or Playwright driver
    outlives the browser tests, so later parallel builds fork cleanly."""
    with serve(site) as url:
        yield url


# -- the browser ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as found:
        yield found


@dataclass
class Watch:
    """What went wrong while a page loaded: console errors, page errors, failed or refused requests."""

    expected_404: str = ""
    console: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.console.append(f"pageerror: {error}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)

    def _request_failed(self, request: Any) -> None:
        if (line := failed_request(request)) is not None:
            self.failed.append(line)

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        if self.expected_404 and message.location.get("url") == self.expected_404:
            return  # the 404 page itself, reached on purpose
        self.console.append(f"{message.text} ({message.location.get('url')})")

    def _response(self, response: Any) -> None:
        if response.status >= 400 and response.url != self.expected_404:
            self.failed.append(f"{response.url}: HTTP {response.status}")

    def problems(self) -> dict[str, list[str]]:
        return {name: items for name, items in vars(self).items() if isinstance(items, list) and items}


def new_context(browser: Any, *, scheme: str = "light", **options: Any) -> tuple[Any, Watch]:
    """A fresh context in ``scheme`` where only 127.0.0.1 may be reached: any other host is refused
    and recorded."""
    watch = Watch()
    context = browser.new_context(color_scheme=scheme, **options)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(f"try {{ localStorage.setItem('theme', '{scheme}'); }} catch (e) {{}}")

    def gate(route: Any) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            watch.foreign.append(route.request.url)
            route.abort("blockedbyclient")

    context.route("**/*", gate)
    context.on("page", watch.attach)
    return context, watch


def wait_for_search(page: Any) -> None:
    page.wait_for_function(
        "() => (document.querySelector('#search-results .search-summary') || {}).textContent"
        "?.includes('Search finished')",
        timeout=SEARCH_TIMEOUT_MS,
    )


def open_page(context: Any, watch: Watch, url: str) -> Any:
    page = context.new_page()
    if "/no/such/" in url:
        watch.expected_404 = url
    response = page.goto(url, wait_until="load")
    assert response is not None
    if "search.html" in url:
        wait_for_search(page)
    page.wait_for_load_state("networkidle")
    return page


@pytest.fixture(scope="session")
def contributions(site: Path) -> list[dict[str, Any]]:
    data: dict[str, list[dict[str, Any]]] = json.loads((site / "contributions.json").read_text(encoding="utf-8"))
    return data["contributions"]


# -- every page type loads cleanly ----------------------------------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(PAGES))
def test_page_loads_without_errors_and_stays_local(browser: Any, base_url: str, name: str, scheme: str) -> None:
    context, watch = new_context(browser, scheme=scheme)
    try:
        page = open_page(context, watch, base_url + PAGES[name])
        assert page.evaluate("document.body.dataset.theme") == scheme
        assert page.locator("article[role=main]").is_visible()
        if name == "404":
            assert page.evaluate("document.title").startswith("Page not found")
            # absolute links under the canonical path: the stylesheet really applied
            assert page.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    finally:
        context.close()
    assert watch.problems() == {}


# -- search ---------------------------------------------------------------------------------------------

SEARCHES = [
    # query, the page that must be found, whether it must be the first result
    ("202", "contributions/beta-202.html", True),
    ("beta#202", "contributions/beta-202.html", True),
    ("Alpha#101", "contributions/alpha-101.html", True),
    ("decoder", "contributions/beta-202.html", False),
    ("future", "contributions/beta-202.html", False),
    ("training", "contributions/beta-202.html", False),
]


@pytest.mark.parametrize(("query", "expected", "first"), SEARCHES)
def test_search_finds_the_write_up(browser: Any, base_url: str, query: str, expected: str, first: bool) -> None:
    context, watch = new_context(browser)
    try:
        page = open_page(context, watch, f"{base_url}search.html?q={quote(query)}")
        hrefs = page.eval_on_selector_all("#search-results ul.search > li > a", "links => links.map(a => a.href)")
    finally:
        context.close()
    pages = [urlsplit(href).path.removeprefix(PREFIX) for href in hrefs]
    assert expected in pages, f"{query!r} -> {pages}"
    if first:
        assert pages[0] == expected, f"{query!r} -> {pages}"
    assert watch.problems() == {}


#: each hit's class, title, address, the " (type, in page)" Sphinx adds to an object hit, and its summary
HITS = """() => Array.from(document.querySelectorAll('#search-results ul.search > li')).map((li) => ({
  kind: li.className, title: li.querySelector('a').textContent,
  path: new URL(li.querySelector('a').href).pathname, hash: new URL(li.querySelector('a').href).hash,
  descr: li.querySelector(':scope > span') ? li.querySelector(':scope > span').textContent : null,
  snippet: li.querySelector('p.context') ? li.querySelector('p.context').textContent.split(/\\s+/).join(' ') : null,
}))"""


def typed_search(browser: Any, base_url: str, size: str, query: str) -> tuple[list[dict[str, Any]], Watch]:
    """``query`` typed into the search page's box (the page's own on a phone, the sidebar's on a laptop)."""
    context, watch = new_context(browser, viewport=SIZES[size])
    try:
        page = context.new_page()
        page.goto(base_url + "search.html", wait_until="networkidle")  # no query yet: open_page waits for one
        box = page.locator("article input[name=q]" if size == "phone" else "input.sidebar-search")
        box.fill(query)
        box.press("Enter")
        wait_for_search(page)
        page.wait_for_load_state("networkidle")
        page.wait_for_function(  # every page hit's summary fetched
            "() => Array.from(document.querySelectorAll('#search-results ul.search > li'))"
            ".every((li) => li.querySelector('p.context, :scope > span'))"
        )
        hits: list[dict[str, Any]] = page.evaluate(HITS)
        page.screenshot(path=SCREENSHOTS / f"search-{quote(query, safe='')}-{size}.png")
    finally:
        context.close()
    return hits, watch


def _words(site: Path, page: str, selector: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")
    for mark in soup.select(".headerlink"):  # a heading's "¶"
        mark.decompose()
    found = soup.select_one(selector)
    assert found is not None, (page, selector)
    return " ".join(found.get_text(" ").split())


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("query", ["202", "beta#202"])
def test_a_write_up_found_by_its_key_is_its_page_in_its_own_words(
    browser: Any, base_url: str, site: Path, size: str, query: str
) -> None:
    """The contrib domain's object was the first hit, "beta#202 (Upstream contribution, in Fix …)" with no
    summary. Now it is the write-up's page, once: its title, and a summary that starts with its own summary
    (the page's heading, the way back and the header's project line left out), at the object's rank."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    hits, watch = typed_search(browser, base_url, size, query)
    page = "contributions/beta-202.html"
    first = hits[0]
    assert (first["kind"], first["title"], first["path"], first["hash"], first["descr"]) == (
        "kind-text",
        _words(site, page, "article h1"),
        PREFIX + page,
        "",
        None,
    )
    assert first["snippet"].startswith(_words(site, page, "#contribution .contrib-summary") + " ")
    assert not first["snippet"].startswith(("...", first["title"]))
    assert [hit["path"] for hit in hits].count(PREFIX + page) == 1
    assert watch.problems() == {}


@pytest.mark.parametrize("size", list(SIZES))
def test_search_summaries_keep_a_figures_values_apart_from_its_words(
    browser: Any, base_url: str, site: Path, size: str
) -> None:
    """A figure's label and values sit in elements side by side: the page's text read "drift~1.03e-1", and
    its chart's labels "beforeafter10−6…"; now the label, each value and the figure are words of their own,
    and the chart's drawing is not in the summary."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    hits, watch = typed_search(browser, base_url, size, "drift")
    snippets = {hit["path"]: hit["snippet"] for hit in hits}
    page = "contributions/beta-202.html"
    label = _words(site, page, "#contribution .contrib-stat-label")
    values = _words(site, page, "#contribution .contrib-stat-values")
    assert f"{label} {values}" in snippets[PREFIX + page]
    text = _words(site, page, "article[role=main]")
    assert f"{label} {values}" in text  # the page's text itself: whitespace between the elements
    figure = _words(site, page, "figure.contrib-metric")
    assert figure.startswith(f"{label} before ")
    assert [s for s in snippets.values() if "beforeafter" in s or re.search(r"[a-z]~[0-9]", s)] == []
    assert watch.problems() == {}


# -- the faceted filter ---------------------------------------------------------------------------------


def visible_items(page: Any) -> list[str]:
    """Titles of the listing's items the reader can see."""
    titles: list[str] = page.eval_on_selector_all(
        ".contrib-filterable .contrib-item",
        "items => items.filter(i => i.offsetParent !== null)"
        ".map(i => i.querySelector('.contrib-title-link').textContent.trim())",
    )
    return titles


def search(page: Any) -> str:
    """The address's query, read in the page (``page.url`` follows pushState only asynchronously)."""
    query: str = page.evaluate("location.search")
    return query


def items_with(page: Any, css_class: str) -> list[str]:
    titles: list[str] = page.eval_on_selector_all(
        f".contrib-filterable .contrib-item.{css_class} .contrib-title-link",
        "links => links.map(a => a.textContent.trim())",
    )
    return titles


def test_filter_by_click_url_reload_and_reset(browser: Any, base_url: str, contributions: list[dict[str, Any]]) -> None:
    context, watch = new_context(browser)
    try:
        page = open_page(context, watch, base_url + "contributions/index.html")
        everything = visible_items(page)
        assert len(everything) == len(contributions)
        training = items_with(page, "contrib-tag--training")
        assert 0 < len(training) < len(everything)

        page.click(".contrib-facets button[data-facet=tag][data-value=training]")
        assert visible_items(page) == training
        assert "tag=training" in search(page)
        assert page.get_attribute("button[data-facet=tag][data-value=training]", "aria-pressed") == "true"
        assert f"Showing {len(training)} of {len(everything)}" in page.inner_text(".contrib-facet-status")

        page.reload(wait_until="load")
        assert visible_items(page) == training, "reloading keeps the filter from the URL"
        assert page.get_attribute("button[data-facet=tag][data-value=training]", "aria-pressed") == "true"

        page.go_back()  # the unfiltered address, restored through popstate
        page.wait_for_function("() => !location.search.includes('tag=')")
        assert len(visible_items(page)) == len(everything)
        page.go_forward()
        page.wait_for_function("() => location.search.includes('tag=training')")
        assert visible_items(page) == training

        # the facet's own "All" resets that facet
        page.click(".contrib-facets button[data-facet=tag][data-value='']")
        assert len(visible_items(page)) == len(everything)
        assert "tag=" not in search(page)

        # two facets, then the global "All" clears both
        beta = items_with(page, "contrib-project--beta")
        page.click(".contrib-facets button[data-facet=project][data-value=beta]")
        assert visible_items(page) == beta
        page.click(".contrib-facets .contrib-reset")
        assert len(visible_items(page)) == len(everything)
        assert search(page) == ""
        assert page.is_disabled(".contrib-facets .contrib-reset")
    finally:
        context.close()
    assert watch.problems() == {}


def test_filter_from_the_keyboard(browser: Any, base_url: str) -> None:
    context, watch = new_context(browser)
    try:
        page = open_page(context, watch, base_url + "contributions/index.html")
        everything = visible_items(page)
        focused = "() => document.activeElement && document.activeElement.dataset.value"
        # the last link before the filter panel, then Tab into the panel: its disclosure (open on a wide
        # screen), then the first facet
        page.focus("a[href='../contributions.atom']")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        assert page.evaluate("document.activeElement.parentElement.open") is True
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.facet") == "project"
        assert page.evaluate(focused) == ""  # the project facet's "All"
        while page.evaluate(focused) != "beta":
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        beta = items_with(page, "contrib-project--beta")
        assert visible_items(page) == beta
        assert "project=beta" in search(page)

        while page.evaluate(focused) != "training":
            page.keyboard.press("Tab")
        page.keyboard.press("Space")
        assert page.get_attribute("button[data-facet=tag][data-value=training]", "aria-pressed") == "true"
        assert "tag=training" in search(page)
        assert set(visible_items(page)) <= set(beta)

        # Space on the pressed button releases it
        page.keyboard.press("Space")
        assert "tag=" not in search(page)

        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('contrib-reset')"):
                break
        else:
            pytest.fail("the reset button is not reachable with Tab")
        page.keyboard.press("Enter")
        assert len(visible_items(page)) == len(everything)
        assert search(page) == ""
    finally:
        context.close()
    assert watch.problems() == {}


def test_without_javascript_every_contribution_is_listed(
    browser: Any, base_url: str, contributions: list[dict[str, Any]]
) -> None:
    context, watch = new_context(browser, java_script_enabled=False)
    try:
        page = open_page(context, watch, base_url + "contributions/index.html?tag=training")
        assert sorted(visible_items(page)) == sorted(c["title"] for c in contributions)
        assert page.locator(".contrib-facets").count() == 0
    finally:
        context.close()
    assert watch.problems() == {}


# -- tags named like JavaScript's built-in properties -----------------------------------------------------

PROTO_CONF = """\
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/"
exclude_patterns = ["_build"]
nitpicky = True
"""
PROTO_PAGE = """\
# {title}

:::{{contribution}}
:repo: example-org/{repo}
:pr: {pr}
:tags: {tags}
:summary: {summary}
:::
""" + "".join(f"\n:::{{{{{name}}}}}\nWritten.\n:::\n" for name in ("problem", "root-cause", "fix", "verification"))
TODO_TITLE = "TODOs considered harmful: a linter for stale comments"


@pytest.fixture(scope="module")
def proto_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small site whose tags are named like ``Object.prototype``'s properties, built strictly."""
    src = tmp_path_factory.mktemp("proto") / "src"
    src.mkdir()
    (src / "conf.py").write_text(PROTO_CONF, encoding="utf-8")
    (src / "index.md").write_text("# Filter\n\n:::{contributions}\n:layout: cards\n:filter: 1\n:::\n", encoding="utf-8")
    pages = {
        "todo": (
            TODO_TITLE,
            "lint",
            1,
            "Constructor, toString, __proto__",
            "Flags TODO comments older than a release.",
        ),
        "other": ("Another fix", "other", 2, "SDPA, toString", "Another change."),
    }
    for name, (title, repo, pr, tags, summary) in pages.items():
        text = PROTO_PAGE.format(title=title, repo=repo, pr=pr, tags=tags, summary=summary)
        (src / f"{name}.md").write_text(text, encoding="utf-8")
    done = rtd_build(src, src.parent / "html")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "WARNING" not in done.stderr, done.stderr  # builds with no warning: the title is written
    return src.parent / "html"


def status_of(page: Any) -> str:
    status: str = page.inner_text(".contrib-facet-status")
    return status


def test_tags_named_like_built_in_properties_filter(browser: Any, proto_site: Path) -> None:
    context, watch = new_context(browser)
    try:
        with serve(proto_site) as url:
            page = open_page(context, watch, url + "index.html")
            labels = page.eval_on_selector_all(
                "button[data-facet=tag]", "buttons => buttons.map(b => [b.dataset.value, b.textContent])"
            )
            assert labels == [
                ["", "All"],
                ["proto", "__proto__"],
                ["constructor", "Constructor"],
                ["sdpa", "SDPA"],
                ["tostring", "toString"],
            ]
            page.click("button[data-facet=tag][data-value=constructor]")
            assert visible_items(page) == [TODO_TITLE]
            assert status_of(page) == "Showing 1 of 2 contributions. Active filters: Tag: Constructor."
            page.click("button[data-facet=tag][data-value=proto]")
            assert visible_items(page) == [TODO_TITLE]
            page.click("button[data-facet=tag][data-value=tostring]")
            assert sorted(visible_items(page)) == sorted([TODO_TITLE, "Another fix"])
            page.click("button[data-facet=tag][data-value=sdpa]")
            assert visible_items(page) == ["Another fix"]
            page.goto(url + "index.html?tag=constructor", wait_until="load")
            assert visible_items(page) == [TODO_TITLE]
            # a value in the address that is no tag's slug but a property of every object: no filter, said
            for value in ("toString", "__proto__", "hasOwnProperty", "valueOf"):
                page.goto(f"{url}index.html?tag={value}", wait_until="load")
                assert len(visible_items(page)) == 2, value
                assert status_of(page) == (
                    f"No contribution has the tag “{value}”; all are shown. "
                    "Showing 2 of 2 contributions. No filter active."
                ), value
    finally:
        context.close()
    assert watch.problems() == {}


# -- schemes and the phone viewport ---------------------------------------------------------------------


#: visible elements of the content (not the off-canvas drawers) wider than their own box (content cut
#: or scrolled sideways) or reaching past the viewport's right edge; text kept only for screen readers
#: (clipped to 1 px) is not shown
OVERFLOWING = """() => {
  const hidden = (el) => el.closest('.visually-hidden, .contrib-visually-hidden, [aria-hidden="true"]');
  const right = document.documentElement.clientWidth + 0.5;
  return Array.from(document.querySelectorAll('article *, .related-pages *')).filter((el) => {
    if (hidden(el) || el.getClientRects().length === 0) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') return false;
    const box = el.getBoundingClientRect();
    const cut = el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible';
    return cut || (box.width > 0 && box.right > right);
  }).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(PAGES))
def test_phone_viewport_no_horizontal_scroll(
    browser: Any, base_url: str, name: str, scheme: str, tmp_path: Path
) -> None:
    context, watch = new_context(
        browser, scheme=scheme, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page = open_page(context, watch, base_url + PAGES[name])
        assert page.evaluate("document.body.dataset.theme") == scheme
        widths = page.evaluate(
            "({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"
        )
        assert widths["client"] == 390
        assert widths["scroll"] <= widths["client"], f"{name}: scrolls sideways ({widths})"
        # no element inside the page is wider than its box either: a table that scrolls inside its wrapper
        # cuts columns off while the page itself does not overflow
        assert page.evaluate(OVERFLOWING) == [], f"{name}: elements wider than their box at 390 px"
        if name == "contribution":
            for selector in (".contrib-header-card", ".contrib-metric", ".contrib-metric-svg"):
                box = page.locator(selector).first.bounding_box()
                assert page.locator(selector).first.is_visible(), selector
                assert box is not None and box["width"] > 0 and box["x"] >= 0, selector
                assert box["x"] + box["width"] <= 390 + 0.5, f"{selector} overflows: {box}"
        shot = Screenshot.take(page, browser, tmp_path / f"{name}-{scheme}-390.png")
    finally:
        context.close()
    shot.assert_shows_the_page(scheme, width=390)
    assert watch.problems() == {}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_contribution_page_desktop_screenshot(browser: Any, base_url: str, scheme: str, tmp_path: Path) -> None:
    context, watch = new_context(browser, scheme=scheme, viewport={"width": 1280, "height": 900})
    try:
        page = open_page(context, watch, base_url + PAGES["contribution"])
        assert page.locator(".contrib-header-card").is_visible()
        assert page.locator(".contrib-metric-svg").first.is_visible()
        shot = Screenshot.take(page, browser, tmp_path / f"contribution-{scheme}-1280.png")
    finally:
        context.close()
    shot.assert_shows_the_page(scheme, width=1280)
    assert shot.bars, "no metric bar in the screenshot"
    for colour, painted in shot.bars:  # each bar painted where the page has it, in its scheme's colour
        assert close(painted, colour), (painted, colour)
    assert watch.problems() == {}


def rgb(css: str) -> tuple[int, int, int]:
    """``rgb(1, 2, 3)`` / ``rgba(1, 2, 3, 1)`` → (1, 2, 3)."""
    parts = css[css.index("(") + 1 : css.index(")")].replace("/", ",").split(",")
    red, green, blue = (round(float(part)) for part in parts[:3])
    return red, green, blue


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 3) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


#: decodes a PNG in the browser (no imaging library needed): its size, its most common colour (the page's
#: background in a screenshot) and the colours at some points
_READ_PNG = """async ({data, points}) => {
  const img = new Image();
  img.src = "data:image/png;base64," + data;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width;
  canvas.height = img.height;
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0);
  const all = g.getImageData(0, 0, img.width, img.height).data;
  const counts = new Map();
  for (let i = 0; i < all.length; i += 4) {
    const key = (all[i] << 16) | (all[i + 1] << 8) | all[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let mode = 0, most = -1;
  counts.forEach((n, key) => { if (n > most) { most = n; mode = key; } });
  const at = points.map(([x, y]) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
  return {width: img.width, height: img.height, mode: [mode >> 16, (mode >> 8) & 255, mode & 255], at};
}"""


@dataclass
class Screenshot:
    """A full-page screenshot, read back: what it shows, against what the page's styles say it should."""

    width: int
    height: int
    page_height: int
    #: the most common colour of the screenshot, and the page's background colour
    mode: tuple[int, int, int]
    background: tuple[int, int, int]
    #: (fill colour the page's styles give a metric bar, colour at the bar's centre in the screenshot)
    bars: list[tuple[tuple[int, int, int], tuple[int, int, int]]]

    @classmethod
    def take(cls, page: Any, browser: Any, path: Path) -> Screenshot:
        data = page.screenshot(path=path, full_page=True)
        state = page.evaluate(
            """() => ({
              background: getComputedStyle(document.body).backgroundColor,
              height: document.documentElement.scrollHeight,
              bars: Array.from(document.querySelectorAll(
                ".contrib-metric-svg rect, .contrib-metric-svg circle.contrib-chart-after")).map(rect => {
                const box = rect.getBoundingClientRect();
                return {x: box.x + window.scrollX + box.width / 2, y: box.y + window.scrollY + box.height / 2,
                        fill: getComputedStyle(rect).fill, width: box.width};
              }).filter(bar => bar.width >= 4),
            })"""
        )
        reader = browser.new_page()  # no network, no route: it only decodes the image
        try:
            points = [[round(bar["x"]), round(bar["y"])] for bar in state["bars"]]
            read = reader.evaluate(_READ_PNG, {"data": base64.b64encode(data).decode(), "points": points})
        finally:
            reader.close()
        return cls(
            width=read["width"],
            height=read["height"],
            page_height=state["height"],
            mode=tuple(read["mode"]),
            background=rgb(state["background"]),
            bars=[(rgb(bar["fill"]), tuple(at)) for bar, at in zip(state["bars"], read["at"], strict=True)],
        )

    def assert_shows_the_page(self, scheme: str, width: int) -> None:
        # the whole page, no wider than the viewport (nothing overflows sideways)
        assert (self.width, self.height) == (width, self.page_height), (self.width, self.height)
        # mostly its background, in the scheme asked for: dark on dark, light on light
        assert close(self.mode, self.background), (self.mode, self.background)
        luminance = sum(self.mode) / (3 * 255)
        assert luminance < 0.25 if scheme == "dark" else luminance > 0.85, (scheme, self.mode)


# -- deep links -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_deep_link_scrolls_to_the_section(browser: Any, base_url: str, viewport: dict[str, int]) -> None:
    context, watch = new_context(browser, viewport=viewport)
    try:
        page = open_page(context, watch, base_url + "contributions/beta-202.html#root-cause")
        page.wait_for_function(
            "() => { const r = document.getElementById('root-cause').getBoundingClientRect();"
            " return window.scrollY > 0 && r.top >= -1 && r.top < window.innerHeight / 2; }"
        )
        heading = page.locator("#root-cause h2")
        assert heading.inner_text().startswith("Root cause")
        assert heading.is_visible()
        assert page.evaluate("location.hash") == "#root-cause"
    finally:
        context.close()
    assert watch.problems() == {}


# -- what a visitor sees first ----------------------------------------------------------------------------

PHONE: dict[str, Any] = {"viewport": SIZES["phone"], "is_mobile": True, "has_touch": True}
LAPTOP: dict[str, Any] = {"viewport": SIZES["laptop"]}


def screenshot(page: Any, name: str, *, full_page: bool = False) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=path, full_page=full_page)
    return path


#: each row of the home page's proof strip: its PR link and headline figure, where they are on the screen
PROOF_ROWS = """() => Array.from(document.querySelectorAll('ol.contrib-proof > li')).map((row) => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, visible: r.width > 0 && r.height > 0}; };
  const pr = row.querySelector('.contrib-pr-link'), value = row.querySelector('.contrib-proof-value');
  const impact = row.querySelector('.contrib-proof-impact');
  return {pr: pr.textContent.trim(), prBox: box(pr), value: value ? value.textContent.trim() : null,
          valueBox: box(value), impact: impact.textContent.trim(), impactBox: box(impact),
          valueSize: value ? parseFloat(getComputedStyle(value).fontSize) : null,
          impactSize: parseFloat(getComputedStyle(impact).fontSize)};
})"""


@pytest.mark.parametrize("scheme", SCHEMES)
def test_home_on_a_phone_shows_every_pr_and_its_impact_on_the_first_screen(
    browser: Any, base_url: str, scheme: str, contributions: list[dict[str, Any]]
) -> None:
    context, watch = new_context(browser, scheme=scheme, **PHONE)
    try:
        page = open_page(context, watch, base_url + PAGES["home"])
        rows = page.evaluate(PROOF_ROWS)
        fold = page.evaluate("window.innerHeight")
        # who, first: the name and the role line, above the proof
        h1_bottom = page.evaluate("document.querySelector('article h1').getBoundingClientRect().bottom")
        story = page.evaluate(
            "document.querySelector('article a[href*=\"beta-202.html#contribution\"]')"
            ".getBoundingClientRect().top + window.scrollY"
        )
        screenshot(page, f"home-phone-{scheme}.png")
    finally:
        context.close()
    assert fold == 844
    assert sorted(row["pr"] for row in rows) == sorted(f"#{c['pr']}" for c in contributions)
    headlines = {f"#{c['pr']}" for c in contributions if c["metrics"]}
    assert {row["pr"] for row in rows if row["value"]} == headlines  # every record with a figure shows it
    for row in rows:
        assert row["prBox"]["visible"] and row["prBox"]["bottom"] <= fold, row
        # the impact (or, without one, the summary) is what the row says, whole on the first screen
        assert row["impact"] and row["impactBox"]["visible"] and row["impactBox"]["bottom"] <= fold, row
        if row["value"] is not None:
            # the figure under it, as its support: in smaller type
            assert row["valueBox"]["top"] >= row["impactBox"]["bottom"], row
            assert row["valueSize"] < row["impactSize"], row
        assert row["prBox"]["top"] > h1_bottom
    assert story > max(row["prBox"]["bottom"] for row in rows), "the story comes after the proof"
    assert watch.problems() == {}


#: the page's h1, relative to the viewport
H1_BOX = """() => { const r = document.querySelector('article h1').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: window.innerHeight}; }"""


def assert_title_in_view(page: Any, where: str) -> None:
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # the browser's scroll to the fragment
    box = page.evaluate(H1_BOX)
    assert box["top"] >= 0 and box["bottom"] <= box["height"], f"{where}: the title is cut off ({box})"


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_contrib_link_lands_with_the_whole_title_in_view(browser: Any, base_url: str, size: str) -> None:
    context, watch = new_context(browser, **(LAPTOP if size == "laptop" else PHONE))
    try:
        # the link between the two write-ups: from alpha's verification to beta's fix
        page = open_page(context, watch, base_url + "contributions/alpha-101.html")
        link = page.locator("section#verification a[href='beta-202.html#contribution']")
        with page.expect_navigation():
            link.click()
        assert page.url.endswith("beta-202.html#contribution")
        assert_title_in_view(page, f"{{contrib}} link ({size})")
        assert page.evaluate("window.scrollY") >= 0
    finally:
        context.close()
    assert watch.problems() == {}


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_search_hit_lands_with_the_whole_title_in_view(browser: Any, base_url: str, size: str) -> None:
    context, watch = new_context(browser, **(LAPTOP if size == "laptop" else PHONE))
    try:
        page = open_page(context, watch, base_url + "search.html?q=202")
        first = page.locator("#search-results ul.search > li > a").first
        assert first.get_attribute("href") == "contributions/beta-202.html"  # the write-up's page, from its top
        with page.expect_navigation():
            first.click()
        assert_title_in_view(page, f"search hit ({size})")
    finally:
        context.close()
    assert watch.problems() == {}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_write_up_on_a_laptop_reads_as_a_numbered_sequence(browser: Any, base_url: str, scheme: str) -> None:
    context, watch = new_context(browser, scheme=scheme, **LAPTOP)
    try:
        page = open_page(context, watch, base_url + PAGES["contribution"])
        layout = page.evaluate(
            """() => {
              const top = (sel) => document.querySelector(sel).getBoundingClientRect().top;
              const steps = Array.from(document.querySelectorAll('section.contrib-section > h2')).map((h) => ({
                text: h.textContent.replace('¶', '').trim(),
                number: getComputedStyle(h, '::before').content,
                size: parseFloat(getComputedStyle(h).fontSize)}));
              const h1 = parseFloat(getComputedStyle(document.querySelector('article h1')).fontSize);
              return {breadcrumb: top('.contrib-breadcrumb'), title: top('article h1'), header: top('.contrib-header'),
                      steps, h1,
                      buttons: Array.from(document.querySelectorAll('.contrib-actions a.contrib-button-primary'))
                        .map((a) => a.textContent.trim()),
                      back: Array.from(document.querySelectorAll('.contrib-end .contrib-back a')).map((a) => a.href)};
            }"""
        )
        screenshot(page, f"write-up-laptop-{scheme}.png", full_page=True)
    finally:
        context.close()
    assert layout["breadcrumb"] < layout["title"] < layout["header"], "breadcrumb, title, then header"
    assert [step["text"] for step in layout["steps"]] == ["Problem", "Root cause", "Fix", "Verification"]
    assert [step["number"] for step in layout["steps"]] == ["counter(contrib-step)"] * 4  # numbered 1 to 4
    assert all(step["size"] < 0.6 * layout["h1"] for step in layout["steps"]), layout["steps"]
    # the pull request as an action, in the header and again after the sections; then the way back
    assert layout["buttons"] == ["Pull request #202 ↗", "Pull request #202 ↗"]
    assert [urlsplit(href).path.removeprefix(PREFIX) for href in layout["back"]] == ["contributions/index.html"]
    assert watch.problems() == {}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_cards_have_visible_borders_aligned_with_the_text(browser: Any, base_url: str, scheme: str) -> None:
    context, watch = new_context(browser, scheme=scheme, **LAPTOP)
    try:
        page = open_page(context, watch, base_url + PAGES["listing"])
        found = page.evaluate(
            """() => {
              const card = document.querySelector('.contrib-card');
              const text = document.querySelector('article section > p');
              const style = getComputedStyle(card);
              return {border: style.borderLeftColor, width: parseFloat(style.borderLeftWidth),
                      page: getComputedStyle(document.body).backgroundColor,
                      card: card.getBoundingClientRect().left, text: text.getBoundingClientRect().left,
                      credit: document.querySelector('footer').textContent.includes('Furo')};
            }"""
        )
        home = open_page(context, watch, base_url + PAGES["home"])
        pager = home.evaluate("document.querySelectorAll('.related-pages a').length")
    finally:
        context.close()
    assert pager == 0, "a previous/next pager on the home page"
    assert found["width"] >= 1
    assert contrast(rgb(found["border"]), rgb(found["page"])) >= 3, found
    assert abs(found["card"] - found["text"]) <= 1, f"cards inset from the text: {found}"
    assert not found["credit"], "the theme's credit in the footer"
    assert watch.problems() == {}


def test_on_a_phone_the_filters_leave_the_first_write_up_on_the_first_screen(browser: Any, base_url: str) -> None:
    context, watch = new_context(browser, **PHONE)
    try:
        page = open_page(context, watch, base_url + PAGES["listing"])
        first = page.evaluate("document.querySelector('.contrib-item').getBoundingClientRect().top")
        closed = page.evaluate("!document.querySelector('.contrib-facets details').open")
        page.click(".contrib-facets summary")
        assert page.locator("button[data-facet=tag][data-value=training]").is_visible()
        screenshot(page, "listing-phone-light.png")
    finally:
        context.close()
    assert closed, "the filter controls are open on a phone"
    assert first < 844 - 100, f"the first write-up starts at y = {first}"
    assert watch.problems() == {}


# -- the keyboard ---------------------------------------------------------------------------------------

#: where keyboard focus is after a Tab: the element, its box, and its outline as drawn
FOCUSED = """() => { const e = document.activeElement; const r = e.getBoundingClientRect();
  const s = getComputedStyle(e);
  return {tag: e.tagName, text: (e.textContent || e.name || '').trim().slice(0, 40), left: r.left, right: r.right,
          top: r.top, bottom: r.bottom, outline: s.outlineStyle, width: parseFloat(s.outlineWidth),
          colour: s.outlineColor}; }"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_tab_stop_is_on_the_screen_with_a_visible_ring(
    browser: Any, base_url: str, size: str, scheme: str
) -> None:
    """The first 30 Tab stops of a write-up and of the home page: each on the screen (on a phone, 10 of
    them were in the closed drawer at x = -240) and each drawn with a focus outline (the sidebar's search
    box had none: furo sets ``outline: none``)."""
    viewport = SIZES[size]
    off, unringed = [], []
    for name in ("contribution", "home"):
        context, watch = new_context(browser, scheme=scheme, viewport=viewport)
        try:
            page = open_page(context, watch, base_url + PAGES[name])
            for _ in range(30):
                page.keyboard.press("Tab")
                found = page.evaluate(FOCUSED)
                if found["tag"] == "BODY":
                    break
                box = (found["left"], found["right"])
                if found["right"] <= 0 or found["left"] >= viewport["width"]:
                    off.append((name, found["text"], box))
                if found["outline"] == "none" or found["width"] < 1:
                    unringed.append((name, found["tag"], found["text"]))
        finally:
            context.close()
        assert watch.problems() == {}
    assert off == [] and unringed == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_sidebar_search_box_shows_its_focus(browser: Any, base_url: str, scheme: str) -> None:
    """On a laptop the sidebar's search box is a Tab stop: focused, it is outlined, 2 px in the brand colour."""
    context, watch = new_context(browser, scheme=scheme, viewport=SIZES["laptop"])
    try:
        page = open_page(context, watch, base_url + PAGES["home"])
        page.focus("input.sidebar-search")
        found = page.evaluate(FOCUSED)
    finally:
        context.close()
    assert (found["tag"], found["outline"], found["width"]) == ("INPUT", "solid", 2)
