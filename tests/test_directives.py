"""The page directives on a small, valid site (``tests/roots/test-contrib-pages``): the ``contribution``
header with every option, the four sections, the ``metric`` figures, and the domain's objects.

``full.md`` uses every option; ``minimal.md`` only the required ones; ``escaping.md`` puts markup and
quotes in every text that comes from the page. The site is built once, strictly, for the module."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from bs4 import BeautifulSoup, Tag
from docutils import nodes
from sphinx.testing.util import SphinxTestApp
from sphinx.util.inventory import InventoryFile

from sphinx_contributions.collect.domain import get_domain

from .conftest import ROOTS, MakeApp
from .htmltools import one

FULL_TITLE = "Fix UMT5 decoder self-attention not being causal"


@pytest.fixture
def app(contrib_pages_app: SphinxTestApp) -> SphinxTestApp:
    return contrib_pages_app


def soup(app: SphinxTestApp, page: str) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / f"{page}.html").read_text(encoding="utf-8"), "html.parser")


def header(app: SphinxTestApp, page: str) -> Tag:
    block = soup(app, page).find(id="contribution")
    assert isinstance(block, Tag)
    return block


def test_valid_pages_build_strictly_without_a_warning(app: SphinxTestApp) -> None:
    assert app.warning.getvalue() == ""
    assert app.statuscode == 0


# -- the header block ------------------------------------------------------------------------------


def test_header_shows_every_option(app: SphinxTestApp) -> None:
    block = header(app, "full")
    assert "contrib-header" in block["class"]
    assert block.select_one(".contrib-card.contrib-header-card > .contrib-card-body") is not None  # a card
    project = block.select_one("a.contrib-project")
    assert project is not None
    assert (project.get_text(), project["href"]) == (
        "Hugging Face Transformers",
        "projects/hugging-face-transformers.html",
    )
    # the pull request and each issue as buttons, marked as leaving the site (the arrow is not read out)
    actions = [(a.get_text(), a["href"], a["class"]) for a in block.select(".contrib-actions > a")]
    assert [(text, href) for text, href, _ in actions] == [
        ("Pull request #49135 ↗", "https://github.com/huggingface/transformers/pull/49135"),
        ("Issue #49134 ↗", "https://github.com/huggingface/transformers/issues/49134"),
        ("Issue #49200 ↗", "https://github.com/huggingface/transformers/issues/49200"),
        ("Issue #49201 ↗", "https://github.com/huggingface/transformers/issues/49201"),
    ]
    assert {"contrib-button", "contrib-button-primary", "contrib-pr-link"} <= set(actions[0][2])
    assert all("contrib-issue-link" in classes for _, _, classes in actions[1:])
    assert [span.get("aria-hidden") for span in block.select(".contrib-actions .contrib-external-mark")] == ["true"] * 4
    meta = block.select_one(".contrib-header-meta")
    assert meta is not None
    repo = meta.select_one("a.contrib-repo-link")
    assert repo is not None
    assert (repo.get_text(), repo["href"]) == (
        "huggingface/transformers",
        "https://github.com/huggingface/transformers",
    )
    badge = block.select_one(".contrib-state")
    assert badge is not None
    assert badge.get_text() == "merged"
    assert {"contrib-badge", "contrib-state-merged"} <= set(badge["class"])
    date = block.select_one(".contrib-date")
    assert date is not None and date.get_text() == "2025-11-02"
    summary = block.select_one(".contrib-summary")
    assert summary is not None
    assert summary.get_text() == (
        "Restored causality for every UMT5 model trained through the default Seq2SeqTrainer path."
    )
    # each tag is one write-up's (contributions_tag_page_min: 2) and the site has no list to filter: the
    # tags are shown, not linked
    tags = [span.get_text() for span in block.select(".contrib-tags span.contrib-tag")]
    assert tags == ["attention correctness", "SDPA", "seq2seq training"]
    assert block.select(".contrib-tags a") == []
    assert all("contrib-badge" in span["class"] for span in block.select(".contrib-tags span.contrib-tag"))
    # the headline figure (here the first) as a stat: the label, the values in large type, the change in
    # words; the other figures are drawn in Verification only
    stats = [
        (one(s, "dt").get_text(), one(s, ".contrib-stat-values").get_text(), one(s, ".contrib-stat-change").get_text())
        for s in block.select("dl.contrib-stats > .contrib-stat")
    ]
    assert stats == [
        ("Position-0 log-probability drift", "1.03e-1 → 1.91e-6", "≈54,000× lower"),
    ]
    assert [v.get_text() for v in block.select(".contrib-stat-value")] == ["1.03e-1", "1.91e-6"]
    assert block.select(".contrib-metrics-brief") == []


def test_header_leaves_out_what_is_not_stated(app: SphinxTestApp) -> None:
    block = header(app, "minimal")
    project = block.select_one("a.contrib-project")
    assert project is not None and project.get_text() == "CTranslate2"  # default: the repository's name
    assert project["href"] == "projects/ctranslate2.html"
    pr = block.select_one("a.contrib-pr-link")
    assert pr is not None and pr["href"] == "https://github.com/OpenNMT/CTranslate2/pull/2103"
    assert block.select("dl.contrib-stats") == []
    assert block.select(".contrib-state") == []  # no status: no badge, and no word for it
    assert not re.search(r"\b(merged|open|closed|draft)\b", block.get_text())
    assert block.select(".contrib-issue-link") == []
    assert block.select(".contrib-tags") == []
    assert block.select(".contrib-date") == []
    assert block.select(".contrib-metrics-brief") == []


def test_header_one_issue_and_other_state(app: SphinxTestApp) -> None:
    block = header(app, "escaping")
    assert [a.get_text() for a in block.select("a.contrib-issue-link")] == ["Issue #5 ↗"]
    assert [a["href"] for a in block.select("a.contrib-issue-link")] == [
        "https://github.com/someone/escape-test/issues/5"
    ]
    badge = block.select_one(".contrib-state")
    assert badge is not None and badge.get_text() == "open" and "contrib-state-open" in badge["class"]


def test_header_comes_first_then_the_sections_in_order(app: SphinxTestApp) -> None:
    body = soup(app, "full").select_one("section#fix-umt5-decoder-self-attention-not-being-causal")
    assert body is not None
    order = [
        child.get("id") or " ".join(child["class"]) for child in body.find_all(["div", "section"], recursive=False)
    ]
    # then the end of the page, which Sphinx's search leaves out (its class on the block that holds it)
    assert order == ["contribution", "problem", "root-cause", "fix", "verification", "no-search"]
    assert [nav["class"] for nav in body.find_all("div", recursive=False)[-1].find_all("nav")] == [["contrib-end"]]


# -- the sections ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "anchor", "heading"),
    [
        ("full", "problem", "Problem"),
        ("full", "root-cause", "Where it went wrong"),  # the optional argument overrides the heading
        ("full", "fix", "Fix"),
        ("full", "verification", "Verification"),
        ("minimal", "root-cause", "Root cause"),
    ],
)
def test_section_heading_and_anchor(app: SphinxTestApp, page: str, anchor: str, heading: str) -> None:
    section = soup(app, page).find("section", id=anchor)
    assert isinstance(section, Tag)
    assert "contrib-section" in section["class"]
    title = section.find("h2")
    assert isinstance(title, Tag)
    assert title.get_text().rstrip("¶") == heading
    link = title.find("a", class_="headerlink")
    assert isinstance(link, Tag) and link["href"] == f"#{anchor}"


def test_sections_are_in_the_local_toc(app: SphinxTestApp) -> None:
    toc = app.env.tocs["full"]
    entries = [(ref.astext(), ref["anchorname"]) for ref in toc.findall(nodes.reference)]
    assert entries == [
        (FULL_TITLE, ""),
        ("Problem", "#problem"),
        ("Where it went wrong", "#root-cause"),
        ("Fix", "#fix"),
        ("Verification", "#verification"),
    ]


def test_section_bodies_are_ordinary_myst(app: SphinxTestApp) -> None:
    fix = soup(app, "full").find("section", id="fix")
    assert isinstance(fix, Tag)
    code = fix.find("code")
    assert isinstance(code, Tag) and code.get_text() == "is_causal=config.is_decoder"


# -- the metric figures ----------------------------------------------------------------------------


def figures(app: SphinxTestApp, page: str = "full") -> dict[str, Tag]:
    found = {}
    for figure in soup(app, page).select("figure.contrib-metric"):
        caption = figure.find("figcaption")
        assert isinstance(caption, Tag)
        found[caption.get_text()] = figure
    return found


def places(figure: Tag) -> tuple[float, float]:
    """Where the chart puts before and after, in percent of its width: a linear bar's length, a log mark's
    centre."""
    found = []
    for name in ("before", "after"):
        mark = figure.select_one(f"svg rect.contrib-chart-{name}, svg circle.contrib-chart-{name}")
        assert mark is not None
        found.append(float(str(mark.get("width") or mark["cx"]).rstrip("%")))
    return found[0], found[1]


@pytest.mark.parametrize(
    ("label", "values", "change", "verdict", "scale", "hidden"),
    [
        (
            "Position-0 log-probability drift",
            "before 1.03e-1 → after 1.91e-6",
            "≈54,000× lower",
            "better",
            "log scale",
            " (lower is better; chart on a log scale)",
        ),
        (
            "Bias tables kept",
            "before 2 of 16 → after 16 of 16",
            "≈8× higher",
            "better",
            "linear scale from 0",
            " (higher is better; chart on a linear scale from 0)",
        ),
        (
            "Tests passed",
            "before 196 → after 196",
            "unchanged",
            "same",
            None,  # equal values: no pair of equal bars
            " (higher is better)",
        ),
        (
            "Valid prompts",
            "before 0 of 140 → after 139 of 140",
            "up from 0",
            "better",
            "linear scale from 0",
            " (higher is better; chart on a linear scale from 0)",
        ),
    ],
)
def test_metric_figure(
    app: SphinxTestApp, label: str, values: str, change: str, verdict: str, scale: str | None, hidden: str
) -> None:
    figure = figures(app)[label]
    assert f"contrib-metric-{verdict}" in figure["class"]
    paragraph = figure.select_one(".contrib-metric-values")
    assert paragraph is not None
    strong = paragraph.select_one("strong.contrib-metric-change")
    assert strong is not None and strong.get_text() == change
    # what a screen reader reads: the values, the change, the direction and the scale, as text
    assert paragraph.get_text() == f"{values} {change}{hidden}"
    sr_only = paragraph.select_one(".contrib-visually-hidden")
    assert sr_only is not None and sr_only.get_text() == hidden
    arrow = paragraph.select_one(".contrib-metric-arrow")
    assert arrow is not None and arrow["aria-hidden"] == "true"
    svg = figure.find("svg")
    if scale is None:
        assert svg is None and figure.select_one(".contrib-metric-scale") is None
        return
    assert isinstance(svg, Tag)
    assert svg["aria-hidden"] == "true"  # the chart is decoration beside its text equivalent
    assert svg["data-scale"] == scale
    shown = figure.select_one(".contrib-metric-scale")  # for sighted readers, beside the bars
    assert shown is not None and shown.get_text() == scale and shown["aria-hidden"] == "true"


EVIDENCE = [  # (text, href, kind) of the full page's first figure, in the order the page gives them
    ("PR #49135", "https://github.com/huggingface/transformers/pull/49135", "pr"),
    ("issue #49134", "https://github.com/huggingface/transformers/issues/49134", "issue"),
    ("PR huggingface/transformers#47014", "https://github.com/huggingface/transformers/pull/47014", "pr"),
    ("commit OpenNMT/CTranslate2@0123abc", "https://github.com/OpenNMT/CTranslate2/commit/0123abcdef", "commit"),
    ("commit 89abcde", "https://github.com/huggingface/transformers/commit/89abcdef12", "commit"),
    ("release notes", "https://example.org/notes", "link"),
    ("example.org/ci/run/1", "https://example.org/ci/run/1/", "link"),
]


def test_metric_cites_its_evidence(app: SphinxTestApp) -> None:
    """``:evidence:`` items become links beside the figure: short forms in the page's own repository."""
    line = figures(app)["Position-0 log-probability drift"].select_one("p.contrib-metric-evidence")
    assert line is not None
    links = line.find_all("a")
    assert [(a.get_text(), a["href"], a["class"][-1]) for a in links] == [
        (text, href, f"contrib-evidence-{kind}") for text, href, kind in EVIDENCE
    ]
    assert all(a["rel"] == ["noopener", "noreferrer"] for a in links)
    assert line.get_text() == "evidence " + ", ".join(text for text, _, _ in EVIDENCE)
    assert figures(app)["Bias tables kept"].select_one(".contrib-metric-evidence") is None  # none given


