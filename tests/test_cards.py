"""Social cards: the 1200×630 PNG of each page, the tags that name it, redrawn only when what it shows
changed, and the line sphinxext-opengraph prints about matplotlib kept out of the build's output."""

from __future__ import annotations

import dataclasses
import importlib.util
import io
import os
import shutil
import struct
import subprocess
import sys
import textwrap
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont
from sphinx.testing.util import SphinxTestApp

from sphinx_contributions.options import STATUSES
from sphinx_contributions.render.card_image import (
    ELLIPSIS,
    HEIGHT,
    WIDTH,
    Card,
    Fonts,
    card_digest,
    clean_text,
    render_card,
    wrap,
)
from sphinx_contributions.write.social_cards import CARD_DIR, page_meta_tags

from .conftest import PORTFOLIO, ROOTS, SITE_URL, copy_site, environ_with, rtd_build

BASE = "https://example.org/"
WRITE_UPS = {
    "full": ("Fix UMT5 decoder self-attention not being causal", "transformers#49135", "merged"),
    "minimal": ("Add UMT5 support to CTranslate2", "CTranslate2#2103", None),
    "escaping": ("Escaping", "escape-test#7", "open"),
}
EXAMPLE = Card(
    "Fix UMT5 decoder self-attention not being causal",
    "Imran Nazir",
    "transformers#49135",
    "merged",
    "Position-0 log-probability drift: 1.03e-1 → 1.91e-6 (≈54,000× lower)",
)


def png_chunks(data: bytes) -> list[str]:
    """The chunk types of a PNG, in order."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        chunks.append(data[offset + 4 : offset + 8].decode("ascii"))
        offset += 12 + length
    return chunks


def assert_card_png(data: bytes) -> None:
    """A valid PNG of 1200×630 with nothing in it but the picture (no time, no text chunks)."""
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        assert image.size == (WIDTH, HEIGHT)
    assert set(png_chunks(data)) == {"IHDR", "PLTE", "IDAT", "IEND"}


# -- the picture -------------------------------------------------------------------------------------


def test_card_is_a_1200_by_630_png_and_the_same_bytes_each_time() -> None:
    first = render_card(EXAMPLE)
    assert_card_png(first)
    assert render_card(EXAMPLE) == first
    assert card_digest(EXAMPLE) == card_digest(dataclasses.replace(EXAMPLE))


def test_card_digest_follows_what_the_card_shows() -> None:
    digests = {
        card_digest(card)
        for card in (
            EXAMPLE,
            dataclasses.replace(EXAMPLE, title="Another title"),
            dataclasses.replace(EXAMPLE, status="open"),
            dataclasses.replace(EXAMPLE, figure="Latency: 2 ms → 1 ms (≈2× lower)"),
            dataclasses.replace(EXAMPLE, site="Another site"),
        )
    }
    assert len(digests) == 5
    assert card_digest(EXAMPLE, fonts=Fonts()) != card_digest(EXAMPLE, fonts=Fonts("/x/a.ttf", "/x/a-bold.ttf"))


def _glyph(font: ImageFont.FreeTypeFont, char: str) -> bytes:
    image = Image.new("L", (96, 96))
    ImageDraw.Draw(image).text((16, 16), char, font=font, fill=255)
    return image.tobytes()


def test_the_site_font_draws_the_figures_symbols() -> None:
    """DejaVu Sans (Debian's fonts-dejavu-core, installed by .ci/run and .readthedocs.yaml) is used when
    present: it has the ≈ × → of the figures, which Pillow's bundled font lacks."""
    fonts = Fonts.find()
    if fonts.bundled:
        hint = "DejaVu Sans not found: apt-get install fonts-dejavu-core"
        pytest.fail(hint) if os.environ.get("CI") else pytest.skip(hint)
    for font, has in ((fonts.get(40), True), (Fonts().get(40), False)):  # DejaVu; the bundled font's gap
        missing = _glyph(font, "\ue000")  # a private-use character: the font's empty box
        assert all((_glyph(font, char) != missing) is has for char in "≈×→")
    assert all(_glyph(fonts.get(40), char) != _glyph(fonts.get(40), "\ue000") for char in "éΩЖ")


def test_long_title_is_wrapped_and_cut_with_an_ellipsis() -> None:
    font = Fonts.find().get(48, bold=True)
    lines, whole = wrap("word " * 200, font, 1056, 3)
    assert not whole and len(lines) == 3 and lines[-1].endswith(ELLIPSIS)
    assert all(font.getlength(line) <= 1056 for line in lines)
    lines, whole = wrap("x" * 400, font, 1056, 3)  # one word wider than the card is cut, not overflowed
    assert not whole and all(font.getlength(line) <= 1056 for line in lines)
    assert wrap("Short title", font, 1056, 3) == (["Short title"], True)


def test_clean_text_drops_what_cannot_be_drawn() -> None:
    assert clean_text("  a\tb\n\nc\x00\u200b\u202e\ud800 ") == "a b c"
    assert clean_text("Cafe\u0301") == "Café"  # NFC


TEXT = st.text(max_size=700) | st.text(alphabet=st.characters(codec="utf-8"), max_size=50)


@given(title=TEXT, site=TEXT, key=TEXT, figure=TEXT, status=st.sampled_from([None, "", *STATUSES, "odd state"]))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_draws_a_card(title: str, site: str, key: str, figure: str, status: str | None) -> None:
    card = Card(title, site, key, status, figure)
    assert_card_png(render_card(card))
    assert_card_png(render_card(card, fonts=Fonts()))  # Pillow's bundled font, as on a machine without DejaVu


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "\x00",
        "\ud800 lone surrogate",
        "\u202eright-to-left override",
        "注意" * 300,
        "🙂" * 100,
        "a\u0301" * 600,
    ],
)
def test_odd_text_draws_a_card(text: str) -> None:
    for fonts in (Fonts.find(), Fonts()):
        assert_card_png(render_card(Card(text, text, text, text or None, text), fonts=fonts))


