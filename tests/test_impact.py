"""A write-up's impact sentence (``:impact:``, inline Markdown, as the summary is read): the proof strip's
link to the write-up with the headline figure as its support, the text of cards and tables, the page's
description and link preview, ``contributions.json`` and the feed; where a page gives none, its summary
stands in. A listing's figure says its change in words only where that adds to the values (no "up from
0", no "held"). ``tests/roots/test-impact``: three write-ups, two with an impact."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from bs4 import BeautifulSoup
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from .conftest import MakeApp

ATOM = "{http://www.w3.org/2005/Atom}"


def _build(rootdir: Path, tmp: Path, builder: str) -> Path:
    srcdir = tmp / "src"
    shutil.copytree(rootdir / "test-impact", srcdir)
    app = SphinxTestApp(builder, srcdir=srcdir, status=StringIO(), warning=StringIO())
    try:
        app.build(force_all=True)
        assert strip_colors(app.warning.getvalue()) == ""
    finally:
        app.cleanup()
    return Path(app.outdir)


@pytest.fixture(scope="module")
def site(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(rootdir, tmp_path_factory.mktemp("impact"), "html")


def _soup(site: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")


def _text(node: Any) -> str:
    return " ".join(node.get_text(" ").split())


def test_the_proof_row_links_the_title_with_the_impact_and_figure_as_its_support(site: Path) -> None:
    rows = _soup(site, "index.html").select("ol.contrib-proof > li")
    # the write-up's title, shown, is the link (it was only the impact link's tooltip); the impact under it
    # keeps its own markup and its own link
    titles = [row.select_one(".contrib-proof-title a.contrib-title-link") for row in rows]
    assert [(a["href"], a.get_text(), a.get("title")) for a in titles if a is not None] == [
        ("a-1.html", "Alpha loader", None),
        ("b-2.html", "Beta mask fix", None),
        ("c-3.html", "Gamma refactor", None),
    ]
    impacts = [row.select_one(".contrib-proof-impact") for row in rows]
    assert str(impacts[0]) == (
        '<p class="contrib-proof-impact">Every <em>alpha</em> model loads through <code class="docutils literal '
        'notranslate"><span class="pre">load()</span></code>, as <a class="reference external" '
        'href="https://alpha.example/guide" rel="noopener noreferrer">the guide</a> says.</p>'
    )
    # no impact: the summary stands in
    assert [_text(p) for p in impacts] == [
        "Every alpha model loads through load() , as the guide says.",
        "Fixes the beta mask.",
        "Gamma keeps every test passing.",
    ]
    figures = [_text(row.select_one(".contrib-proof-figure")) for row in rows]
    # a change from 0 and a held check say nothing the values do not: no "up from 0", no "held"
    assert figures == [
        "0 of 12 → 12 of 12 · Models that load",
        "1e-1 → 2e-6 ≈50,000× lower · Drift",
        "40 → 40 · Tests passed",
    ]


def test_cards_and_tables_show_the_impact(site: Path) -> None:
    soup = _soup(site, "list.html")
    cards = [_text(card.select_one(".contrib-summary")) for card in soup.select(".contrib-card")]
    assert cards == [
        "Every alpha model loads through load() , as the guide says.",
        "Fixes the beta mask.",
        "Gamma keeps every test passing.",
    ]
    link = soup.select_one(".contrib-card .contrib-summary a")
    assert link is not None and link["href"] == "https://alpha.example/guide"  # in a card, its own link
    cells = [_text(row.select("td")[3]) for row in soup.select("table.contrib-table tbody tr")]
    assert cells == cards
    key_metrics = [_text(p) for p in soup.select(".contrib-card .contrib-key-metric")]
    assert key_metrics == [
        "0 of 12 → 12 of 12 Models that load",
        "1e-1 → 2e-6 ≈50,000× lower · Drift",
        "40 → 40 Tests passed",
    ]


def test_the_description_is_the_impact(site: Path) -> None:
    for page, expected in (
        ("a-1.html", "Every alpha model loads through load(), as the guide says."),
        ("b-2.html", "Fixes the beta mask."),
    ):
        soup = _soup(site, page)
        assert [m["content"] for m in soup.select('meta[name="description"]')] == [expected]
        assert [m["content"] for m in soup.select('meta[property="og:description"]')] == [expected]
        (ld,) = [json.loads(s.get_text()) for s in soup.select('script[type="application/ld+json"]')]
        assert ld["description"] == expected
    # the header keeps the summary
    header = _soup(site, "a-1.html").select_one("#contribution .contrib-summary")
    assert header is not None and _text(header) == "Adds a loader for the alpha format."


def test_exports_carry_the_impact(site: Path) -> None:
    data = json.loads((site / "contributions.json").read_text(encoding="utf-8"))
    schema = json.loads((site / "contributions.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    found = {r["key"]: (r["summary"], r["impact"]) for r in data["contributions"]}
    assert found == {
        "alpha#1": (
            "Adds a loader for the alpha format.",
            "Every alpha model loads through load(), as the guide says.",
        ),
        "beta#2": ("Fixes the beta mask.", None),
        "gamma#3": ("Refactors gamma.", "Gamma keeps every test passing."),
    }
    from xml.etree import ElementTree as ET

    feed = ET.parse(site / "contributions.atom").getroot()
    summaries = {e.findtext(f"{ATOM}title"): e.findtext(f"{ATOM}summary") for e in feed.iter(f"{ATOM}entry")}
    assert summaries == {
        "Alpha loader": "Every alpha model loads through load(), as the guide says.",
        "Beta mask fix": "Fixes the beta mask.",
        "Gamma refactor": "Gamma keeps every test passing.",
    }


def test_books_and_text_show_the_impact_in_the_proof(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    shutil.copytree(rootdir / "test-impact", tmp_path / "src")
    app = make_app("text", srcdir=tmp_path / "src", freshenv=True)
    app.build(force_all=True)
    assert strip_colors(app.warning.getvalue()) == ""
    text = (Path(app.outdir) / "index.txt").read_text(encoding="utf-8")
    assert " ".join(text.split()) == (
        'Impact ****** * alpha #1 (merged): Alpha loader. Every *alpha* model loads through "load()", as the '
        "guide says. (Models that load: 0 of 12 → 12 of 12) * beta #2: Beta mask fix. Fixes the beta mask. "
        "(Drift: 1e-1 → 2e-6 (≈50,000× lower)) * gamma #3: Gamma refactor. Gamma keeps every test passing. "
        "(Tests passed: 40 → 40)"
    )