def test_metric_evidence_in_the_record_and_json(app: SphinxTestApp) -> None:
    record = get_domain(app.env).contributions["full"]
    assert [(e.text, e.url, e.kind) for e in record.metrics[0].evidence] == EVIDENCE
    data = json.loads((Path(app.outdir) / "contributions.json").read_text(encoding="utf-8"))
    (full,) = (r for r in data["contributions"] if r["key"] == "transformers#49135")
    assert full["metrics"][0]["evidence"] == [{"kind": k, "text": t, "url": u} for t, u, k in EVIDENCE]
    assert full["metrics"][1]["evidence"] == []


def test_metric_evidence_is_escaped(app: SphinxTestApp) -> None:
    html = (Path(app.outdir) / "escaping.html").read_text(encoding="utf-8")
    assert (
        '<a class="reference external contrib-evidence-link" href="https://example.org/?q=1&amp;y=&quot;2&quot;"'
        in html
    )
    (link,) = figures(app, "escaping")['<script>alert("label")</script> & "drift"'].select(".contrib-metric-evidence a")
    assert link.get_text() == 'a "quoted" & text'


def test_metric_values_are_machine_readable(app: SphinxTestApp) -> None:
    figure = figures(app)["Position-0 log-probability drift"]
    assert [(d["value"], d.get_text()) for d in figure.find_all("data")] == [
        ("0.103", "1.03e-1"),
        ("1.91e-06", "1.91e-6"),
    ]