def test_page_meta_tags_for_generated_pages_are_escaped() -> None:
    tags = page_meta_tags('Tag: <C++> & "more"', "2 contributions.", url=BASE + "tags/c-plus-plus.html", site="S")
    assert tags.splitlines() == [
        '<meta property="og:title" content="Tag: &lt;C++&gt; &amp; &#34;more&#34;" />',
        '<meta property="og:type" content="website" />',
        '<meta property="og:url" content="https://example.org/tags/c-plus-plus.html" />',
        '<meta property="og:site_name" content="S" />',
        '<meta property="og:description" content="2 contributions." />',
        '<meta name="description" content="2 contributions." />',
    ]
    with_image = page_meta_tags("T", "D", image=BASE + "card.png")
    assert '<meta property="og:image" content="https://example.org/card.png" />' in with_image
    assert '<meta name="twitter:card" content="summary_large_image" />' in with_image


# -- the build ----------------------------------------------------------------------------------------


def build(srcdir: Path, *, freshenv: bool = False, **overrides: object) -> SphinxTestApp:
    """One HTML build of ``srcdir`` (incremental unless ``freshenv``); the app is cleaned up after it."""
    app = SphinxTestApp(
        "html",
        srcdir=srcdir,
        freshenv=freshenv,
        confoverrides={"contributions_social_cards": True, **overrides},
        status=StringIO(),
        warning=StringIO(),
    )
    try:
        app.build()
    finally:
        app.cleanup()
    return app


def head_meta(html_file: Path) -> dict[str, str]:
    soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
    return {
        str(tag.get("property") or tag.get("name")): str(tag.get("content"))
        for tag in soup.head.find_all("meta")  # type: ignore[union-attr]
        if tag.get("property") or tag.get("name")
    }


def card_file(outdir: Path, meta: dict[str, str]) -> Path:
    assert meta["og:image"].startswith(BASE + CARD_DIR + "/")
    return outdir / meta["og:image"].removeprefix(BASE)


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    """A copy of ``tests/roots/test-contrib-pages`` to build and change."""
    srcdir = tmp_path / "src"
    shutil.copytree(ROOTS / "test-contrib-pages", srcdir)
    return srcdir


