"""Every format Read the Docs offers, and the others Sphinx has, built from a copy of ``tests/roots/test-portfolio``
with a fourth write-up added (no other file edited), each strictly (``-W``), with the command Read the Docs runs.

The books (PDF through LaTeX, ePub, singlehtml, Texinfo, man) hold every write-up after the profile pages,
by project and then pull-request number, with its title, four sections and figures; the PDF is compiled as
Read the Docs compiles it (``latexmk``, ``latex_engine = "xelatex"``) and read back with ``pdftotext``;
epubcheck validates the ePub; every internal link of singlehtml and dirhtml leads to a file and an anchor
that exist. What is expected comes from the build's own ``contributions.json``, so a write-up added to
the site is checked without editing this file.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup

from .conftest import copy_site
from .tools import require_epubcheck, require_font, require_tex_file, require_tool
from .treediff import first_difference
from .wiring import unwire

#: the write-up every book must show besides the site's own: one file, nothing else edited
FOURTH = (
    "contributions/beta-7.md",
    """\
# A fourth write-up for the book

:::{contribution}
:repo: example/beta
:pr: 7
:status: open
:tags: training
:summary: Summary of the fourth write-up.
:::

:::{problem}
Problem text.
:::

:::{root-cause}
Cause text.
:::

:::{fix}
Fix text.
:::

::::{verification}
:::{metric} Fourth figure label
:before: 8
:after: 2
:::

