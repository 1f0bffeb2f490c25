"""The extension's look under every supported theme: furo, pydata-sphinx-theme, sphinx-book-theme,
sphinx_rtd_theme and alabaster, in Chromium, light and dark where the theme has a dark mode.

One small portfolio (``tests/roots/test-themes``: a proof strip, a filterable table, cards, two
write-ups with figures and a known-limits callout) is built strictly under each theme. On each: no
horizontal overflow at 390 px; the listing table inside its column at 1280 px, no cell cut; the pressed
filter button differs from the others by computed style; every text the extension writes at least 4.5:1
against what is behind it, every chart bar and axis at least 3:1; every tick label and mark of every chart
inside its chart's box and not clipped by the SVG, at both widths. Screenshots go to
``_build/screenshots/themes/``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from .chromium import SCREENSHOTS, serve
from .colours import contrast
from .conftest import ROOTS, rtd_build
from .test_browser import browser, new_context, open_page, rgb  # noqa: F401

pytestmark = pytest.mark.browser

#: theme -> whether it has a dark mode the extension follows
THEMES = {
    "furo": True,
    "pydata_sphinx_theme": True,
    "sphinx_book_theme": True,
    "sphinx_rtd_theme": False,
    "alabaster": False,
}
CASES = [(theme, scheme) for theme, dark in THEMES.items() for scheme in (("light", "dark") if dark else ("light",))]
PAGES = ("index.html", "contributions/index.html", "contributions/numpy-27001.html")
#: the extension's breadcrumbs, the theme's trails (pydata's, rtd's: home › the page), rtd's links beside
THEIR_BREADCRUMBS = """[
  document.querySelectorAll('.contrib-breadcrumb').length,
  document.querySelectorAll('.bd-breadcrumbs, .wy-breadcrumbs:has(.breadcrumb-item)').length,
  document.querySelectorAll('.wy-breadcrumbs-aside').length,
]"""


@pytest.fixture(scope="module")
def theme_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The test portfolio built strictly once per theme: theme -> its html folder."""
    built = {}
    for theme in THEMES:
        base = tmp_path_factory.mktemp(theme)
        src = base / "src"
        shutil.copytree(ROOTS / "test-themes", src)
        done = rtd_build(src, base / "html", "-D", f"html_theme={theme}")
        assert done.returncode == 0, f"{theme}: {done.stdout[-2000:]}{done.stderr}"
        built[theme] = base / "html"
    return built


#: whether the page's colour scheme is dark, as the theme marks it
IS_DARK = """() => document.body.dataset.theme === 'dark' || document.documentElement.dataset.theme === 'dark'"""

#: elements of the extension that hold text, with their colour and the colour behind them
TEXTS = """() => {
  // the colour behind an element: its ancestors' backgrounds, translucent ones composited over the
  // first opaque one below them
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const m = getComputedStyle(e).backgroundColor.match(/[\\d.]+/g).map(Number);
      const alpha = m.length > 3 ? m[3] : 1;
      if (alpha > 0) layers.push([m[0], m[1], m[2], alpha]);
      if (alpha >= 1) break;
    }
    let colour = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse()) {
      colour = [r * a + colour[0] * (1 - a), g * a + colour[1] * (1 - a), b * a + colour[2] * (1 - a)];
    }
    return `rgb(${colour.map(Math.round).join(', ')})`;
  };
  const roots = '.contrib-header, .contrib-listing, .contrib-facets, .contrib-metric, .contrib-proof, ' +
    '.contrib-stats, .contrib-limits, .contrib-end, .contrib-breadcrumb';
  const found = [];
  document.querySelectorAll(roots).forEach((root) => root.querySelectorAll('*').forEach((el) => {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest('.contrib-visually-hidden') || el.getClientRects().length === 0) return;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || parseFloat(style.opacity) < 1) return;
    const svg = el instanceof SVGElement;
    const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
    found.push({what: `${name}: ${el.textContent.trim().slice(0, 30)}`,
                colour: svg ? style.fill : style.color, behind: behind(svg ? el.closest('figure') || el : el)});
  }));
  return found;
}"""

#: the marks of every chart: bars (fill) and axes (stroke)
MARKS = """() => Array.from(document.querySelectorAll('.contrib-metric-svg rect, .contrib-metric-svg line'))
.map((el) => {
  const style = getComputedStyle(el);
  let bg = 'rgb(255, 255, 255)';
  for (let e = el.closest('figure'); e; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    if (c && c !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(c)) { bg = c; break; }
  }
  return {what: `${el.tagName}.${el.getAttribute('class')}`, colour: el.tagName === 'line' ? style.stroke : style.fill,
          behind: bg};
})"""