def test_metric_log_scale_puts_marks_on_a_labelled_decade_axis(app: SphinxTestApp) -> None:
    figure = figures(app)["Position-0 log-probability drift"]
    before, after = places(figure)
    # log axis from 1e-6 (the power of ten below 1.91e-6) to 1 (above 1.03e-1), a labelled tick every
    # second decade (at most five labels: a phone's width), a short unlabelled tick at each one between
    assert after == pytest.approx(100 * (math.log10(1.91e-6) + 6) / 6, abs=0.001)
    assert before == pytest.approx(100 * (math.log10(1.03e-1) + 6) / 6, abs=0.001)
    labels = figure.select("svg text.contrib-chart-tick-label")
    assert [t.get_text() for t in labels] == ["10−6", "10−4", "10−2", "1"]
    # the exponent raised in a text of its own (a superscript character is drawn about 8 px high)
    assert [[e.get_text() for e in t.select("tspan.contrib-chart-exponent")] for t in labels] == [
        ["−6"],
        ["−4"],
        ["−2"],
        [],
    ]
    ticks = figure.select("svg line.contrib-chart-tick")
    assert [t["data-value"] for t in ticks] == [f"1e{k}" for k in (-6, -4, -2, 0)]
    assert [float(str(t["x1"]).rstrip("%")) for t in figure.select("svg line.contrib-chart-tick")] == pytest.approx(
        [100 * k / 6 for k in (0, 2, 4, 6)], abs=0.001
    )
    minor = [float(str(t["x1"]).rstrip("%")) for t in figure.select("svg line.contrib-chart-minor-tick")]
    assert minor == pytest.approx([100 * k / 6 for k in (1, 3, 5)], abs=0.001)
    assert figure.select("svg rect") == []  # marks on the axis, no bars from an arbitrary power of ten


