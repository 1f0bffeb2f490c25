"""The headline figure: the author marks one metric ``:headline:``; listings, cards and the JSON show
it (else the first figure); a second headline is reported and ignored."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path

from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from .conftest import ROOTS
from .htmltools import one, soup

PAGE = """\
# Two figures

:::{{contribution}}
:repo: org/omega
:pr: 9
:summary: Omega summary.
:::

:::{{problem}}
Omega problem.
:::

:::{{root-cause}}
Omega cause.
:::

:::{{fix}}
Omega fix.
:::

::::{{verification}}
:::{{metric}} Latency
:before: 200
:after: 50
:unit: ms
:::

:::{{metric}} Prompts valid
:before: 0
:after: 139
:better: higher
{headline}
:::

:::{{metric}} Errors
:before: 5
:after: 1
{second}
:::
Omega verified.
::::
"""


def build(tmp_path: Path, headline: str, second: str) -> tuple[list[str], Path]:
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-listing", src)
    (src / "omega-9.md").write_text(PAGE.format(headline=headline, second=second), encoding="utf-8")
    app = SphinxTestApp("html", srcdir=src, freshenv=True, status=StringIO(), warning=StringIO())
    try:
        app.build(force_all=True)
    finally:
        app.cleanup()
    return strip_colors(app.warning.getvalue()).splitlines(), Path(app.outdir)


def _shown(out: Path) -> str:
    row = one(soup(out / "index.html"), "section#default tr.contrib-project--omega")
    return row.select("td")[-1].get_text(strip=True)


def _json(out: Path) -> list[bool]:
    data = json.loads((out / "contributions.json").read_text(encoding="utf-8"))
    record = next(c for c in data["contributions"] if c["key"] == "omega#9")
    return [m["headline"] for m in record["metrics"]]


def test_the_marked_figure_is_the_headline(tmp_path: Path) -> None:
    warnings, out = build(tmp_path, ":headline:", "")
    assert warnings == []
    assert _shown(out) == "Prompts valid: 0 → 139"
    assert _json(out) == [False, True, False]


def test_without_a_mark_the_first_figure_is_the_headline(tmp_path: Path) -> None:
    warnings, out = build(tmp_path, "", "")
    assert warnings == []
    assert _shown(out) == "Latency: 200 ms → 50 ms (≈4× lower)"
    assert _json(out) == [False, False, False]


def test_a_second_headline_is_reported_and_ignored(tmp_path: Path) -> None:
    warnings, out = build(tmp_path, ":headline:", ":headline:")
    assert warnings == [
        # the metric opens on line 35 (MyST 5.2 numbered a directive nested in another one line late; the
        # section's content offset is corrected, read/directives.py's fence_content_offset)
        f"{tmp_path}/src/omega-9.md:35: WARNING: contribution omega#9: metric 'Errors' is a second headline; "
        "'Prompts valid' stays the headline [contrib.bad_metric]"
    ]
    assert _shown(out) == "Prompts valid: 0 → 139"
    assert _json(out) == [False, True, False]