#: each tick label and mark of every chart that is not wholly shown: outside the chart's box
#: (``.contrib-metric-chart``, whose padding leaves room for the first and last tick labels), or outside
#: the SVG while the SVG clips what overflows it (sphinx_rtd_theme's ``svg:not(:root){overflow:hidden}``
#: cut "10" to "0" and the before mark in half when it outranked the extension's rule)
CUT_CHARTS = """() => {
  const within = (inner, outer) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 &&
    inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;
  const cut = [];
  let count = 0;
  document.querySelectorAll('.contrib-metric-svg').forEach((svg) => {
    const chart = svg.closest('.contrib-metric-chart').getBoundingClientRect();
    const box = svg.getBoundingClientRect();
    const clips = getComputedStyle(svg).overflow !== 'visible';
    svg.querySelectorAll('text, rect, line, circle, path, polygon').forEach((el) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      count += 1;
      if (!within(r, chart) || (clips && !within(r, box))) {
        cut.push(`${el.tagName}.${el.getAttribute('class')} ${(el.textContent || '').trim()} ` +
                 `[${Math.round(r.left)}, ${Math.round(r.right)}] in chart [${Math.round(chart.left)}, ` +
                 `${Math.round(chart.right)}], svg [${Math.round(box.left)}, ${Math.round(box.right)}]` +
                 (clips ? ' clipped' : ''));
      }
    });
  });
  return {count, cut};
}"""


#: the space between a write-up header's figures and its buttons, in CSS pixels
HEADER_GAP = """() => {
  const header = document.querySelector('.contrib-header-card');
  const stats = header.querySelector('.contrib-stats'), actions = header.querySelector('.contrib-actions');
  return Math.round(actions.getBoundingClientRect().top - stats.getBoundingClientRect().bottom);
}"""


#: what a theme's own script logs on every page, whatever the page holds: pydata-sphinx-theme 0.20 (and
#: sphinx-book-theme, built on it) writes ``data-mode=""`` on ``<html>`` unless its ``default_mode`` option
#: is set, and its script reports that before using "auto"
_PYDATA_MODE = "Got invalid theme mode: . Resetting to auto."
THEME_CONSOLE = {"pydata_sphinx_theme": _PYDATA_MODE, "sphinx_book_theme": _PYDATA_MODE}


def theme_problems(watch: Any, theme: str) -> dict[str, list[str]]:
    own = THEME_CONSOLE.get(theme)
    watch.console = [line for line in watch.console if not (own and line.startswith(own))]
    problems: dict[str, list[str]] = watch.problems()
    return problems


def _opaque(css: str) -> bool:
    return not css.startswith("rgba") or not css.rstrip(")").endswith(", 0")