def test_every_write_up_has_its_card(pages: Path) -> None:
    app = build(pages, freshenv=True)
    assert app.warning.getvalue() == ""
    assert "matplotlib" not in app.status.getvalue()
    outdir = Path(app.outdir)
    for docname, (title, key, status) in WRITE_UPS.items():
        meta = head_meta(outdir / f"{docname}.html")
        path = card_file(outdir, meta)
        assert path.parent == outdir / CARD_DIR and path.name.startswith(docname + ".")
        assert_card_png(path.read_bytes())
        assert meta["og:image:width"] == "1200" and meta["og:image:height"] == "630"
        assert meta["twitter:card"] == "summary_large_image"
        assert meta["og:image:alt"].startswith(" · ".join([title, key, *([status] if status else [])]))
    escaping = head_meta(outdir / "escaping.html")["og:image:alt"]
    assert '<script>alert("label")</script> & "drift": 1 <b>ms</b> → 2 <b>ms</b>' in escaping  # text, unescaped once
    assert "<script>alert" not in (outdir / "escaping.html").read_text(encoding="utf-8").split("</head>")[0]
    index = head_meta(outdir / "index.html")  # a page that is not a write-up gets a card too
    assert_card_png(card_file(outdir, index).read_bytes())
    assert index["og:image:alt"].startswith("Home · ")


def test_card_shows_the_headline_figure(pages: Path) -> None:
    """The figure marked ``:headline:`` (here the second), not the first."""
    source = pages / "full.md"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace(":unit: of 16\n", ":unit: of 16\n:headline:\n", 1), encoding="utf-8")
    app = build(pages, freshenv=True)
    alt = head_meta(Path(app.outdir) / "full.html")["og:image:alt"]
    assert " · merged · Bias tables kept: 2 of 16 → 16 of 16 (≈8× higher) · " in alt
    assert "drift" not in alt


def test_a_write_up_without_a_figure_says_what_it_did(pages: Path) -> None:
    """A write-up with no figure: its card shows its impact (else its summary) under the title; it showed
    the title and empty space (the portfolio's vllm-metal card)."""
    app = build(pages, freshenv=True)
    alt = head_meta(Path(app.outdir) / "minimal.html")["og:image:alt"]
    said = "Made UMT5 servable on CTranslate2."
    assert alt == f"Add UMT5 support to CTranslate2 · CTranslate2#2103 · {said} · Project name not set"
    source = pages / "minimal.md"
    source.write_text(
        source.read_text(encoding="utf-8").replace(":summary:", ":impact: It did not load; now it does.\n:summary:"),
        encoding="utf-8",
    )
    app = build(pages)
    alt = head_meta(Path(app.outdir) / "minimal.html")["og:image:alt"]
    assert (
        alt
        == "Add UMT5 support to CTranslate2 · CTranslate2#2103 · It did not load; now it does. · Project name not set"
    )


def test_no_card_when_the_setting_is_off(pages: Path) -> None:
    app = build(pages, freshenv=True, contributions_social_cards=False)
    outdir = Path(app.outdir)
    assert not (outdir / CARD_DIR).exists()
    meta = head_meta(outdir / "full.html")
    assert "og:image" not in meta and "twitter:card" not in meta


def test_cards_need_a_base_url(pages: Path) -> None:
    app = build(pages, freshenv=True, html_baseurl="")
    assert not (Path(app.outdir) / CARD_DIR).exists()
    assert app.warning.getvalue() == ""  # a valid site: no warning, strict passes
    status = app.status.getvalue()
    assert (
        "html_baseurl is not set (no canonical URL), so no absolute URL to the site is written; left out: "
        "canonical links, absolute URLs in contributions.json, the Atom feed contributions.atom, "
        "social cards (og:image); set html_baseurl (on Read the Docs: READTHEDOCS_CANONICAL_URL) to write them"
    ) in status


def test_card_is_drawn_only_when_what_it_shows_changed(pages: Path) -> None:
    outdir = Path(build(pages, freshenv=True).outdir)
    card = card_file(outdir, head_meta(outdir / "full.html"))
    other = card_file(outdir, head_meta(outdir / "minimal.html"))
    before = card.stat()

    # the page's body changes, not what its card shows: the page is rewritten, its card is not
    source = pages / "full.md"
    source.write_text(source.read_text(encoding="utf-8").replace("Pass `is_causal", "Now pass `is_causal"))
    page_written = (outdir / "full.html").stat().st_mtime_ns
    build(pages)
    assert (outdir / "full.html").stat().st_mtime_ns != page_written
    assert card_file(outdir, head_meta(outdir / "full.html")) == card
    after = card.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)

    # the title changes: a new card under a new name, and the old one is gone
    source.write_text(source.read_text(encoding="utf-8").replace("# Fix UMT5", "# Fixed UMT5", 1))
    build(pages)
    new = card_file(outdir, head_meta(outdir / "full.html"))
    assert new != card and new.is_file() and not card.exists()
    assert sorted(path.name for path in (outdir / CARD_DIR).glob("full.*.png")) == [new.name]
    assert other.is_file()  # the other pages' cards stay


