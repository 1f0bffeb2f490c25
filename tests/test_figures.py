"""Figures for every input (issue 10): one page of metrics from 1e-320 to 1e308, negative and zero,
approximate and held, built with HTML and with a text builder, strictly, with no traceback; the words,
the verdict and the chart agree on every figure."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from sphinx.testing.util import SphinxTestApp

#: (label, options, the change in words, the verdict, the chart's scale or None for no chart)
FIGURES = [
    ("Subnormal to one", ":before: 1e-320\n:after: 1", "≈1×10³²⁰× higher", "worse", "log scale"),
    ("Largest to subnormal", ":before: 1e308\n:after: 1e-320", "≈1×10⁶²⁸× lower", "better", "log scale"),
    (
        "Across the range",
        ":before: -1e308\n:after: 1e308",
        "higher by 2×10³⁰⁸, from negative to positive",
        "worse",
        None,
    ),
    ("Almost double", ":before: 1\n:after: 1.996", "≈100% higher", "worse", "linear scale from 0"),
    (
        "Sign change",
        ":before: -120\n:after: 45\n:better: higher",
        "higher by 165, from negative to positive",
        "better",
        None,
    ),
    ("Both negative", ":before: -1\n:after: -3", "lower by 2", "better", None),
    ("From zero", ":before: 0\n:after: 139\n:better: higher", "up from 0", "better", "linear scale from 0"),
    ("To zero", ":before: 5\n:after: 0", "down to 0", "better", "linear scale from 0"),
    ("Zero to zero", ":before: 0\n:after: 0", "unchanged", "same", None),
    # approximate values: a change no more precise than they are (was "≈54,000×" and "≈50,000×")
    ("Approximate drift", ":before: ~1.03e-1\n:after: ~1.91e-6", "more than 10⁴× lower", "better", "log scale"),
    ("Rough drift", ":before: ~1e-1\n:after: ~2e-6", "more than 10⁴× lower", "better", "log scale"),
    ("Rough count", ":before: ~2\n:after: 16\n:better: higher", "higher", "better", "linear scale from 0"),
    ("Exact drift", ":before: 1.03e-1\n:after: 1.91e-6", "≈54,000× lower", "better", "log scale"),
    # equal values: no chart (a pair of equal bars says nothing the words do not)
    ("Tests passed", ":before: 196\n:after: 196\n:better: higher\n:expect: hold", "held", "held", None),
    (
        "More passed",
        ":before: 196\n:after: 197\n:better: higher\n:expect: hold",
        "held, ≈0.51% higher",
        "held",
        "linear scale from 0",
    ),
    (
        "Fewer passed",
        ":before: 196\n:after: 190\n:better: higher\n:expect: hold",
        "not held: ≈3.1% lower",
        "not-held",
        "linear scale from 0",
    ),
]

#: a figure whose change in words is turned off (not in FIGURES: it has no words to read)
WORDLESS = ":::{metric} Bias tables\n:before: 2\n:after: 16\n:unit: of 16\n:better: higher\n:change: off\n:::"

PAGE = (
    "# Figures\n\n:::{contribution}\n:repo: owner/figures\n:pr: 1\n:summary: Every kind of figure.\n:::\n\n"
    ":::{problem}\np\n:::\n\n:::{root-cause}\nr\n:::\n\n:::{fix}\nf\n:::\n\n::::{verification}\nv\n\n"
    + "\n\n".join(f":::{{metric}} {label}\n{options}\n:::" for label, options, *_ in FIGURES)
    + f"\n\n{WORDLESS}\n::::\n"
)


def build(rootdir: Path, tmp_path: Path, builder: str) -> SphinxTestApp:
    srcdir = tmp_path / builder
    shutil.copytree(rootdir / "test-contrib-warnings", srcdir)
    (srcdir / "figures.md").write_text(PAGE, encoding="utf-8")
    app = SphinxTestApp(
        builder, srcdir=srcdir, freshenv=True, warningiserror=True, status=StringIO(), warning=StringIO()
    )
    try:
        app.build(force_all=True)  # an exception here is the failure
    finally:
        app.cleanup()
    assert app.warning.getvalue() == ""
    assert app.statuscode == 0
    return app


@pytest.fixture(scope="module")
def html(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Tag]:
    app = build(rootdir, tmp_path_factory.mktemp("figures"), "html")
    soup = BeautifulSoup((Path(app.outdir) / "figures.html").read_text(encoding="utf-8"), "html.parser")
    found = {}
    for figure in soup.select("figure.contrib-metric"):
        caption = figure.find("figcaption")
        assert isinstance(caption, Tag)
        found[caption.get_text()] = figure
    return found


@pytest.mark.parametrize(("label", "options", "words", "verdict", "scale"), FIGURES, ids=[f[0] for f in FIGURES])
def test_every_figure_reads_right(
    html: dict[str, Tag], label: str, options: str, words: str, verdict: str, scale: str | None
) -> None:
    figure = html[label]
    change = figure.select_one("strong.contrib-metric-change")
    assert change is not None and change.get_text() == words
    assert f"contrib-metric-{verdict}" in figure["class"]
    svg = figure.find("svg")
    if scale is None:  # no truthful chart: the words alone, and no scale named
        assert svg is None and figure.select_one(".contrib-metric-scale") is None
        assert "chart" not in figure.get_text()
        return
    assert isinstance(svg, Tag) and svg["data-scale"] == scale
    marks = [svg.select_one(f"rect.contrib-chart-{n}, circle.contrib-chart-{n}") for n in ("before", "after")]
    before, after = (float(str(mark.get("width") or mark["cx"]).rstrip("%")) for mark in marks if mark is not None)
    # the chart agrees with the words: the larger value has the longer bar, or the mark further right
    if "higher" in words or words.startswith("up"):
        assert after > before
    else:
        assert "lower" in words or words.startswith("down")
        assert after < before
    assert max(before, after) <= 100
    assert len(svg.select("text.contrib-chart-tick-label")) >= 2  # a labelled axis


def test_a_figure_can_turn_its_change_words_off(html: dict[str, Tag]) -> None:
    """``:change: off``: the values and the chart, no words of change ("≈8× higher" is arithmetic no
    source states)."""
    figure = html["Bias tables"]
    assert figure.select_one(".contrib-metric-change") is None
    assert " ".join(figure.select_one(".contrib-metric-values").get_text(" ").split()) == (  # type: ignore[union-attr]
        "before 2 of 16 → after 16 of 16 (higher is better; chart on a linear scale from 0)"
    )
    assert "×" not in figure.get_text()


def test_approximate_values_are_shown_as_written(html: dict[str, Tag]) -> None:
    data = html["Approximate drift"].find_all("data")
    assert [(d["value"], d.get_text(), d.get("class")) for d in data] == [
        ("0.103", "~1.03e-1", ["contrib-metric-approximate"]),
        ("1.91e-06", "~1.91e-6", ["contrib-metric-approximate"]),
    ]


def test_held_is_said_to_screen_readers(html: dict[str, Tag]) -> None:
    hidden = html["Tests passed"].select_one(".contrib-visually-hidden")
    assert hidden is not None
    assert hidden.get_text() == " (a no-regression check, higher is better)"


def test_text_builder_says_the_same(rootdir: Path, tmp_path: Path) -> None:
    app = build(rootdir, tmp_path, "text")
    text = (Path(app.outdir) / "figures.txt").read_text(encoding="utf-8")
    text = " ".join(text.replace("-\n", "-").split())  # the text builder wraps lines, also after a hyphen
    for line in (
        "Subnormal to one: 1e-320 before, 1 after (≈1×10³²⁰× higher; lower is better)",
        "Across the range: -1e308 before, 1e308 after (higher by 2×10³⁰⁸, from negative to positive; lower is better)",
        "Tests passed: 196 before, 196 after (held; a no-regression check, higher is better)",
        "Approximate drift: ~1.03e-1 before, ~1.91e-6 after (more than 10⁴× lower; lower is better)",
        "Rough drift: ~1e-1 before, ~2e-6 after (more than 10⁴× lower; lower is better)",
        "Bias tables: 2 of 16 before, 16 of 16 after (higher is better)",
    ):
        assert line in text