Verification text.
::::
""",
)
BUILDERS = ("html", "dirhtml", "singlehtml", "epub", "latex", "text", "man", "texinfo", "xml", "gettext")
#: builders whose strict build fails because of how the extension renders today (issue 11); the reason
#: names the first warning. xfail(strict=True): a fix shows up as an unexpected pass, to remove here.
STRICT_FAILURES: dict[str, str] = {}
SECTIONS = ("Problem", "Root cause", "Fix", "Verification")
#: the PDF's name on Read the Docs (its latexmk -jobname is the project's slug)
JOBNAME = "ada-tester"
OPF = "{http://www.idpf.org/2007/opf}"


@dataclass(frozen=True)
class Writeup:
    docname: str
    title: str
    project: str
    repository: str
    pr: int
    figures: tuple[str, ...]
    summary: str


@dataclass
class Build:
    outdir: Path
    returncode: int
    stderr: str


@dataclass
class Builds:
    """The site copy and its builds, each made once per session on first use."""

    src: Path
    root: Path
    done: dict[str, Build] = field(default_factory=dict)

    def get(self, builder: str) -> Build:
        if builder not in self.done:
            outdir = self.root / builder
            result = sphinx_build(self.src, outdir, builder, self.root / f"doctrees-{builder}")
            self.done[builder] = Build(outdir, result.returncode, result.stderr)
        return self.done[builder]

    def writeups(self) -> list[Writeup]:
        """The write-ups in book order (project, then pull request), read from ``contributions.json``."""
        html = self.get("html").outdir
        records = json.loads((html / "contributions.json").read_text(encoding="utf-8"))["contributions"]
        writeups = [
            Writeup(
                docname=urlsplit(record["url"]).path.rsplit("/", 2)[-2] + "/" + Path(record["url"]).stem,
                title=record["title"],
                project=record["project"],
                repository=record["repository"],
                pr=record["pr"],
                figures=tuple(metric["label"] for metric in record["metrics"]),
                summary=record["summary"],
            )
            for record in records
        ]
        return sorted(writeups, key=lambda w: (w.project.casefold(), w.repository.casefold(), w.pr))


def sphinx_build(src: Path, outdir: Path, builder: str, doctrees: Path) -> subprocess.CompletedProcess[str]:
    """The command Read the Docs runs for each format (see its build log), strict."""
    command = [sys.executable, "-m", "sphinx", "-T", "-W", "--keep-going", "-b", builder]
    command += ["-d", str(doctrees), "-D", "language=en", str(src), str(outdir)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture(scope="session")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    root = tmp_path_factory.mktemp("formats")
    src = copy_site(root / "src")
    name, text = FOURTH
    (src / name).write_text(text, encoding="utf-8")
    return Builds(src, root)


@pytest.fixture(scope="session")
def writeups(builds: Builds) -> list[Writeup]:
    found = builds.writeups()
    assert len(found) == 4, [w.docname for w in found]
    return found


def first_warning(stderr: str) -> str:
    return next((line for line in stderr.splitlines() if "WARNING" in line or "ERROR" in line), stderr[-2000:])


# -- every builder, strictly ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "builder",
    [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=STRICT_FAILURES[name]))
        if name in STRICT_FAILURES
        else name
        for name in BUILDERS
    ],
)
def test_builder_passes_strictly(builds: Builds, builder: str) -> None:
    build = builds.get(builder)
    assert build.returncode == 0, first_warning(build.stderr)


# -- the write-ups in every book --------------------------------------------------------------------------


def squeeze(text: str) -> str:
    """Text compared without case, whitespace or hyphens (TeX breaks lines and words where it likes)."""
    return re.sub(r"[\s\-‐­]+", "", text.casefold())


def assert_holds(text: str, writeup: Writeup, where: str) -> None:
    """The write-up's title, its four section headings in order, and its figures' labels."""
    flat = squeeze(text)
    assert squeeze(writeup.title) in flat, f"{where}: no title {writeup.title!r}"
    position = flat.index(squeeze(writeup.title))
    for heading in SECTIONS:
        found = flat.find(squeeze(heading), position)
        assert found >= 0, f"{where}: no section {heading!r} after the title of {writeup.docname}"
        position = found
    for label in writeup.figures:
        assert squeeze(label) in flat, f"{where}: no figure {label!r} of {writeup.docname}"


def test_singlehtml_holds_every_writeup_after_the_profile_pages(builds: Builds, writeups: list[Writeup]) -> None:
    html = (builds.get("singlehtml").outdir / "index.html").read_text(encoding="utf-8")
    order = re.findall(r'id="document-([^"]+)"', html)
    assert order == ["about/index", "open-source/index", "contributions/index", *(w.docname for w in writeups)]
    for number, writeup in enumerate(writeups):
        start = html.index(f'id="document-{writeup.docname}"')
        end = html.index(f'id="document-{writeups[number + 1].docname}"') if number + 1 < len(writeups) else None
        part = BeautifulSoup(html[start:end], "html.parser")
        headings = [tag.get_text(" ", strip=True).rstrip("#¶ ") for tag in part.find_all(re.compile("^h[1-6]$"))]
        assert headings[:5] == [writeup.title, *SECTIONS], writeup.docname
        assert_holds(part.get_text(" "), writeup, f"singlehtml {writeup.docname}")


def test_singlehtml_ids_are_unique_and_listings_link_inside_the_page(builds: Builds, writeups: list[Writeup]) -> None:
    """All write-ups on one page: each one's anchors take its page's name (``#beta-7-problem``);
    on the site each keeps ``#problem``."""
    html = (builds.get("singlehtml").outdir / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r' id="([^"]+)"', html)
    assert sorted(i for i in set(ids) if ids.count(i) > 1) == []
    for writeup in writeups:
        slug = writeup.docname.rsplit("/", 1)[-1]
        for anchor in ("contribution", "problem", "root-cause", "fix", "verification"):
            assert f' id="{slug}-{anchor}"' in html, (writeup.docname, anchor)
        assert f'class="contrib-title-link reference internal" href="#document-{writeup.docname}"' in html
        site = (builds.get("html").outdir / f"{writeup.docname}.html").read_text(encoding="utf-8")
        assert all(f' id="{anchor}"' in site for anchor in ("contribution", "problem", "verification"))


def test_epub_reads_every_writeup_after_the_profile_pages(builds: Builds, writeups: list[Writeup]) -> None:
    outdir = builds.get("epub").outdir
    opf = ElementTree.parse(outdir / "content.opf").getroot()
    hrefs = {item.get("id"): item.get("href") for item in opf.iter(f"{OPF}item")}
    spine = [hrefs[ref.get("idref")] for ref in opf.iter(f"{OPF}itemref") if ref.get("linear") != "no"]
    pages = ["index", "about/index", "open-source/index", "contributions/index", *(w.docname for w in writeups)]
    assert spine[: len(pages)] == [page + ".xhtml" for page in pages]
    navigation = (outdir / "nav.xhtml").read_text(encoding="utf-8")
    for writeup in writeups:
        assert f'href="{writeup.docname}.xhtml"' in navigation
        page = BeautifulSoup((outdir / f"{writeup.docname}.xhtml").read_text(encoding="utf-8"), "html.parser")
        assert_holds(page.get_text(" "), writeup, f"ePub {writeup.docname}")
    listing = (outdir / "contributions" / "index.xhtml").read_text(encoding="utf-8")
    for writeup in writeups:
        name = writeup.docname.rsplit("/", 1)[-1]
        assert f'class="contrib-title-link reference internal" href="{name}.xhtml"' in listing
    with zipfile.ZipFile(next(outdir.glob("*.epub"))) as book:
        assert {f"{w.docname}.xhtml" for w in writeups} <= set(book.namelist())


def test_epub_names_its_contributor_ends_on_a_write_up_and_draws_tags_as_chips(
    builds: Builds, writeups: list[Writeup]
) -> None:
    """The ePub's dc:contributor was "unknown" (Sphinx's default), it ended on an empty "Index" page, and
    a comma stood between its tag chips ("SDPA , seq2seq training"): the comma is a separator the CSS
    hides where the tags are chips (text and LaTeX keep it)."""
    outdir = builds.get("epub").outdir
    opf = ElementTree.parse(outdir / "content.opf").getroot()
    assert [e.text for e in opf.iter("{http://purl.org/dc/elements/1.1/}contributor")] == ["Ada Tester"]
    hrefs = {item.get("id"): item.get("href") for item in opf.iter(f"{OPF}item")}
    spine = [hrefs[ref.get("idref")] for ref in opf.iter(f"{OPF}itemref")]
    assert "genindex.xhtml" not in spine and not (outdir / "genindex.xhtml").exists()
    page = BeautifulSoup((outdir / f"{writeups[0].docname}.xhtml").read_text(encoding="utf-8"), "html.parser")
    tags = page.select_one("p.contrib-tags")
    assert tags is not None
    between = [child for child in tags.children if getattr(child, "name", None) is None and "," in str(child)]
    assert between == []  # no comma as bare text between the chips
    assert len(tags.select(".contrib-separator")) == len(tags.select(".contrib-tag")) - 1


def test_latex_has_a_section_per_writeup_after_the_profile_pages(builds: Builds, writeups: list[Writeup]) -> None:
    """A compact document (``howto``: sections, no chapter per page): each write-up a section after the
    profile pages, its problem, root cause, fix and verification subsections."""
    tex = (builds.get("latex").outdir / "ada-tester.tex").read_text(encoding="utf-8")
    assert r"\chapter{" not in tex and "]{sphinxhowto}" in tex
    chapters = [title.replace(r"\sphinxhyphen{}", "-") for title in re.findall(r"\\section\{(.*)\}", tex)]
    profile = ["About", "Open source", "Contributions"]
    assert [c for c in chapters if c in {*profile, *(w.title for w in writeups)}] == [
        *profile,
        *(w.title for w in writeups),
    ]
    for writeup in writeups:
        start = tex.index(rf"\label{{\detokenize{{{writeup.docname}::doc}}}}")
        sections = re.findall(r"\\subsection\{(.*)\}", tex[start:])[:4]
        assert sections == list(SECTIONS), writeup.docname
        # the header: framed, with the label {contrib} links point at, its facts and links
        header = tex[start : tex.index(r"\subsection{", start)]
        assert rf"\phantomsection\label{{\detokenize{{{writeup.docname}:contribution}}}}" in header
        assert r"\begin{sphinxShadowBox}" in header and r"\end{sphinxShadowBox}" in header
        repository = writeup.repository.replace("-", r"\sphinxhyphen{}")
        assert rf"\sphinxhref{{https://github.com/{writeup.repository}}}{{{repository}}}" in header
        assert rf"\sphinxhref{{https://github.com/{writeup.repository}/pull/{writeup.pr}}}" in header
        # its headline figure as a row of a small table (label, before → after, change in words), not
        # bullets; the other figures are in its Verification
        stats = re.findall(r"\\DUrole\{contrib-stat-values\}", header)
        assert len(stats) == min(1, len(writeup.figures)) and (r"\begin{tabular}[t]{\X{" in header) == bool(stats)
        assert r"\begin{itemize}" not in header
        # each figure: a small table of before and after, the chart where one is truthful (marks on a
        # labelled log axis, bars from zero on a linear one; none for equal values), the change in words
        for label in writeup.figures:
            figure = tex[tex.index(r"\sphinxstylestrong{" + label.replace("-", r"\sphinxhyphen{}"), start) :]
            table = figure[: figure.index(r"\end{tabular}")]
            held = re.search(r"^before and after & ", table, re.M)  # a check that held: its one value
            assert held or (re.search(r"^before & ", table, re.M) and re.search(r"^after & ", table, re.M)), label
            words = figure[: figure.index(r"\par\medskip", 30)]
            drawn = re.search(r"\\begin\{picture\}.*?\\end\{picture\}", words, re.S)
            if "chart on" not in words:
                assert drawn is None and held and r"\sphinxstylestrong{held}" in words, label  # 196 → 196
                continue
            assert drawn is not None, label
            scale = re.search(r"is better; chart on a (log scale|linear scale from 0)\)", words)
            assert scale is not None, label
            marks = r"\\circle\*?\{5\}" if scale[1] == "log scale" else r"\\rule\{[\d.]+pt\}\{6pt\}"
            assert len(re.findall(marks, drawn[0])) == 2, label
            assert len(re.findall(r"\\makebox\(0,0\)\[t\]", drawn[0])) >= 2, label  # labelled ticks
        # the listings' title links are references inside the book
        assert rf"\hyperref[\detokenize{{{writeup.docname}::doc}}]" in tex


def test_text_man_and_texinfo_hold_every_writeup(builds: Builds, writeups: list[Writeup]) -> None:
    text = builds.get("text").outdir
    man = next(builds.get("man").outdir.glob("*.1")).read_text(encoding="utf-8")
    texinfo = next(builds.get("texinfo").outdir.glob("*.texi")).read_text(encoding="utf-8")
    man_headings = [line[4:].strip('"') for line in man.splitlines() if line.startswith(".SH ")]
    texinfo_chapters = re.findall(r"^@chapter (.*)$", texinfo, re.MULTILINE)
    for writeup in writeups:
        page = (text / f"{writeup.docname}.txt").read_text(encoding="utf-8")
        assert_holds(page, writeup, "text")
        for fact in (f"· {writeup.repository}", f"Pull request #{writeup.pr}"):
            assert fact in " ".join(page.split()), (writeup.docname, fact)
        assert_holds(man.replace("\\-", "-"), writeup, "man")
        assert_holds(texinfo, writeup, "texinfo")
    assert [h for h in man_headings if h in {w.title.upper() for w in writeups}] == [w.title.upper() for w in writeups]
    assert texinfo_chapters[-len(writeups) :] == [w.title for w in writeups]


# -- the PDF, compiled as Read the Docs compiles it ------------------------------------------------------


@dataclass(frozen=True)
class Pdf:
    path: Path
    returncode: int
    log: str


@pytest.fixture(scope="session")
def pdf(builds: Builds) -> Pdf:
    latexmk = require_tool("latexmk", "latexmk")
    require_tool("xelatex", "texlive-xetex texlive-latex-extra")
    require_tex_file("pzdr.tfm", "texlive-fonts-recommended")  # hyperref's xetex driver loads it
    require_font("FreeSerif", "fonts-freefont-otf")
    outdir = builds.get("latex").outdir
    command = [latexmk, "-r", "latexmkrc", "-pdf", "-f", "-dvi-", "-ps-", f"-jobname={JOBNAME}"]
    done = subprocess.run(
        [*command, "-interaction=nonstopmode"], cwd=outdir, capture_output=True, text=True, check=False
    )
    log = (outdir / f"{JOBNAME}.log").read_text(encoding="utf-8", errors="replace")
    return Pdf(outdir / f"{JOBNAME}.pdf", done.returncode, log)


def pdf_text(path: Path) -> str:
    pdftotext = require_tool("pdftotext", "poppler-utils")
    return subprocess.run([pdftotext, str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_pdf_holds_every_writeup_after_the_profile_pages(pdf: Pdf, writeups: list[Writeup]) -> None:
    assert pdf.path.is_file(), pdf.log[-3000:]
    text = pdf_text(pdf.path)
    flat = squeeze(text)
    # each write-up from its numbered section heading (the last place its title is) to the next one's
    starts = []
    for writeup in writeups:
        headings = list(re.finditer(r"\d" + re.escape(squeeze(writeup.title)), flat))
        assert headings, f"no section for {writeup.title!r}"
        starts.append(headings[-1].start())
    assert starts == sorted(starts), "write-ups out of book order"
    for number, writeup in enumerate(writeups):
        end = starts[number + 1] if number + 1 < len(writeups) else len(flat)
        assert_holds(flat[starts[number] : end], writeup, f"PDF {writeup.docname}")


def test_pdf_says_its_title_and_author_and_no_page_is_empty(pdf: Pdf) -> None:
    """``pdfinfo``: the title block replaces ``\\maketitle``, which would set them; ``\\hypersetup`` does.
    Every page holds text (no chapter-per-page blank pages)."""
    pdfinfo = require_tool("pdfinfo", "poppler-utils")
    info = subprocess.run([pdfinfo, str(pdf.path)], capture_output=True, text=True, check=True).stdout
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    assert fields["Title"].strip() == "Ada Tester: Test Engineer · Fictional Systems · Example Data"
    assert fields["Author"].strip() == "Ada Tester"
    pdftotext = require_tool("pdftotext", "poppler-utils")
    pages = int(fields["Pages"])
    words = [
        len(
            subprocess.run(
                [pdftotext, "-f", str(n), "-l", str(n), str(pdf.path), "-"], capture_output=True, text=True, check=True
            ).stdout.split()
        )
        for n in range(1, pages + 1)
    ]
    assert [n for n, count in enumerate(words, 1) if count < 40] == [], words


def test_pdf_prints_each_card_once(pdf: Pdf, writeups: list[Writeup]) -> None:
    """The home page, each open-source project and the contributions page list the same write-ups: the
    first listing prints the cards, the others a line of links to the write-ups' sections (the old book
    printed each summary four times)."""
    flat = squeeze(pdf_text(pdf.path))
    for writeup in writeups:
        summary = squeeze(writeup.summary)
        # the write-up's own header, and at most one card (the home page's proof shows no summary)
        assert 1 <= flat.count(summary) <= 2, writeup.docname


def pdf_pages(path: Path) -> list[str]:
    """The text of each page of the PDF (``pdftotext -layout``, page by page)."""
    pdftotext = require_tool("pdftotext", "poppler-utils")
    pdfinfo = require_tool("pdfinfo", "poppler-utils")
    info = subprocess.run([pdfinfo, str(path)], capture_output=True, text=True, check=True).stdout
    count = int(next(line.split(":", 1)[1] for line in info.splitlines() if line.startswith("Pages:")))
    return [
        subprocess.run(
            [pdftotext, "-layout", "-f", str(n), "-l", str(n), str(path), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for n in range(1, count + 1)
    ]


def test_pdf_keeps_each_writeups_header_with_its_first_section(pdf: Pdf, writeups: list[Writeup]) -> None:
    """A write-up's title, its header box and its "Problem" start on one page: the box once sat at a page's
    foot with its Problem on the next page."""
    pages = [squeeze(page) for page in pdf_pages(pdf.path)]
    apart = []
    for writeup in writeups:
        title = squeeze(writeup.title)
        # the write-up's own section: its title as a numbered heading ("6 Add UMT5 …"), the last page naming it so
        where = [n for n, page in enumerate(pages) if re.search(r"\d" + re.escape(title), page)]
        assert where, writeup.title
        page = pages[where[-1]]
        heading = re.search(r"\d+\.1problem", page[page.rindex(title) :])
        if heading is None:
            apart.append(writeup.title)
    assert apart == []


def test_pdf_first_page_says_the_role_once_and_no_web_only_line(pdf: Pdf) -> None:
    """The title block names the role and the profiles; under it the home page's profile said the role
    again and kept its line of links (GitHub · Website · Background and focus areas), and the cards under
    the proof became "Write-ups: …", a line of the links the proof had just shown; the open-source and
    contributions chapters listed the titles twice more ("Write-up: …") before the write-ups began."""
    pages = pdf_pages(pdf.path)
    # a listing of write-ups shown before is left out: their chapters follow
    assert "write-ups:" not in "".join(pages).casefold() and "write-up:" not in "".join(pages).casefold()
    page = pages[0]
    # the home page's part of page 1: up to its second section (the open-source page's project sections
    # further down point to their write-ups' chapters with a line of their own: a reference inside the book)
    first = page[: re.search(r"^2 \S", page, re.M).start()]  # type: ignore[union-attr]
    flat = squeeze(first)
    assert flat.count(squeeze("Test Engineer · Fictional Systems · Example Data")) == 1
    assert squeeze("Background and focus areas") not in flat
    assert squeeze("GitHub · Website") not in flat
    assert "write-ups:" not in first.casefold() and "write-up:" not in first.casefold()
    assert squeeze("github.com/example") in flat and "A fictional profile" in first  # the block, the words stay


def pdf_lines(path: Path, page: int) -> list[tuple[str, str]]:
    """Each line of text on ``page`` of the PDF with its font's name (``pdftohtml -xml``: a ``<text>`` per
    line run of one font)."""
    pdftohtml = require_tool("pdftohtml", "poppler-utils")
    done = subprocess.run(
        [pdftohtml, "-xml", "-i", "-stdout", "-q", "-f", str(page), "-l", str(page), str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    root = ElementTree.fromstring(done.stdout)
    fonts = {spec.get("id"): spec.get("family", "") for spec in root.iter("fontspec")}
    return [("".join(text.itertext()), fonts.get(text.get("font"), "")) for text in root.iter("text")]


def test_pdf_sets_each_cards_title_bold_on_a_line_of_its_own(pdf: Pdf) -> None:
    """sphinx-design's cards ("How I contribute"): each title a bold line, its text the next line in the
    text's font (before: "First example principle Example text for the first card." in one line, one
    font)."""
    lines = pdf_lines(pdf.path, 1)
    for title, text in (("First example principle", "Example text for the first card."),
                        ("Second example principle", "Example text for the second card.")):  # fmt: skip
        at = next(i for i, (words, _) in enumerate(lines) if title in words)
        assert lines[at][0] == title
        assert "Bold" in lines[at][1], lines[at]
        assert lines[at + 1][0] == text
        assert "Bold" not in lines[at + 1][1], lines[at + 1]


def test_pdf_chart_tick_labels_are_7_pt_and_up(pdf: Pdf) -> None:
    """Every word of the PDF is 7 pt or more (``pdftotext -bbox``: a word's box is as high as its font is
    large, in points), and no decade is labelled with superscript characters, which draw its exponent
    about 5 pt high: it is raised in a font of its own (``10`` and ``−6``)."""
    pdftotext = require_tool("pdftotext", "poppler-utils")
    boxes = subprocess.run([pdftotext, "-bbox", str(pdf.path), "-"], capture_output=True, text=True, check=True).stdout
    words = [
        (text, float(bottom) - float(top))
        for top, bottom, text in re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<', boxes)
    ]
    assert len(words) > 500
    assert [(text, round(height, 2)) for text, height in words if height < 6.9] == []
    assert [text for text, _ in words if re.fullmatch(r"10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+", text)] == []
    assert ("−6", 6.97) in [(text, round(height, 2)) for text, height in words]  # beta's drift: 10⁻⁶, raised


def test_pdf_compiles_without_errors_or_missing_characters(pdf: Pdf) -> None:
    problems = [
        line
        for line in pdf.log.splitlines()
        if line.startswith("!") or "Missing character" in line or "undefined" in line
    ]
    assert pdf.returncode == 0
    assert problems == []


# -- ePub: epubcheck --------------------------------------------------------------------------------------


def test_epubcheck_finds_no_errors(builds: Builds) -> None:
    java, jar = require_epubcheck()
    book = next(builds.get("epub").outdir.glob("*.epub"))
    report = builds.root / "epubcheck.json"
    subprocess.run([java, "-jar", str(jar), str(book), "--json", str(report), "-q"], capture_output=True, check=False)
    result = json.loads(report.read_text(encoding="utf-8"))
    errors = [
        f"{m['severity']} {m['ID']}: {m['message']} ({m['locations'][0]['path'] if m['locations'] else ''})"
        for m in result["messages"]
        if m["severity"] in {"FATAL", "ERROR"}
    ]
    assert (result["checker"]["nFatal"], result["checker"]["nError"]) == (0, 0), "\n".join(errors[:20])


# -- links inside singlehtml and dirhtml ------------------------------------------------------------------


def broken_links(outdir: Path, prefix: str = "/en/latest/") -> list[str]:
    """Every internal href/src of every HTML page whose file or anchor does not exist: ``page: link``.

    Links starting with ``prefix`` (the 404 page's absolute links, see conf.py) count from ``outdir``."""
    ids: dict[Path, set[str]] = {}

    def anchors(path: Path) -> set[str]:
        if path not in ids:
            page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            ids[path] = {str(tag["id"]) for tag in page.find_all(id=True)}
            ids[path] |= {str(tag["name"]) for tag in page.find_all("a", attrs={"name": True})}
        return ids[path]

    broken = []
    for page in sorted(outdir.rglob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for tag in soup.find_all(["a", "link", "img", "script", "source", "iframe"]):
            link = tag.get("href") or tag.get("src")
            if not isinstance(link, str):
                continue
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue  # another site, mailto:, data:
            if parts.path.startswith(prefix):
                target = outdir / unquote(parts.path[len(prefix) :])
            elif parts.path.startswith("/") and page.relative_to(outdir).parts[0] in ("404.html", "404"):
                # the 404 page of a site without a canonical URL: sphinx-notfound-page's links from the host's
                # root, where such a site is served
                target = outdir / unquote(parts.path.lstrip("/"))
            elif parts.path.startswith("/"):
                broken.append(f"{page.relative_to(outdir)}: {link} (outside the site)")
                continue
            else:
                target = (page.parent / unquote(parts.path)) if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(outdir)}: {link}")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in anchors(target):
                broken.append(f"{page.relative_to(outdir)}: {link} (no such anchor)")
    return broken


@pytest.mark.parametrize(
    "builder",
    ["singlehtml", "dirhtml"],
)
def test_no_broken_internal_links(builds: Builds, builder: str) -> None:
    broken = broken_links(builds.get(builder).outdir)
    assert broken == [], f"{len(broken)} broken, first: " + "; ".join(broken[:10])


# -- one environment for every format, as on Read the Docs ---------------------------------------------


def test_books_leave_the_shared_environment_and_html_as_they_were(builds: Builds, tmp_path: Path) -> None:
    """Read the Docs builds html, then the PDF and ePub, on one doctree directory: the write-ups reach the
    book although nothing is re-read, and html built afterwards is byte-identical to html built before."""
    doctrees = tmp_path / "doctrees"
    first = sphinx_build(builds.src, tmp_path / "html-before", "html", doctrees)
    assert first.returncode == 0, first_warning(first.stderr)
    latex = sphinx_build(builds.src, tmp_path / "latex", "latex", doctrees)
    assert latex.returncode == 0, first_warning(latex.stderr)
    assert "updating environment: 0 added, 0 changed, 0 removed" in latex.stdout  # nothing re-read
    tex = (tmp_path / "latex" / "ada-tester.tex").read_text(encoding="utf-8")
    for writeup in builds.writeups():
        assert rf"\label{{\detokenize{{{writeup.docname}::doc}}}}" in tex
    singlehtml = sphinx_build(builds.src, tmp_path / "singlehtml", "singlehtml", doctrees)
    assert singlehtml.returncode == 0, first_warning(singlehtml.stderr)
    again = sphinx_build(builds.src, tmp_path / "html-after", "html", doctrees)
    assert again.returncode == 0, first_warning(again.stderr)
    assert first_difference(tmp_path / "html-before", tmp_path / "html-after") is None


def test_a_writeup_a_toctree_already_reaches_is_in_each_book_once(tmp_path: Path) -> None:
    """A site that puts a write-up in a toctree itself: the books add only the others."""
    src = copy_site(tmp_path / "src")
    index = src / "contributions" / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8") + "\n```{toctree}\n:hidden:\n\ngamma-303\n```\n", encoding="utf-8"
    )
    for builder in ("epub", "latex"):
        done = sphinx_build(src, tmp_path / builder, builder, tmp_path / f"doctrees-{builder}")
        assert done.returncode == 0, first_warning(done.stderr)
    navigation = (tmp_path / "epub" / "nav.xhtml").read_text(encoding="utf-8")
    assert navigation.count('href="contributions/gamma-303.xhtml"') == 1
    tex = (tmp_path / "latex" / "ada-tester.tex").read_text(encoding="utf-8")
    assert tex.count(r"\label{\detokenize{contributions/gamma-303::doc}}") == 1


# -- fixes for Sphinx's book builders, each with its guard ---------------------------------------------

ANCHOR_SITE = {
    # no write-up in this book: the fixes apply where the site asks for them (a portfolio's choice)
    "conf.py": 'extensions = ["myst_parser", "sphinx_contributions"]\ncontributions_book_fixes = True\n',
    "index.md": "# Home\n\nSee {ref}`the second part <second>`.\n\n```{toctree}\npage\n```\n",
    "page.md": "# Page\n\n(second)=\n## Second part\n\nText.\n",
}


def _anchor_site(srcdir: Path) -> Path:
    srcdir.mkdir(parents=True)
    for name, text in ANCHOR_SITE.items():
        (srcdir / name).write_text(text, encoding="utf-8")
    return srcdir


@pytest.mark.parametrize("fixed", [True, False], ids=["fixed", "guard"])
def test_singlehtml_links_to_another_documents_anchor(
    make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixed: bool
) -> None:
    """A link to a section of another document is ``#second`` on the one page (fixes/singlehtml_anchors.py).
    The guard: without the fix Sphinx still writes ``#document-page#second`` (sphinx#14221); when it does
    not any more, Sphinx is fixed and the module can go."""
    from sphinx_contributions.write.fixes import singlehtml_anchors

    if not fixed:
        unwire(monkeypatch, singlehtml_anchors.fix_double_anchors, singlehtml_anchors.fix_navigation)
    app = make_app("singlehtml", srcdir=_anchor_site(tmp_path / "src"), freshenv=True)
    app.build()
    html = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    doubled = re.findall(r'href="(#document-[^"#]*#[^"]*)"', html)
    if fixed:
        assert doubled == []
        assert 'href="#second"' in html
        assert broken_links(Path(app.outdir)) == []
    else:
        assert "#document-page#second" in doubled


@pytest.mark.parametrize("fixed", [True, False], ids=["fixed", "guard"])
def test_epub_declares_the_pages_with_svg(
    make_app: Any, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixed: bool
) -> None:
    """A page with a figure's inline SVG is declared ``properties="svg"`` (fixes/epub_svg.py), in
    ``content.opf`` and in the ``.epub``. The guard: Sphinx itself still does not declare it."""
    from sphinx_contributions.write.fixes import epub_svg

    if not fixed:
        unwire(monkeypatch, epub_svg.fix_epub)
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-pages", srcdir)
    app = make_app("epub", srcdir=srcdir, freshenv=True)
    app.build()
    outdir = Path(app.outdir)
    assert "<svg" in (outdir / "full.xhtml").read_text(encoding="utf-8")
    with zipfile.ZipFile(next(outdir.glob("*.epub"))) as book:
        opf = ElementTree.fromstring(book.read("content.opf"))
    properties = {item.get("href"): item.get("properties") for item in opf.iter(f"{OPF}item")}
    assert properties["full.xhtml"] == ("svg" if fixed else None)
    assert properties["minimal.xhtml"] is None