def test_metric_linear_scale_is_proportional_from_zero(app: SphinxTestApp) -> None:
    figure = figures(app)["Bias tables kept"]  # 2 → 16
    before, after = places(figure)
    assert before == pytest.approx(100 * 2 / 16, abs=0.001)
    assert after == pytest.approx(100, abs=0.001)
    # a count (":unit: of 16"): the axis ends at its whole, in even steps
    assert [t.get_text() for t in figure.select("svg text.contrib-chart-tick-label")] == ["0", "4", "8", "12", "16"]
    assert figures(app)["Tests passed"].find("svg") is None  # 196 → 196: no pair of equal bars
    figure = figures(app)["Valid prompts"]  # 0 → 139 of 140: zero is no bar at all, the axis ends at 140
    before, after = places(figure)
    assert before == 0
    assert after == pytest.approx(100 * 139 / 140, abs=0.001)
    assert [t.get_text() for t in figure.select("svg text.contrib-chart-tick-label")] == ["0", "50", "100", "140"]


def test_metric_colours_come_from_css_custom_properties(app: SphinxTestApp) -> None:
    """Bars carry classes only, so furo's light and dark schemes both colour them."""
    svg = str(figures(app)["Bias tables kept"].find("svg"))
    assert "fill=" not in svg and "style=" not in svg
    css = (Path(app.outdir) / "_static" / "contributions.css").read_text(encoding="utf-8")
    assert re.search(r"\.contrib-chart-bar\.contrib-chart-before\s*\{[^}]*var\(--", css)
    assert re.search(r"\.contrib-chart-bar\.contrib-chart-after\s*\{[^}]*var\(--", css)


