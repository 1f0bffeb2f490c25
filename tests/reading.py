"""What a visitor reads, measured in Chromium (the browser tests of the extension and of the site share it):
where a write-up's first section starts against the fold, whether a value is broken across lines, and
whether any text of the main column is cut with an ellipsis."""

from __future__ import annotations

from typing import Any

from .chromium import local_context, watch_responses

#: how many line boxes a piece of text takes: its client rects (Range.getClientRects over its text nodes)
#: grouped by line (rects whose vertical middles fall in one line's box are on that line)
_LINES = """
const linesOf = (node, start, end) => {
  const texts = [];
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) texts.push(t);
  const rects = [];
  let at = 0;
  for (const t of texts) {
    const from = Math.max(start, at), to = Math.min(end, at + t.length);
    if (from < to) {
      const range = document.createRange();
      range.setStart(t, from - at);
      range.setEnd(t, to - at);
      rects.push(...Array.from(range.getClientRects()).filter(r => r.width > 0));
    }
    at += t.length;
  }
  rects.sort((a, b) => a.top - b.top);
  const lines = [];
  for (const r of rects) {
    const middle = (r.top + r.bottom) / 2, line = lines[lines.length - 1];
    if (line && middle >= line.top && middle <= line.bottom) line.bottom = Math.max(line.bottom, r.bottom);
    else lines.push({top: r.top, bottom: r.bottom});
  }
  return lines.length;
};
"""

#: each value of the page's figures (the header's stat, split at its arrow; each value of a figure in
#: Verification, its "before"/"after" word with it) and the number of lines it takes
VALUES = (
    "() => {"
    + _LINES
    + """
  const found = [];
  for (const el of document.querySelectorAll(".contrib-stat-values")) {
    let at = 0;
    for (const part of el.textContent.split(" \u2192 ")) {
      found.push([part, linesOf(el, at, at + part.length)]);
      at += part.length + 3;
    }
  }
  for (const el of document.querySelectorAll(".contrib-metric-before, .contrib-metric-after")) {
    found.push([el.textContent, linesOf(el, 0, el.textContent.length)]);
  }
  return found;
}"""
)

#: every value written in the main column's text ("~1.91e-6", "139 of 140", "1.07e-06"), wherever it is (a
#: sentence, a list, a figure): [its text, the line boxes it takes]
VALUES_IN_TEXT = r"""() => {
  const found = [];
  const pattern = /~?\d[\d.]*e-\d+|\d+ of \d+/g;
  const main = document.querySelector("article[role=main]");
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (t.parentElement.closest("svg, .contrib-visually-hidden")) continue;
    for (const m of t.textContent.matchAll(pattern)) {
      const range = document.createRange();
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
      found.push([m[0], tops.size]);
    }
  }
  return found;
}"""

#: the top of the first section's heading of a write-up ("Problem"), in CSS pixels from the viewport's top
FIRST_SECTION_TOP = """() => {
  const heading = document.querySelector("section.contrib-section > h2");
  return heading ? heading.getBoundingClientRect().top : null;
}"""

#: every element of the main column whose text is cut with an ellipsis (text-overflow: ellipsis and more
#: text than its box shows)
ELLIPSIS = """() => Array.from(document.querySelectorAll("article[role=main] *"))
  .filter(el => getComputedStyle(el).textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth)
  .map(el => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 80)}`)"""


def evaluate(browser: Any, url: str, viewport: dict[str, int], scheme: str, script: str) -> Any:
    """``script`` evaluated on ``url`` in a fresh context (nothing is fetched from another host)."""
    context, failed = local_context(browser, scheme=scheme, viewport=viewport)
    try:
        page = context.new_page()
        watch_responses(page, failed)
        page.goto(url, wait_until="networkidle")
        assert page.evaluate("document.body.dataset.theme") == scheme
        found = page.evaluate(script)
    finally:
        context.close()
    assert failed == []
    return found


def evaluate_pages(browser: Any, urls: list[str], viewport: dict[str, int], scheme: str, script: str) -> dict[str, Any]:
    """``script`` evaluated on each of ``urls`` in turn, in one fresh context: {url: its answer}."""
    context, failed = local_context(browser, scheme=scheme, viewport=viewport)
    found = {}
    try:
        page = context.new_page()
        watch_responses(page, failed)
        for url in urls:
            page.goto(url, wait_until="networkidle")
            found[url] = page.evaluate(script)
    finally:
        context.close()
    assert failed == []
    return found
