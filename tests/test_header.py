"""One renderer for a write-up's header (``tests/roots/test-header``): one view from the record, printed by
the site's template (html) and by one node form (every other builder), so every output shows the same
parts in the same order; a site's own ``header.html`` gets that view; text from the page is escaped exactly
once in every output."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from .conftest import MakeApp
from .htmltools import one

ROOT = Path(__file__).parent / "roots" / "test-header"
BOOKS = ("singlehtml", "epub", "latex", "text")

#: what the header of ``odd.md`` shows, in its order: the one view, as every builder must print it (of its
#: two figures the headline only, the first: "Tests passed" is drawn in Verification)
PARTS = [
    'A <&"> project',
    "someone/odd-header",
    "merged",
    "2025-01-02",
    'Keeps <b>bold</b> & "quotes" & 1 < 2 as text.',
    'Time <&"> taken',
    "200 ms → 50 ms",
    "≈4× lower",
    "Pull request #12",
    "Issue #3",
    "Issue #4",
    "Tags:",
    "a <b> tag",
    '"quoted" & more',
]
#: the header's parts in an HTML output, by class, in document order
PART_SELECTOR = ", ".join(
    f".contrib-header-card {part}"
    for part in (
        ".contrib-project",
        ".contrib-repo-link",
        ".contrib-state",
        ".contrib-date",
        ".contrib-summary",
        ".contrib-stat-label",
        ".contrib-stat-values",
        ".contrib-stat-change",
        ".contrib-actions > a",
        ".contrib-tags-label",
        ".contrib-tag",
    )
)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The root built strictly with html and each book builder (the command Read the Docs runs)."""
    root = tmp_path_factory.mktemp("header")
    built = {}
    for builder in ("html", *BOOKS):
        outdir = root / builder
        command = [sys.executable, "-m", "sphinx", "-T", "-W", "--keep-going", "-b", builder]
        done = subprocess.run(
            [*command, "-d", str(root / f"doctrees-{builder}"), str(ROOT), str(outdir)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, (builder, done.stderr)
        built[builder] = outdir
    return built


def html_parts(path: Path, header_id: str) -> list[str]:
    page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    block = page.find(id=header_id)
    assert isinstance(block, Tag), header_id
    for mark in block.select(".contrib-external-mark"):
        mark.decompose()
    return [element.get_text() for element in block.select(PART_SELECTOR)]


def parts_in_order(text: str) -> list[str]:
    """The parts of :data:`PARTS` found one after the other in ``text`` (stops at the first one missing)."""
    found, position = [], 0
    for part in PARTS:
        at = text.find(part, position)
        if at < 0:
            break
        found.append(part)
        position = at + len(part)
    return found


def latex_text(tex: str) -> str:
    """The LaTeX of the header as the reader sees it (the few escapes its words use)."""
    for latex, shown in (
        (r"\(\rightarrow\)", "→"),
        (r"\sphinxhyphen{}", "-"),
        (r"\textless{}", "<"),
        (r"\textgreater{}", ">"),
        (r"\&", "&"),
        (r"\#", "#"),
    ):
        tex = tex.replace(latex, shown)
    return tex


def unrole(tex: str) -> str:
    """``tex`` without its ``\\DUrole{class}{…}`` wrappers (nested ones too): the text they hold."""
    while True:
        bare = re.sub(r"\\DUrole\{[\w-]+\}\{([^{}]*)\}", r"\1", tex)
        if bare == tex:
            return tex
        tex = bare


def test_site_header_shows_the_parts_in_order(outputs: dict[str, Path]) -> None:
    assert html_parts(outputs["html"] / "odd.html", "contribution") == PARTS


@pytest.mark.parametrize("builder", ["singlehtml", "epub"])
def test_html_books_show_the_same_parts_in_the_same_order(outputs: dict[str, Path], builder: str) -> None:
    if builder == "singlehtml":  # one page: each write-up's ids take its page's name as a prefix
        assert html_parts(outputs[builder] / "index.html", "odd-contribution") == PARTS
    else:
        assert html_parts(outputs[builder] / "odd.xhtml", "contribution") == PARTS


def test_latex_shows_the_same_parts_in_the_same_order_and_figures_as_rows(outputs: dict[str, Path]) -> None:
    tex = next(outputs["latex"].glob("*.tex")).read_text(encoding="utf-8")
    start = tex.index(r"\label{\detokenize{odd:contribution}}")
    header = tex[start : tex.index(r"\end{sphinxShadowBox}", start)]
    assert parts_in_order(latex_text(unrole(header))) == PARTS
    # the headline figure: one row of a table (label & before → after & change), no bullets
    table = header[header.index(r"\begin{tabular}[t]{\X{28}{70}") : header.index(r"\end{tabular}")]
    # each cell's text, up to its end: Sphinx 9 closes a cell with \sphinxbeforeendvarwidth, 8 with the next
    # cell's & or the row's \\
    cells = re.findall(r"\\sphinxAtStartPar\n(.*?)\n(?:\\sphinxbeforeendvarwidth|&|\\\\)", table, re.S)
    shown = [latex_text(unrole(cell)) for cell in cells]
    assert shown == ['Time <&"> taken', "200 ms → 50 ms", "≈4× lower"]
    assert table.count("\\\\\n") == 1  # one row
    assert r"\begin{itemize}" not in header and r"\sphinxlineitem" not in header


def test_text_shows_the_same_parts_in_the_same_order(outputs: dict[str, Path]) -> None:
    page = (outputs["text"] / "odd.txt").read_text(encoding="utf-8")
    header = page[: page.index("Problem\n")]
    assert parts_in_order(header) == PARTS


def test_page_text_is_escaped_exactly_once_in_every_output(outputs: dict[str, Path]) -> None:
    """Each HTML file holds the page's ``<&"`` escaped once (never ``&amp;amp;`` or ``&amp;lt;``) and shows
    them as written; LaTeX and text hold them as text."""
    twice = re.compile(r"&amp;(amp|lt|gt|quot|#34|#39|#x27);")
    html_files = [
        path
        for builder in ("html", "singlehtml", "epub")
        for path in outputs[builder].rglob("*")
        if path.suffix in {".html", ".xhtml"}
    ]
    assert len(html_files) > 5
    for path in html_files:
        text = path.read_text(encoding="utf-8")
        assert twice.search(text) is None, (path, twice.search(text))
        assert "<b>bold</b>" not in text and "<b> tag" not in text, path
    card = one(
        BeautifulSoup((outputs["html"] / "index.html").read_text(encoding="utf-8"), "html.parser"), ".contrib-card"
    )
    assert one(card, ".contrib-project").get_text() == 'A <&"> project'
    assert one(card, ".contrib-summary").get_text() == 'Keeps <b>bold</b> & "quotes" & 1 < 2 as text.'
    assert [tag.get_text() for tag in card.select(".contrib-tag")] == ["a <b> tag", '"quoted" & more']
    tag_page = BeautifulSoup((outputs["html"] / "tags" / "a-b-tag.html").read_text(encoding="utf-8"), "html.parser")
    assert one(tag_page, "h1").get_text() == "Tag: a <b> tag"
    assert one(tag_page, "title").get_text().startswith("Tag: a <b> tag")
    tex = next(outputs["latex"].glob("*.tex")).read_text(encoding="utf-8")
    assert "&amp;" not in tex and r'\DUrole{contrib-project}{A <\&"> project}' in tex  # xelatex: "<" as it is
    text = (outputs["text"] / "odd.txt").read_text(encoding="utf-8")
    assert "&amp;" not in text and "&lt;" not in text and 'A <&"> project' in text


def test_a_site_header_template_gets_the_view(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """A site's ``contributions/header.html`` draws the header from ``header`` (the view) and still gets
    the names the template had before it (``state``, ``project_url``…)."""
    src = tmp_path / "src"
    shutil.copytree(rootdir / "test-header", src)
    (src / "_templates" / "contributions").mkdir(parents=True)
    (src / "_templates" / "contributions" / "header.html").write_text(
        '<p class="site-header">{{ header.project|e }} · {{ header.repo|e }} · {{ header.state.label|e }}'
        "{% for stat in header.stats %} · {{ stat.label|e }}: {{ stat.values|e }} ({{ stat.change|e }}){% endfor %}"
        "{% for action in header.actions %} · {{ action.text|e }}{% endfor %}</p>\n"
        '<p class="site-summary">{{ header.summary_html }}</p>\n'
        '<p class="site-before">{{ state|e }} {{ project_url|e }} {{ actions|length }} {{ tags|length }}</p>\n',
        encoding="utf-8",
    )
    (src / "conf.py").write_text(
        (src / "conf.py").read_text(encoding="utf-8") + 'templates_path = ["_templates"]\n', encoding="utf-8"
    )
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    page = BeautifulSoup((Path(app.outdir) / "odd.html").read_text(encoding="utf-8"), "html.parser")
    block = page.find(id="contribution")
    assert isinstance(block, Tag)
    assert [p.get_text() for p in block.select("p")] == [
        'A <&"> project · someone/odd-header · merged · Time <&"> taken: 200 ms → 50 ms (≈4× lower) · '
        "Pull request #12 · Issue #3 · Issue #4",
        'Keeps <b>bold</b> & "quotes" & 1 < 2 as text.',
        "merged projects/a-project.html 3 2",
    ]


def test_a_held_headline_is_shown_as_a_check(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """A no-regression check (``196 → 196``, held) as the page's headline: the header shows it as a check
    (its label, its one value, the word for it), not in large type as a result; Verification the same."""
    src = tmp_path / "src"
    shutil.copytree(rootdir / "test-header", src)
    page = src / "odd.md"
    text = page.read_text(encoding="utf-8")
    start = text.index(":::{metric} Time")
    end = text.index(":::{metric} Tests passed")
    page.write_text(
        text[:start] + text[end:].replace(":after: 10\n", ":after: 10\n:better: higher\n:expect: hold\n"),
        encoding="utf-8",
    )
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    html = BeautifulSoup((Path(app.outdir) / "odd.html").read_text(encoding="utf-8"), "html.parser")
    stats = html.select("#contribution .contrib-stat")
    assert [s["class"] for s in stats] == [["contrib-stat", "contrib-stat-held", "contrib-stat-check"]]
    assert [v.get_text() for v in stats[0].select(".contrib-stat-value")] == ["10"]
    assert " ".join(stats[0].get_text(" ").split()) == "Tests passed 10 held"
    figure = one(html, "figure.contrib-metric")
    assert {"contrib-metric-held", "contrib-metric-check"} <= set(figure["class"])
    values = one(figure, ".contrib-metric-values")
    assert " ".join(values.get_text(" ").split()) == (
        "before and after 10 held (a no-regression check, higher is better)"
    )
    assert [d["value"] for d in values.select("data")] == ["10.0"]
