"""The site's figures as a reader sees them, measured in Chromium at 390×844 and 1280×900, light and dark:

- a log-scale figure shows at least two labelled decade ticks, and each value's mark sits where the
  axis' own ticks put that value (within 2 px); a linear figure's bars end where its ticks put them;
- every graphic part (marks, bars, axis, ticks) is at least 3:1 against the background it is drawn on,
  every label at least 4.5:1 and 12 px;
- a page's charts span the figure's width under the values and start at the same x;
- each row's label ("before", "after") sits beside its own mark (within 10 px of it), not at the chart's
  left edge; every piece of a tick label (a decade's raised exponent too) is drawn in a font of 12 px or
  more, with no superscript character (drawn about 8 px high); a count's axis ends at its whole ("139 of
  140": at 140);
- a figure at 2× is saved under ``_build/screenshots/`` for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .chromium import SCHEMES, SCREENSHOTS, SIZES, chromium, local_context, serve, watch_responses
from .colours import contrast

pytestmark = pytest.mark.browser

#: the write-ups with figures: beta's drift (log scale), alpha's three figures (linear)
PAGES = ("contributions/beta-202.html", "contributions/alpha-101.html")

#: every drawn part of every figure on the page: where it is, its colours, the background behind it
_MEASURE = """() => {
  const rgb = c => { const m = c.match(/[\\d.]+/g); return m ? m.slice(0, 4).map(Number) : null; };
  const background = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c && (c.length < 4 || c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return Array.from(document.querySelectorAll("figure.contrib-metric")).map(figure => {
    const svg = figure.querySelector("svg.contrib-metric-svg");
    const values = figure.querySelector(".contrib-metric-values").getBoundingClientRect();
    const body = figure.getBoundingClientRect();
    const style = getComputedStyle(figure);
    const inner = body.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // each value and the change in words: how many line boxes it takes (1 = not broken across lines)
    const lines = Array.from(figure.querySelectorAll(
      ".contrib-metric-before, .contrib-metric-after, .contrib-metric-change"
    )).map(el => [el.textContent, new Set(Array.from(el.getClientRects()).map(r => Math.round(r.top))).size]);
    if (!svg) return {label: figure.querySelector("figcaption").textContent, svg: null, lines};
    const box = svg.getBoundingClientRect();
    const part = el => {
      const r = el.getBoundingClientRect(), s = getComputedStyle(el);
      return {
        tag: el.tagName, cls: el.getAttribute("class"), value: el.dataset.value || null,
        x: r.x, y: r.y, width: r.width, height: r.height, text: el.textContent,
        fill: s.fill, stroke: s.stroke, fontSize: parseFloat(s.fontSize),
        visible: s.visibility !== "hidden" && s.display !== "none" && r.width > 0,
        background: background(svg),
      };
    };
    return {
      label: figure.querySelector("figcaption").textContent,
      scale: svg.dataset.scale,
      svg: {x: box.x, y: box.y, width: box.width, height: box.height},
      valuesBottom: values.bottom, inner, lines,
      parts: Array.from(svg.querySelectorAll("line, circle, rect, text")).map(part),
    };
  });
}"""


def colour(css: str) -> tuple[float, ...] | None:
    """``rgb(1, 2, 3)`` → (1, 2, 3); ``none`` → None."""
    if not css.startswith("rgb"):
        return None
    return tuple(float(p) for p in css[css.index("(") + 1 : css.index(")")].replace("/", ",").split(",")[:3])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as found:
        yield found


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    with serve(site, "/en/latest/") as url:
        yield url


def measure(browser: Any, url: str, size: str, scheme: str) -> list[dict[str, Any]]:
    context, failed = local_context(browser, scheme=scheme, viewport=SIZES[size])
    try:
        page = context.new_page()
        watch_responses(page, failed)
        page.goto(url, wait_until="networkidle")
        assert page.evaluate("document.body.dataset.theme") == scheme
        figures: list[dict[str, Any]] = page.evaluate(_MEASURE)
    finally:
        context.close()
    assert failed == []
    return figures


def ticks_and_marks(figure: dict[str, Any]) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(value, x in px) of the axis' ticks, and of each value's mark: a log mark's centre, a bar's end."""
    parts = figure["parts"]
    ticks = [(float(p["value"]), p["x"] + p["width"] / 2) for p in parts if "contrib-chart-tick" in p["cls"].split()]
    marks = [
        (float(p["value"]), p["x"] + p["width"] / 2 if p["tag"] == "circle" else p["x"] + p["width"])
        for p in parts
        if {"contrib-chart-mark", "contrib-chart-bar"} & set(p["cls"].split())
    ]
    return ticks, marks


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_marks_sit_where_the_labelled_axis_puts_them(browser: Any, base_url: str, size: str, scheme: str) -> None:
    import math

    seen = set()
    for path in PAGES:
        for figure in measure(browser, base_url + path, size, scheme):
            if figure["svg"] is None:
                continue
            seen.add(figure["scale"])
            ticks, marks = ticks_and_marks(figure)
            labels = [p for p in figure["parts"] if p["tag"] == "text" and "tick-label" in p["cls"] and p["visible"]]
            assert len(labels) >= 2 and len(labels) == len(ticks), figure["label"]
            assert all(p["text"].strip() for p in labels)
            (v0, x0), (v1, x1) = ticks[0], ticks[-1]
            assert x1 - x0 >= 0.5 * figure["svg"]["width"], figure["label"]  # the ticks span the chart
            assert len(marks) == 2
            for value, x in marks:
                if figure["scale"] == "log scale":
                    expected = x0 + (math.log10(value) - math.log10(v0)) / (math.log10(v1) - math.log10(v0)) * (x1 - x0)
                else:
                    assert v0 == 0  # bars from zero
                    expected = x0 + value / v1 * (x1 - x0)
                assert abs(x - expected) <= 2, (figure["label"], value, x, expected)
    assert seen == {"log scale", "linear scale from 0"}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_part_of_every_figure_can_be_seen(browser: Any, base_url: str, size: str, scheme: str) -> None:
    low: list[str] = []
    for path in PAGES:
        for figure in measure(browser, base_url + path, size, scheme):
            for part in figure["parts"] if figure["svg"] else []:
                where = f"{path} {figure['label']!r} {part['tag']}.{part['cls']}"
                back = tuple(part["background"])
                if part["tag"] == "text":
                    ink = colour(part["fill"])
                    assert ink is not None and part["fontSize"] >= 12, where
                    if contrast(ink, back) < 4.5:
                        low.append(f"{where}: text {contrast(ink, back):.2f}:1")
                    continue
                inks = [c for c in (colour(part["fill"]), colour(part["stroke"])) if c is not None]
                assert inks, where
                worst = max(contrast(ink, back) for ink in inks)
                if worst < 3:
                    low.append(f"{where}: {worst:.2f}:1")
    assert low == []


@pytest.mark.parametrize("size", list(SIZES))
def test_charts_span_the_figure_under_the_values_aligned(browser: Any, base_url: str, size: str) -> None:
    figures = [f for f in measure(browser, base_url + PAGES[1], size, "light") if f["svg"]]
    assert len(figures) == 2  # the held check (196 → 196) draws no pair of equal bars
    for figure in figures:
        assert figure["svg"]["y"] >= figure["valuesBottom"] - 1, figure["label"]  # under the values
        assert figure["svg"]["width"] >= 0.85 * figure["inner"], figure["label"]  # the figure's width
    assert len({round(f["svg"]["x"]) for f in figures}) == 1  # the same x start
    assert len({round(f["svg"]["width"]) for f in figures}) == 1


@pytest.mark.parametrize("page", PAGES)
def test_no_value_is_broken_across_lines_on_a_phone(browser: Any, base_url: str, page: str) -> None:
    """``~1.91e-6`` must not wrap as ``~1.91e-`` / ``6``: a value, and the change in words, stay whole."""
    broken = [
        (figure["label"], text, count)
        for figure in measure(browser, base_url + page, "phone", "light")
        for text, count in figure["lines"]
        if count != 1
    ]
    assert broken == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_figure_at_2x_is_saved_for_a_person(browser: Any, base_url: str, scheme: str) -> None:
    """Screenshots to look at (``_build/screenshots/figure-2x-*.png``): the log figure on a phone at 2×."""
    context, failed = local_context(browser, scheme=scheme, viewport=SIZES["phone"], device_scale_factor=2)
    try:
        page = context.new_page()
        watch_responses(page, failed)
        page.goto(base_url + PAGES[0], wait_until="networkidle")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"figure-2x-{scheme}.png"
        page.locator("figure.contrib-metric").first.screenshot(path=str(path))
        assert path.stat().st_size > 0
        page.goto(base_url + PAGES[1], wait_until="networkidle")
        page.locator("figure.contrib-metric").nth(1).screenshot(
            path=str(SCREENSHOTS / f"figure-linear-2x-{scheme}.png")
        )
    finally:
        context.close()
    assert failed == []


#: each chart's row labels and their marks (a log mark's box, a bar's end), and every piece of text of
#: its tick labels (the label and its raised exponent) with its font size
_LABELS = """() => Array.from(document.querySelectorAll("figure.contrib-metric svg.contrib-metric-svg")).map(svg => {
  const box = el => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const marks = Array.from(svg.querySelectorAll(".contrib-chart-mark, .contrib-chart-bar")).map(el => {
    const b = box(el);
    return el.tagName === "rect" ? {...b, left: b.right} : b;  // a bar's mark is its end
  });
  const labels = Array.from(svg.querySelectorAll("text:not(.contrib-chart-tick-label)"))
    .map(el => ({...box(el), text: el.textContent}));
  const tickTexts = svg.querySelectorAll(".contrib-chart-tick-label, .contrib-chart-tick-label *");
  const pieces = Array.from(tickTexts).flatMap(el =>
    Array.from(el.childNodes).filter(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim())
      .map(n => [n.textContent, parseFloat(getComputedStyle(el).fontSize)]));
  const ticks = Array.from(svg.querySelectorAll("line.contrib-chart-tick")).map(el => el.dataset.value);
  const figure = svg.closest("figure");
  const unit = figure.querySelector(".contrib-metric-unit");
  return {label: figure.querySelector("figcaption").textContent, unit: unit ? unit.textContent : "",
          marks, labels, pieces, ticks};
})"""
_SUPERSCRIPTS = set("⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def labelled(browser: Any, url: str, size: str, scheme: str) -> list[dict[str, Any]]:
    context, failed = local_context(browser, scheme=scheme, viewport=SIZES[size])
    try:
        page = context.new_page()
        watch_responses(page, failed)
        page.goto(url, wait_until="networkidle")
        found: list[dict[str, Any]] = page.evaluate(_LABELS)
    finally:
        context.close()
    assert failed == []
    return found


def gap(a: dict[str, float], b: dict[str, float]) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(0.0, a["left"] - b["right"], b["left"] - a["right"])
    dy = max(0.0, a["top"] - b["bottom"], b["top"] - a["bottom"])
    return float((dx * dx + dy * dy) ** 0.5)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_each_row_label_sits_beside_its_own_mark(browser: Any, base_url: str, size: str, scheme: str) -> None:
    """On the drift chart the "before" label sat at the left edge, 165 px (phone) and 474 px (laptop) from
    its mark near the right."""
    far = []
    for path in PAGES:
        for chart in labelled(browser, base_url + path, size, scheme):
            assert [label["text"] for label in chart["labels"]] == ["before", "after"], chart["label"]
            for label, mark in zip(chart["labels"], chart["marks"], strict=True):
                if gap(label, mark) > 10:
                    far.append((path, chart["label"], label["text"], round(gap(label, mark))))
    assert far == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_tick_labels_are_12_px_and_up_exponents_included(browser: Any, base_url: str, size: str, scheme: str) -> None:
    """A decade's exponent was a superscript character (``10⁻⁶``), drawn about 8 px high on a phone."""
    small = []
    seen = 0
    for path in PAGES:
        for chart in labelled(browser, base_url + path, size, scheme):
            for text, font_size in chart["pieces"]:
                seen += 1
                if font_size < 12 or _SUPERSCRIPTS & set(text):
                    small.append((path, chart["label"], text, font_size))
    assert seen >= 8 and small == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_counts_axis_ends_at_its_whole(browser: Any, base_url: str, size: str) -> None:
    """``139`` with ``:unit: of 140``: the axis' last tick is 140 (it ended at 139, the larger value), and
    the bars are drawn to that axis (``test_marks_sit_where_the_labelled_axis_puts_them``)."""
    counts = [
        (chart["unit"], float(chart["ticks"][-1]))
        for chart in labelled(browser, base_url + PAGES[1], size, "light")
        if chart["unit"].startswith("of ")
    ]
    assert counts == [("of 140", 140), ("of 16", 16)]