# -- escaping: text from the page is never markup --------------------------------------------------


def test_page_text_is_escaped_in_html(app: SphinxTestApp) -> None:
    html = (Path(app.outdir) / "escaping.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html
    assert "<b>Bold</b>" not in html and "<b>ms</b>" not in html
    page = soup(app, "escaping")
    block = header(app, "escaping")
    summary = block.select_one(".contrib-summary")
    assert summary is not None
    assert summary.get_text() == 'A summary with <script>alert("summary")</script> & "quotes".'
    assert [a.get_text() for a in block.select(".contrib-tags span.contrib-tag")] == [
        '<script>alert("tag")</script>',
        'a "quoted" & tag',
    ]
    project = block.select_one("a.contrib-project")
    assert project is not None and project.get_text() == '<b>Bold</b> "project"'
    figure = figures(app, "escaping")['<script>alert("label")</script> & "drift"']
    assert [unit.get_text() for unit in figure.select(".contrib-metric-unit")] == ["<b>ms</b>", "<b>ms</b>"]
    description = page.find("meta", attrs={"name": "description"})
    assert isinstance(description, Tag)
    assert description["content"] == 'A summary with <script>alert("summary")</script> & "quotes".'


def test_page_text_round_trips_through_json(app: SphinxTestApp) -> None:
    data = json.loads((Path(app.outdir) / "contributions.json").read_text(encoding="utf-8"))
    text = json.dumps(data)
    assert 'alert(\\"summary\\")' in text
    (record,) = (r for r in data["contributions"] if r["key"] == "escape-test#7")
    assert record["summary"] == 'A summary with <script>alert("summary")</script> & "quotes".'
    assert record["tags"] == ['<script>alert("tag")</script>', 'a "quoted" & tag']


# -- the domain: records, objects and objects.inv --------------------------------------------------


def test_records_hold_every_option(app: SphinxTestApp) -> None:
    record = get_domain(app.env).contributions["full"]
    assert (record.title, record.key, record.repo, record.pr) == (
        FULL_TITLE,
        "transformers#49135",
        "huggingface/transformers",
        49135,
    )
    assert record.issues == (49134, 49200, 49201)
    assert record.status == "merged"
    assert record.tags == ("attention correctness", "SDPA", "seq2seq training")
    assert record.project == "Hugging Face Transformers"
    assert record.date == "2025-11-02"
    assert record.sections == ("problem", "root-cause", "fix", "verification")
    assert [m.label for m in record.metrics] == [
        "Position-0 log-probability drift",
        "Bias tables kept",
        "Tests passed",
        "Valid prompts",
    ]
    assert record.lineno == 3
    minimal = get_domain(app.env).contributions["minimal"]
    assert (minimal.status, minimal.issues, minimal.tags, minimal.project, minimal.date) == (None, (), (), "", None)


def test_contribution_pages_are_orphans(app: SphinxTestApp) -> None:
    """Reached through listings, not a sidebar entry each: no 'not included in any toctree' warning."""
    assert all(app.env.metadata[doc].get("orphan") for doc in ("full", "minimal", "escaping"))
    assert "orphan" not in app.env.metadata["index"]


def test_records_hold_their_section_headings(app: SphinxTestApp) -> None:
    record = get_domain(app.env).contributions["full"]
    assert record.section_titles == (
        ("problem", "Problem"),
        ("root-cause", "Where it went wrong"),
        ("fix", "Fix"),
        ("verification", "Verification"),
    )


def test_domain_objects(app: SphinxTestApp) -> None:
    """Each write-up (in the search: priority 0) and each of its sections (-1: objects.inv only), named by
    the lowercased key, shown by title."""
    objects = {obj[0]: obj[1:] for obj in get_domain(app.env).get_objects()}
    sections = {
        f"ctranslate2#2103#{name}": (f"Add UMT5 support to CTranslate2 — {heading}", "section", "minimal", name, -1)
        for name, heading in (("problem", "Problem"), ("root-cause", "Root cause"), ("fix", "Fix"))
    }
    assert {name: value for name, value in objects.items() if name.startswith("ctranslate2#")} == {
        "ctranslate2#2103": ("Add UMT5 support to CTranslate2", "contribution", "minimal", "contribution", 0),
        **sections,
        "ctranslate2#2103#verification": (
            "Add UMT5 support to CTranslate2 — Verification",
            "section",
            "minimal",
            "verification",
            -1,
        ),
    }
    assert objects["transformers#49135#root-cause"] == (
        f"{FULL_TITLE} — Where it went wrong",
        "section",
        "full",
        "root-cause",
        -1,
    )
    assert len(objects) == 3 * 5


def test_objects_inv_lists_every_key_and_section(app: SphinxTestApp) -> None:
    with open(Path(app.outdir) / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "https://example.org/", lambda base, uri: base + uri)
    entries = inventory["contrib:contribution"]
    assert sorted(entries) == ["ctranslate2#2103", "escape-test#7", "transformers#49135"]
    assert entries["transformers#49135"].uri == "https://example.org/full.html#contribution"
    assert entries["transformers#49135"].display_name == FULL_TITLE
    assert entries["ctranslate2#2103"].uri == "https://example.org/minimal.html#contribution"
    sections = inventory["contrib:section"]
    assert len(sections) == 3 * 4
    assert sections["transformers#49135#root-cause"].uri == "https://example.org/full.html#root-cause"
    assert sections["transformers#49135#root-cause"].display_name == f"{FULL_TITLE} — Where it went wrong"
    labels = inventory["std:label"]
    assert labels["transformers-49135"].uri == "https://example.org/full.html#contribution"
    assert labels["transformers-49135-root-cause"].uri == "https://example.org/full.html#root-cause"
    assert labels["transformers-49135-root-cause"].display_name == f"{FULL_TITLE} — Where it went wrong"
    assert labels["ctranslate2-2103-fix"].display_name == "Add UMT5 support to CTranslate2 — Fix"


# -- other builders, and the title -----------------------------------------------------------------------


def test_a_text_build_holds_each_metric_as_text(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """Builders without the HTML visitor (text, latex, man …) get each figure's text equivalent."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    app = make_app("text", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    record = get_domain(app.env).contributions["full"]
    assert len(record.metrics) == 4
    text = "".join((Path(app.outdir) / "full.txt").read_text(encoding="utf-8").split())  # lines are wrapped
    for metric in record.metrics:
        assert "".join(metric.as_text().split()) in text, metric.as_text()


RAW_TITLE = "Fix <b>bold</b> & co"


def test_raw_html_in_a_title_is_text_everywhere(make_app: MakeApp, tmp_path: Path) -> None:
    """The page's heading, its <title>, the listings, the feed and the JSON all show the same text."""
    srcdir = tmp_path / "src"
    srcdir.mkdir()
    (srcdir / "conf.py").write_text((ROOTS / "test-contrib-pages" / "conf.py").read_text(encoding="utf-8"))
    (srcdir / "index.md").write_text("# Home\n\n:::{contributions}\n:::\n", encoding="utf-8")
    sections = "".join(f"\n:::{{{name}}}\nWritten.\n:::\n" for name in ("problem", "root-cause", "fix", "verification"))
    header = ":::{contribution}\n:repo: owner/raw\n:pr: 1\n:summary: S.\n:::\n"
    (srcdir / "raw.md").write_text(f"# {RAW_TITLE}\n\n{header}{sections}", encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    html = BeautifulSoup((Path(app.outdir) / "raw.html").read_text(encoding="utf-8"), "html.parser")
    h1 = html.find("h1")
    assert isinstance(h1, Tag)
    assert h1.find("b") is None
    assert h1.get_text().rstrip("¶") == RAW_TITLE
    title = html.find("title")
    assert isinstance(title, Tag) and title.get_text().startswith(RAW_TITLE + " ")
    link = soup(app, "index").select_one(".contrib-title-link")
    assert link is not None and link.get_text() == RAW_TITLE
    feed = ET.parse(Path(app.outdir) / "contributions.atom").getroot()
    assert feed.findtext("{http://www.w3.org/2005/Atom}entry/{http://www.w3.org/2005/Atom}title") == RAW_TITLE
    data = json.loads((Path(app.outdir) / "contributions.json").read_text(encoding="utf-8"))
    assert [record["title"] for record in data["contributions"]] == [RAW_TITLE]


# -- a summary's inline Markdown: rendered on pages and in listings, plain text where only text goes ------

SUMMARY_HTML = (
    'Keeps the dtype in <code class="docutils literal notranslate"><span class="pre">np.concatenate</span></code> '
    "for <em>empty</em> inputs, as <strong>the docs</strong> "
    '<a class="reference external" href="https://numpy.org/doc/stable/" rel="noopener noreferrer">promise</a>, '
    'closing <a class="reference external" href="https://github.com/numpy/numpy/issues/26999" '
    'rel="noopener noreferrer">#26999</a>; 1 &lt; 2 &amp; &lt;b&gt;raw&lt;/b&gt; stays text.'
)
SUMMARY_TEXT = (
    "Keeps the dtype in np.concatenate for empty inputs, as the docs promise, closing #26999; 1 < 2 & <b>raw</b> "
    "stays text."
)


def test_a_summary_takes_inline_markdown(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """Code, emphasis, strong text and links (``{issue}`#N``` too) in the header, the table and the cards;
    raw HTML stays text. Before, the backticks and stars showed as typed."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-summary", srcdir)
    app = make_app("html", srcdir=srcdir, freshenv=True, warningiserror=True)
    app.build()
    assert app.warning.getvalue() == ""
    summaries = [
        one.decode_contents()
        for one in (
            header(app, "numpy-27001").select_one(".contrib-summary"),
            soup(app, "index").select_one(".contrib-table tbody td:nth-of-type(4) p"),
            soup(app, "index").select_one(".contrib-card .contrib-summary"),
        )
        if one is not None
    ]
    assert summaries == [SUMMARY_HTML] * 3


def test_a_summary_is_plain_text_where_only_text_goes(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """The meta description, ``contributions.json``, the feed and the record: one plain form."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-summary", srcdir)
    app = make_app("html", srcdir=srcdir, freshenv=True, warningiserror=True)
    app.build()
    assert get_domain(app.env).contributions["numpy-27001"].summary == SUMMARY_TEXT
    description = soup(app, "numpy-27001").find("meta", attrs={"name": "description"})
    assert isinstance(description, Tag) and description["content"] == SUMMARY_TEXT
    data = json.loads((Path(app.outdir) / "contributions.json").read_text(encoding="utf-8"))
    assert [record["summary"] for record in data["contributions"]] == [SUMMARY_TEXT]
    feed = ET.parse(Path(app.outdir) / "contributions.atom").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    assert feed.findtext(f"{atom}entry/{atom}summary") == SUMMARY_TEXT


@pytest.mark.parametrize("builder", ["singlehtml", "latex"])
def test_a_summary_is_rendered_in_books(make_app: MakeApp, rootdir: Path, tmp_path: Path, builder: str) -> None:
    """Builders without templates get the summary as nodes: their own writers render the code, emphasis
    and links."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-summary", srcdir)
    app = make_app(builder, srcdir=srcdir, freshenv=True, warningiserror=True)
    app.build()
    assert app.warning.getvalue() == ""
    if builder == "latex":
        tex = "".join(path.read_text(encoding="utf-8") for path in Path(app.outdir).glob("*.tex"))
        for part in (
            r"Keeps the dtype in \sphinxcode{\sphinxupquote{np.concatenate}} for \sphinxstyleemphasis{empty} inputs",
            r"\sphinxstylestrong{the docs} \sphinxhref{https://numpy.org/doc/stable/}{promise}",
            r"\sphinxhref{https://github.com/numpy/numpy/issues/26999}{\#26999}",
        ):
            assert part in tex
        return
    page = BeautifulSoup((Path(app.outdir) / "index.html").read_text(encoding="utf-8"), "html.parser")
    summary = page.select_one(".contrib-header .contrib-summary")
    assert summary is not None and summary.get_text() == SUMMARY_TEXT
    assert [(tag.name, tag.get_text()) for tag in summary.find_all(["code", "em", "strong", "a"])] == [
        ("code", "np.concatenate"),
        ("em", "empty"),
        ("strong", "the docs"),
        ("a", "promise"),
        ("a", "#26999"),
    ]


UNKNOWN_PAGE = (
    "# Image input\n\n:::{contribution}\n:repo: owner/unknown\n:pr: 1\n:summary: S.\n:::\n\n"
    ":::{problem}\nImages were dropped.\n:::\n\n:::{root-cause}\n:unknown:\n:::\n\n"
    ":::{fix}\nAdded image input.\n:::\n\n:::{verification}\n:unknown: Not described in the pull request.\n:::\n"
)


@pytest.mark.parametrize("builder", ["html", "text"])
def test_a_section_the_sources_do_not_describe_is_one_plain_line(
    make_app: MakeApp, tmp_path: Path, builder: str
) -> None:
    """``:unknown:``: the section keeps its heading and anchor and says so in one line (the default for a
    root cause, or the author's words), with no warning that it is unwritten; the vllm-metal write-up's
    root cause restated its title instead."""
    srcdir = tmp_path / "src"
    srcdir.mkdir()
    (srcdir / "conf.py").write_text((ROOTS / "test-contrib-pages" / "conf.py").read_text(encoding="utf-8"))
    (srcdir / "index.md").write_text("# Home\n\n:::{contributions}\n:::\n", encoding="utf-8")
    (srcdir / "unknown.md").write_text(UNKNOWN_PAGE, encoding="utf-8")
    app = make_app(builder, srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    if builder == "text":
        text = (Path(app.outdir) / "unknown.txt").read_text(encoding="utf-8")
        assert "Root cause\n==========\n\nNo mechanism is known.\n" in text
        assert "Verification\n============\n\nNot described in the pull request.\n" in text
        return
    html = BeautifulSoup((Path(app.outdir) / "unknown.html").read_text(encoding="utf-8"), "html.parser")
    said = {}
    for anchor in ("root-cause", "verification"):
        section = html.find("section", id=anchor)
        assert isinstance(section, Tag) and "contrib-section-unknown" in section["class"]
        children = [child for child in section.children if isinstance(child, Tag)]
        assert [child.name for child in children] == ["h2", "p"]
        said[anchor] = (children[1]["class"], children[1].get_text())
    assert said == {
        "root-cause": (["contrib-unknown"], "No mechanism is known."),
        "verification": (["contrib-unknown"], "Not described in the pull request."),
    }


METRIC_PAGE = """# Fix the cache key

:::{{contribution}}
:repo: example/demo
:pr: 1
:summary: Two requests got one answer.
:::

:::{{problem}}
P.
:::

:::{{root-cause}}
R.
:::

:::{{fix}}
F.
:::

::::{{verification}}
{gap}:::{{metric}} Latency
:before: abc
:after: 5
:unit: ms
:bettr: lower
:::
::::
"""


@pytest.mark.parametrize("gap", ["", "\n", "Measured twice.\n\n"])
def test_metric_mistakes_inside_verification_point_at_their_line(tmp_path: Path, gap: str) -> None:
    """Issue 33: a ``metric`` first in a ``::::{verification}`` (no blank line between) had each warning
    one line too low (MyST's colon fence adds a newline before a nested fence: :func:`fence_content_offset`);
    with a blank line or text before it, the lines were already right and stay so."""
    import subprocess
    import sys

    site = tmp_path / "site"
    (site / "contributions").mkdir(parents=True)
    (site / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
    )
    (site / "index.md").write_text("# Home\n\n```{toctree}\n:glob:\ncontributions/*\n```\n")
    page = site / "contributions" / "demo-1.md"
    page.write_text(METRIC_PAGE.format(gap=gap), encoding="utf-8")
    lines = page.read_text(encoding="utf-8").splitlines()
    before, typo = lines.index(":before: abc") + 1, lines.index(":bettr: lower") + 1
    command = [sys.executable, "-m", "sphinx", "-q", "--no-color", "-b", "html", str(site), str(tmp_path / "out")]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    section = lines.index("::::{verification}") + 1
    assert done.stderr.splitlines() == [
        f"{page}:{typo}: WARNING: 'metric' has no option 'bettr': did you mean 'better'? Write ':better:' "
        "[contrib.unknown_name]",
        f"{page}:{before}: WARNING: metric 'Latency' not shown: before must be a number such as 0.5 or 1.03e-1, "
        "got 'abc' [contrib.bad_metric]",
        *(
            []
            if "Measured" in gap
            else [
                f"{page}:{section}: WARNING: section 'verification' is not written yet (it holds only comments or "
                "nothing) [contrib.unwritten_section]"
            ]
        ),
    ]


def test_myst_still_adds_a_newline_before_a_nested_colon_fence() -> None:
    """The guard of :func:`fence_content_offset`: when MyST-Parser stops adding the newline, this fails,
    and the correction goes."""
    import inspect

    from myst_parser.mdit_to_docutils.base import DocutilsRenderer

    assert 'linear_token.content = "\\n" + linear_token.content' in inspect.getsource(
        DocutilsRenderer.render_colon_fence
    )