@pytest.mark.parametrize(("theme", "scheme"), CASES)
def test_the_look_holds_under_the_theme(browser: Any, theme_sites: dict[str, Path], theme: str, scheme: str) -> None:  # noqa: F811
    folder = SCREENSHOTS / "themes"
    folder.mkdir(parents=True, exist_ok=True)
    with serve(theme_sites[theme]) as url:
        # a phone: nothing scrolls sideways
        context, watch = new_context(
            browser, scheme=scheme, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        seen_charts = seen_dates = 0
        try:
            for path in PAGES:
                page = open_page(context, watch, url + path)
                assert page.evaluate(IS_DARK) == (scheme == "dark"), f"{theme}: not in {scheme}"
                widths = page.evaluate(
                    "({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"
                )
                assert widths["scroll"] <= widths["client"], f"{theme} {scheme} {path}: scrolls sideways {widths}"
                cut = page.evaluate(
                    "Array.from(document.querySelectorAll('.contrib-listing, .contrib-listing td'))"
                    ".filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.className)"
                )
                assert cut == [], f"{theme} {scheme} {path}: cut at 390 px"
                charts = page.evaluate(CUT_CHARTS)
                assert charts["cut"] == [], f"{theme} {scheme} {path} at 390 px: {charts['cut']}"
                # a date is never broken at its hyphens ("2026-" / "03-14")
                dates = page.eval_on_selector_all(
                    ".contrib-date",
                    "els => els.map(e => [e.textContent, e.getClientRects().length, getComputedStyle(e).whiteSpace])",
                )
                assert all(lines == 1 and space == "nowrap" for _, lines, space in dates), f"{theme}: {dates}"
                seen_dates += len(dates)
                # one breadcrumb: the extension's, not the theme's too (pydata-sphinx-theme and sphinx_rtd_theme
                # showed both); the theme's on the site's own pages, and rtd's source link beside it everywhere
                crumbs = page.evaluate(THEIR_BREADCRUMBS)
                if path.startswith("contributions/numpy"):
                    assert crumbs[:2] == [1, 0], f"{theme} {path}: breadcrumbs (ours, the theme's) {crumbs}"
                elif path == "contributions/index.html" and theme in ("pydata_sphinx_theme", "sphinx_rtd_theme"):
                    assert crumbs[:2] == [0, 1], f"{theme} {path}: breadcrumbs (ours, the theme's) {crumbs}"
                if theme == "sphinx_rtd_theme":
                    assert crumbs[2] == 1, f"{theme} {path}: the block of links beside the breadcrumb {crumbs}"
                seen_charts += charts["count"]
                name = path.replace("/", "-").removesuffix(".html")
                page.screenshot(path=folder / f"{theme}-{scheme}-390-{name}.png")
                page.close()
        finally:
            context.close()
        assert theme_problems(watch, theme) == {}, theme
        assert seen_charts > 0, f"{theme}: no chart's labels and marks were measured"
        assert seen_dates > 0, f"{theme}: no date was measured"

        # a laptop: the table inside its column, the pressed filter visible, the colours readable
        context, watch = new_context(browser, scheme=scheme, viewport={"width": 1280, "height": 900})
        try:
            page = open_page(context, watch, url + "contributions/index.html")
            table = page.evaluate(
                """() => {
                  const table = document.querySelector('table.contrib-table');
                  const column = table.closest('.contrib-listing').parentElement;
                  const cells = Array.from(table.querySelectorAll('td, th'))
                    .filter((c) => c.scrollWidth > c.clientWidth + 1).length;
                  const t = table.getBoundingClientRect(), c = column.getBoundingClientRect();
                  return {left: t.left, right: t.right, columnLeft: c.left, columnRight: c.right, cut: cells,
                          listing: table.closest('.contrib-listing').scrollWidth -
                                   table.closest('.contrib-listing').clientWidth};
                }"""
            )
            assert table["cut"] == 0 and table["listing"] <= 1, f"{theme} {scheme}: table cut {table}"
            assert table["left"] >= table["columnLeft"] - 1 and table["right"] <= table["columnRight"] + 1, table
            selector = ".contrib-facets button[data-facet=tag]"
            page.click(f"{selector}[data-value=io]")
            styles = page.eval_on_selector_all(
                selector,
                "buttons => buttons.map(b => { const s = getComputedStyle(b); return {pressed: b.getAttribute("
                "'aria-pressed'), look: [s.backgroundColor, s.color, s.borderColor, s.fontWeight].join(' | '), "
                "colour: s.color, behind: s.backgroundColor}; })",
            )
            pressed = [s for s in styles if s["pressed"] == "true"]
            others = [s for s in styles if s["pressed"] == "false"]
            assert len(pressed) == 1 and others, styles
            assert all(s["look"] != pressed[0]["look"] for s in others), f"{theme} {scheme}: pressed looks the same"
            page.screenshot(path=folder / f"{theme}-{scheme}-1280-listing.png", full_page=True)
            texts = page.evaluate(TEXTS)
            page = open_page(context, watch, url + "contributions/numpy-27001.html")
            texts += page.evaluate(TEXTS)
            marks = page.evaluate(MARKS)
            charts = page.evaluate(CUT_CHARTS)
            assert charts["count"] > 0 and charts["cut"] == [], f"{theme} {scheme} at 1280 px: {charts['cut']}"
            # the header's figures and its buttons one step apart, as under every theme (pydata-sphinx-theme's
            # 3rem under every dl with a class put 48 px between them)
            gap = page.evaluate(HEADER_GAP)
            assert 8 <= gap <= 24, f"{theme} {scheme}: {gap} px between the header's figures and its buttons"
            page.screenshot(path=folder / f"{theme}-{scheme}-1280-write-up.png", full_page=True)
        finally:
            context.close()
        assert theme_problems(watch, theme) == {}, theme

    low = [
        (t["what"], t["colour"], t["behind"], round(contrast(rgb(t["colour"]), rgb(t["behind"])), 2))
        for t in texts
        if _opaque(t["colour"]) and contrast(rgb(t["colour"]), rgb(t["behind"])) < 4.5
    ]
    assert texts and low == [], f"{theme} {scheme}: text under 4.5:1: {low}"
    faint = [
        (m["what"], m["colour"], m["behind"], round(contrast(rgb(m["colour"]), rgb(m["behind"])), 2))
        for m in marks
        if contrast(rgb(m["colour"]), rgb(m["behind"])) < 3
    ]
    assert marks and faint == [], f"{theme} {scheme}: chart marks under 3:1: {faint}"


def test_every_theme_variable_the_stylesheet_reads_has_a_fallback() -> None:
    """furo's ``--color-*``/``--font-*`` and pydata's ``--pst-*`` exist under one theme only: read without a
    fallback, they leave no border, no pressed state and default colours under the others."""
    css = (ROOTS.parent.parent / "sphinx_contributions" / "static" / "contributions.css").read_text(encoding="utf-8")
    theirs = re.findall(r"var\((--(?:color|font|pst|sd)-[\w-]+)\s*(,?)", css)
    assert theirs, "the stylesheet reads no theme variable"
    assert [name for name, comma in theirs if not comma] == []
    # and dark mode follows each theme's own switch
    for switch in ('body[data-theme="dark"]', 'html[data-theme="dark"] body', 'body[data-theme="auto"]'):
        assert switch in css, switch
    assert "@media (prefers-color-scheme: dark)" in css