def test_cards_of_removed_pages_and_of_a_site_that_turns_them_off_are_removed(pages: Path) -> None:
    outdir = Path(build(pages, freshenv=True).outdir)
    escaping = card_file(outdir, head_meta(outdir / "escaping.html"))
    (pages / "escaping.md").unlink()
    build(pages)
    assert not escaping.exists()
    assert card_file(outdir, head_meta(outdir / "full.html")).is_file()
    build(pages, contributions_social_cards=False)
    assert not (outdir / CARD_DIR).exists()


def test_the_folder_of_the_tag_pages_cards_goes_with_them(pages: Path) -> None:
    outdir = Path(build(pages, freshenv=True, contributions_tag_page_min=1).outdir)
    assert list((outdir / CARD_DIR / "tags").glob("*.png"))
    build(pages, contributions_tag_page_min=100)
    assert not (outdir / CARD_DIR / "tags").exists()
    assert card_file(outdir, head_meta(outdir / "full.html")).is_file()


# -- a portfolio (tests/roots/test-portfolio), as Read the Docs builds it ----------------------------


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    src = copy_site(tmp_path_factory.mktemp("cards-site") / "src")
    outdir = src.parent / "html"
    done = rtd_build(src, outdir, env=environ_with(READTHEDOCS_CANONICAL_URL=SITE_URL))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    return outdir, done


def test_portfolio_write_ups_have_cards_through_opengraph(
    real_site: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    outdir, _ = real_site
    pages = sorted((PORTFOLIO / "contributions").glob("*.md"))
    texts = {page.stem: page.read_text(encoding="utf-8") for page in pages}
    write_ups = [stem for stem, text in texts.items() if ":::{contribution}" in text and ":status: draft" not in text]
    assert len(write_ups) >= 3
    for stem in write_ups:
        meta = head_meta(outdir / "contributions" / f"{stem}.html")
        image = meta["og:image"]
        assert image.startswith("https://") and f"/{CARD_DIR}/contributions/{stem}." in image
        assert_card_png((outdir / CARD_DIR / image.split(f"/{CARD_DIR}/", 1)[1]).read_bytes())
        assert meta["twitter:card"] == "summary_large_image"
        assert (meta["og:image:width"], meta["og:image:height"]) == ("1200", "630")
        assert meta["og:title"] and meta["og:description"]  # opengraph's own tags are still there
    html = (outdir / "contributions" / f"{write_ups[0]}.html").read_text(encoding="utf-8")
    assert html.count('property="og:image"') == 1 and html.count('name="twitter:card"') == 1


def test_portfolio_build_prints_nothing_about_matplotlib(
    real_site: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _, done = real_site
    assert "matplotlib" not in done.stdout + done.stderr
    assert done.stderr == ""


# -- sphinxext-opengraph's line about matplotlib (sphinx_contributions/write/fixes/opengraph_print.py) -------

MESSAGE = "matplotlib is not installed, social cards will not be generated"


def _tiny_site(tmp_path: Path, extensions: list[str], social: str) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "src"
    src.mkdir()
    (src / "index.md").write_text("# Home\n\nText.\n", encoding="utf-8")
    (src / "conf.py").write_text(
        textwrap.dedent(f"""\
            extensions = {extensions!r}
            html_baseurl = "{BASE}"
            {social}
        """),
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", str(src), str(tmp_path / "out")]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is not None, reason="with matplotlib nothing is printed")
@pytest.mark.parametrize(
    ("extensions", "social", "printed"),
    [
        # opengraph's cards off, this extension first: the line is gone
        (["myst_parser", "sphinx_contributions", "sphinxext.opengraph"], 'ogp_social_cards = {"enable": False}', 0),
        # the guard: listed after opengraph, this extension cannot take it out (opengraph prints it)
        (["myst_parser", "sphinxext.opengraph", "sphinx_contributions"], 'ogp_social_cards = {"enable": False}', 1),
        # opengraph's cards left on (its default) but impossible: the message is logged, where it means something
        (["myst_parser", "sphinx_contributions", "sphinxext.opengraph"], "", 1),
    ],
)
def test_opengraph_matplotlib_line(tmp_path: Path, extensions: list[str], social: str, printed: int) -> None:
    done = _tiny_site(tmp_path, extensions, social)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(MESSAGE) == printed
