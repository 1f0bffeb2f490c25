"""Property-based tests (hypothesis) of the metric and header options: real values of every kind (floats
with subnormals, huge, negative, zero; ``nan``/``inf`` text; any Unicode text) give a figure or header that
is right, or a warning, never a traceback.

The pure functions (parsers, the change in words, the bars, the SVG, the text and JSON forms) take
:data:`PURE_EXAMPLES` examples each: 10,000 when ``CI`` is set, fewer locally (``PROPERTY_EXAMPLES``
overrides both). A Sphinx build per example would be too slow for that many, so the directive → build
path batches many metrics (or headers) into one site per example and takes :data:`BUILD_EXAMPLES`.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import tempfile
from collections.abc import Callable
from decimal import Decimal
from importlib import resources
from io import StringIO
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sphinx.testing.util import SphinxTestApp

from sphinx_contributions import keys, options
from sphinx_contributions.options import OptionError
from sphinx_contributions.records import Metric
from sphinx_contributions.render.metric import chart, metric_svg

from .htmltools import one, soup

CI = bool(os.environ.get("CI"))
PURE_EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES") or (10_000 if CI else 500))
BUILD_EXAMPLES = max(1, PURE_EXAMPLES // 250)  # 40 sites under CI, each with METRICS_PER_PAGE figures
METRICS_PER_PAGE = 30
HEADERS_PER_SITE = 8

PURE = settings(max_examples=PURE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BUILDS = settings(
    max_examples=BUILD_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

SCHEMA = json.loads(
    (resources.files("sphinx_contributions") / "schema" / "contributions.schema.json").read_text(encoding="utf-8")
)
#: one metric of contributions.json, checked against its part of the schema (compiled once: 10,000 checks)
METRIC_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA["$defs"]["contribution"]["properties"]["metrics"]["items"])

# -- strategies -------------------------------------------------------------------------------------------

#: every float a value can be: subnormals, the largest, negative, both zeros (nan and inf come as text)
finite = st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True)
edges = st.sampled_from([0.0, -0.0, 5e-324, 1e-320, 2.2250738585072014e-308, 1.0, 1e308, 1.7976931348623157e308])
values = st.one_of(finite, edges, edges.map(lambda v: -v))


def _as_texts(value: float) -> st.SearchStrategy[str]:
    return st.sampled_from([repr(value), f"{value:e}", f"{value:.3g}", f"{value:.17g}", f"{value:f}"])


number_text = st.one_of(
    values.flatmap(_as_texts),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.from_regex(r"\A[+-]?[0-9]{0,4}(\.[0-9]{0,4})?([eE][+-]?[0-9]{1,3})?\Z"),
    st.sampled_from(["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e400", "1e-400", "3e-324", "", " ", "~"]),
    st.text(max_size=12),
)
#: what an author may write for ``:before:``/``:after:``: a number, approximate or not, or anything
value_text = st.one_of(number_text, number_text.map(lambda t: "~" + t), number_text.map(lambda t: "≈ " + t))
#: any Unicode text (no surrogates: a source file is UTF-8)
any_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)


def one_line(text: str) -> str:
    """What an author can put on one option line: line breaks become spaces."""
    return " ".join(text.splitlines()) if text else text


metrics = st.builds(
    Metric,
    label=any_text,
    before=values,
    after=values,
    before_text=st.just(""),
    after_text=st.just(""),
    unit=any_text,
    better=st.sampled_from(["lower", "higher"]),
    before_approximate=st.booleans(),
    after_approximate=st.booleans(),
    expect=st.sampled_from([None, "hold"]),
).map(lambda m: Metric(**{**m.__dict__, "before_text": repr(m.before), "after_text": repr(m.after)}))

# -- reading the words back ---------------------------------------------------------------------------------

_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def number_in(text: str) -> Decimal:
    """``54,000`` / ``2.5`` / ``1.2×10⁸`` → the number."""
    mantissa, _, exponent = text.replace(",", "").partition("×10")
    return Decimal(mantissa).scaleb(int(exponent.translate(_DIGITS)) if exponent else 0)


def within_rounding(shown: Decimal, exact: Decimal, figures: int) -> bool:
    """``shown`` is ``exact`` rounded to ``figures`` significant figures (half a unit in the last place)."""
    return abs(shown - exact) <= Decimal(5).scaleb(exact.adjusted() - figures) * Decimal("1.000001")


def check_words(m: Metric) -> None:
    """The words say the right direction and the right size."""
    words = m.change_words()
    before, after = Decimal(m.before), Decimal(m.after)
    if m.expect == "hold":
        if before == after:
            assert words == "held"
            return
        prefix = "held, " if m.improved else "not held: "
        assert words.startswith(prefix), words
        words = words[len(prefix) :]
    if before == after:
        assert words == "unchanged"
        return
    direction = "higher" if after > before else "lower"
    figures = 1 if m.approximate else 2
    if before > 0 and after > 0 and m.approximate:  # no more precise than the values: a true lower bound
        ratio = max(before, after) / min(before, after)
        match = re.fullmatch(rf"(?:more than (?P<n>10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]*)× )?{direction}", words)
        assert match, words
        if match["n"]:
            power = int(match["n"][2:].translate(_DIGITS) or "1")
            assert Decimal(10).scaleb(power - 1) < ratio, (words, ratio)
    elif before > 0 and after > 0:
        ratio = max(before, after) / min(before, after)
        if ratio < 2:
            match = re.fullmatch(rf"(?:≈(?P<p>[0-9.,]+)|<0\.01)% {direction}", words)
            assert match, words
            percent = abs(after - before) / before * 100
            if match["p"] is None:
                assert percent < Decimal("0.01")
            else:
                assert within_rounding(number_in(match["p"]), percent, figures), (words, percent)
        else:
            match = re.fullmatch(rf"≈(?P<n>[0-9.,]+(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?)× {direction}", words)
            assert match, words
            assert within_rounding(number_in(match["n"]), ratio, figures), (words, ratio)
    elif before == 0:
        assert words == ("up from 0" if after > 0 else "down from 0")
    elif after == 0:
        assert words == ("down to 0" if before > 0 else "up to 0")
    else:
        crossing_words = r"(?:, from (?:negative to positive|positive to negative))?"
        match = re.fullmatch(rf"{direction} by (?P<d>[-0-9.,]+(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?){crossing_words}", words)
        assert match, words
        crossing = (before < 0) != (after < 0)
        assert words.endswith("positive") == (crossing and after > 0)
        assert within_rounding(number_in(match["d"]), abs(after - before), 1 if m.approximate else 3), words


# -- the pure functions --------------------------------------------------------------------------------------


@PURE
@given(text=value_text, name=st.sampled_from(["before", "after"]))
def test_a_value_is_read_or_refused(text: str, name: str) -> None:
    try:
        value, shown, approximate = options.parse_value(text, name)
    except OptionError as error:
        assert str(error).startswith(f"{name} ")
        return
    assert math.isfinite(value)
    assert shown.lstrip("~≈") == text.strip().lstrip("~≈").strip()
    assert approximate == (shown[:1] in ("~", "≈"))
    # the value shown is the value kept: the digits written, to what a double holds
    written = Decimal(shown.lstrip("~≈"))
    if written != 0:
        assert value != 0
        assert abs(Decimal(value) - written) <= abs(written) * Decimal("1e-14") or written.adjusted() < -307


@PURE
@given(m=metrics)
def test_words_are_right_over_the_whole_range(m: Metric) -> None:
    check_words(m)


@PURE
@given(m=metrics)
def test_a_chart_only_where_truthful_and_agreeing_with_the_words(m: Metric) -> None:
    drawn = chart(m)
    svg = metric_svg(m)
    if m.before < 0 or m.after < 0 or max(m.before, m.after) == 0 or m.before == m.after:
        assert (drawn, svg) == (None, "")  # no truthful chart, or two equal values: no pair of equal bars
        assert m.chart is None or m.before == m.after
        return
    assert drawn is not None and drawn.scale == m.chart
    before, after = drawn.before, drawn.after
    assert all(math.isfinite(v) and 0 <= v <= 1 + 1e-12 for v in (before, after))
    assert (after > before) == (m.after > m.before)
    assert len(drawn.ticks) >= 2 and drawn.ticks[0].at == 0  # a labelled axis, from its first tick
    assert [t.at for t in drawn.ticks] == sorted(t.at for t in drawn.ticks)
    if m.chart == "linear":  # bars from zero, proportional to the values, to the axis' end
        whole = m.whole or max(m.before, m.after)  # a count ("of 140") is drawn to its whole
        assert max(before, after) == max(m.before, m.after) / whole and float(drawn.ticks[0].value) == 0
        assert drawn.ticks[-1].at == 1 or not m.whole
        assert math.isclose(before * whole, m.before, rel_tol=1e-9, abs_tol=1e-300)
    else:  # marks on a decade axis: each at log10(value) between its first and last ticks
        assert m.chart == "log" and min(m.before, m.after) > 0
        lo, hi = (int(t.value.removeprefix("1e")) for t in (drawn.ticks[0], drawn.ticks[-1]))
        assert drawn.ticks[-1].at == 1
        for value, at in ((m.before, before), (m.after, after)):
            assert math.isclose(at, (math.log10(value) - lo) / (hi - lo), abs_tol=1e-9)
    root = ET.fromstring(svg)  # well-formed, with nothing of the page's text in it
    assert root.get("data-scale") == {"linear": "linear scale from 0", "log": "log scale"}[m.chart]
    marks = "rect" if m.chart == "linear" else "circle"
    assert [e.get("class") for e in root.iter(f"{{http://www.w3.org/2000/svg}}{marks}")] == [
        f"contrib-chart-{'bar' if marks == 'rect' else 'mark'} contrib-chart-before",
        f"contrib-chart-{'bar' if marks == 'rect' else 'mark'} contrib-chart-after",
    ]
    # the chart's words in order (the newlines between its elements keep them apart in the search's text)
    assert "".join("".join(root.itertext()).split()) == "beforeafter" + "".join("".join(t.raised) for t in drawn.ticks)


@PURE
@given(m=metrics)
def test_text_and_json_forms(m: Metric) -> None:
    text = m.as_text()
    assert text.startswith(f"{m.label}: {m.before_text}")
    assert f"({m.change_words()}; " in text
    data = m.as_json()
    json.dumps(data, allow_nan=False)  # finite numbers only
    if m.label:
        METRIC_VALIDATOR.validate(data)
    assert data["change"] == m.change_words()


#: the header's parsers, each given any text
HEADER_PARSERS = [
    options.parse_repo,
    lambda v: options.parse_positive_int(v, "pr"),
    lambda v: options.parse_int_list(v, "issue"),
    options.parse_tags,
    options.parse_status,
    options.parse_date,
    lambda v: options.parse_text(v, "summary"),
    options.parse_expect,
    options.parse_better,
]


@PURE
@given(text=any_text)
def test_header_options_are_read_or_refused(text: str) -> None:
    for parse in HEADER_PARSERS:
        with contextlib.suppress(OptionError):
            parse(text)
    slug = keys.slugify(text)
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slug) and len(slug) <= keys.MAX_SLUG
    assert options.is_placeholder(text) in (True, False)


# -- the directives, through real builds ---------------------------------------------------------------------

CONF = """\
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_theme = "basic"
html_baseurl = "https://example.org/"
exclude_patterns = ["_build"]
"""
INDEX = "# Site\n\n```{toctree}\n:glob:\n\n*\n```\n"
SECTIONS = ":::{problem}\np\n:::\n\n:::{root-cause}\nr\n:::\n\n:::{fix}\nf\n:::\n\n"


#: what a property checks in a built site: its output folder, its warnings, its contributions.json records
Check = Callable[[Path, str, list[dict[str, Any]]], None]


def build_site(pages: dict[str, str], check: Check) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srcdir = Path(tmp) / "src"
        srcdir.mkdir()
        (srcdir / "conf.py").write_text(CONF, encoding="utf-8")
        (srcdir / "index.md").write_text(INDEX, encoding="utf-8")
        for name, text in pages.items():
            (srcdir / name).write_text(text, encoding="utf-8")
        app = SphinxTestApp("html", srcdir=srcdir, freshenv=True, status=StringIO(), warning=StringIO())
        try:
            app.build(force_all=True)  # an exception here is the failure: never a traceback
            warnings = app.warning.getvalue()
            assert "Traceback" not in warnings and "Exception occurred" not in warnings
            exported = Path(app.outdir) / "contributions.json"
            # no published write-up, no export (exports.py): then there is no record to check either
            records: list[dict[str, Any]] = []
            if exported.is_file():
                document = json.loads(exported.read_text(encoding="utf-8"))
                jsonschema.validate(document, SCHEMA)
                records = document["contributions"]
                assert records, "contributions.json written without a record"
            check(Path(app.outdir), warnings, records)
        finally:
            app.cleanup()


metric_options = st.fixed_dictionaries(
    {"label": any_text, "before": value_text, "after": value_text},
    optional={
        "unit": any_text,
        "better": st.sampled_from(["lower", "higher", "Higher", "faster", ""]),
        "expect": st.sampled_from(["hold", "Hold", "same", ""]),
    },
)


def metric_block(options: dict[str, str]) -> str:
    lines = [f":::{{metric}} {one_line(options['label'])}".rstrip()]
    lines += [f":{name}: {one_line(value)}".rstrip() for name, value in options.items() if name != "label"]
    return "\n".join([*lines, ":::"])


@BUILDS
@given(batch=st.lists(metric_options, min_size=METRICS_PER_PAGE, max_size=METRICS_PER_PAGE))
def test_any_metric_options_build(batch: list[dict[str, str]]) -> None:
    page = (
        ("# Figures\n\n:::{contribution}\n:repo: owner/repo\n:pr: 1\n:summary: Figures.\n:::\n\n" + SECTIONS)
        + "::::{verification}\nv\n\n"
        + "\n\n".join(metric_block(options) for options in batch)
        + "\n::::\n"
    )

    def check(outdir: Path, warnings: str, records: list[dict[str, Any]]) -> None:
        html = soup(outdir / "figures.html")
        figures = html.select("figure.contrib-metric")
        refused = len(re.findall(r"WARNING: metric .* not shown: ", warnings))
        assert len(figures) + refused <= len(batch)
        assert [m["change"] for m in records[0]["metrics"]] == [
            one(f, "strong.contrib-metric-change").get_text() for f in figures
        ]
        for figure, data in zip(figures, records[0]["metrics"], strict=True):
            shown = [float(str(d["value"])) for d in figure.find_all("data")]
            held = data["expect"] == "hold" and data["before"] == data["after"]
            # a check that held shows its one value, as a check; any other figure both
            assert shown == ([data["before"]] if held else [data["before"], data["after"]])
            m = Metric(
                data["label"],
                data["before"],
                data["after"],
                "",
                "",
                better=data["better"],
                before_approximate=data["approximate"]["before"],
                after_approximate=data["approximate"]["after"],
                expect=data["expect"],
            )
            check_words(m)
            assert f"contrib-metric-{m.verdict}" in figure["class"]
            # drawn where it has a scale and two different values (equal values draw no pair of equal bars)
            assert (figure.find("svg") is None) == (m.chart is None or m.before == m.after)

    build_site({"figures.md": page}, check)


header_options = st.fixed_dictionaries(
    {"title": any_text, "repo": st.one_of(st.just("owner/repo"), any_text), "summary": any_text},
    optional={
        "pr": st.one_of(st.integers(1, 10**9).map(str), any_text),
        "issue": st.one_of(st.just("1, 2"), any_text),
        "status": st.one_of(st.sampled_from(["merged", "open", "closed", "draft"]), any_text),
        "tags": any_text,
        "project": any_text,
        "date": st.one_of(st.dates().map(str), any_text),
    },
)


def header_page(options: dict[str, str], number: int) -> str:
    options = {"pr": str(number), **options}
    title = one_line(options.pop("title"))
    lines = [f"# {title}".rstrip(), "", ":::{contribution}"]
    lines += [f":{name}: {one_line(value)}".rstrip() for name, value in options.items()]
    return "\n".join([*lines, ":::", "", SECTIONS, ":::{verification}\nv\n:::\n"])


@BUILDS
@given(batch=st.lists(header_options, min_size=HEADERS_PER_SITE, max_size=HEADERS_PER_SITE))
def test_any_header_options_build(batch: list[dict[str, str]]) -> None:
    pages = {f"p{i}.md": header_page(options, i + 1) for i, options in enumerate(batch)}

    def check(outdir: Path, warnings: str, records: list[dict[str, Any]]) -> None:
        drafts = sum(bool(re.search(r"(?im)^:status:\s*draft\s*$", text)) for text in pages.values())
        written = [name for name in pages if (outdir / name.replace(".md", ".html")).is_file()]
        assert len(written) >= len(pages) - drafts  # no page dropped, drafts aside
        assert len(records) <= len(pages)
        for record in records:
            assert record["title"] and record["summary"]

    build_site(pages, check)


@PURE
@given(
    before=st.integers(min_value=0, max_value=10**6),
    after=st.integers(min_value=0, max_value=10**6),
    extra=st.integers(min_value=0, max_value=10**6),
)
def test_a_counts_axis_ends_at_its_whole(before: int, after: int, extra: int) -> None:
    """``139`` of 140: the last labelled tick is the whole, evenly spaced ticks before it (none closer to it
    than half a step), the bars drawn to it."""
    whole = max(before, after, 1) + extra
    m = Metric("Count", before, after, str(before), str(after), unit=f"of {whole}")
    drawn = chart(m)
    if before == after:
        assert drawn is None
        return
    assert drawn is not None and drawn.scale == "linear"
    assert float(drawn.ticks[-1].value) == whole and drawn.ticks[-1].at == 1
    assert math.isclose(drawn.after * whole, after, abs_tol=1e-9)
    values = [Decimal(t.value) for t in drawn.ticks]
    assert values[0] == 0 and 2 <= len(values) <= 7
    assert all(v == v.to_integral_value() for v in values)  # a count of things: whole numbers
    steps = [b - a for a, b in itertools.pairwise(values)]
    assert len(set(steps[:-1])) <= 1 and steps[-1] >= steps[0] / 2, values  # even, the last no closer than half
