"""Social cards, 1200×630 PNGs drawn with Pillow in a few ms (sphinxext-opengraph's matplotlib takes ~87 ms a card): the
same bytes for the same inputs (:func:`card_digest`)."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path

import PIL
from PIL import Image, ImageColor, ImageDraw, ImageFont, features

from .card_size import HEIGHT as HEIGHT
from .card_size import WIDTH as WIDTH

#: bump when the drawing changes: every card's digest changes with it, so every card is redrawn
DRAWING_VERSION = 2

MARGIN = 72
BAR = 12  # the accent bar along the top edge
TITLE_SIZES = (64, 56, 48)  # the first size at which the title fits in TITLE_LINES lines, else the last, cut
TITLE_LINES = 3
FIGURE_SIZE, FIGURE_LINES = 34, 3
SITE_SIZE = 30
KEY_SIZE = 34
STATE_SIZE = 26
#: the home page's proof: a row per pull request, its key and state, then its headline figure
ROW_SIZE, ROW_DETAIL_SIZE, MAX_ROWS = 30, 26, 3
LINE_SPACING = 1.22
#: text longer than this is cut before it is laid out (no card shows more than ~250 characters of it)
MAX_CHARS = 500
ELLIPSIS = "…"

#: DejaVu Sans (Debian's ``fonts-dejavu-core``): Latin, Greek, Cyrillic, Arabic, Hebrew, ≈ × →
DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
DEJAVU = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


@dataclass(frozen=True)
class Card:
    """What one card shows; empty fields are left out."""

    title: str
    site: str = ""
    #: ``repo#PR`` for a write-up
    key: str = ""
    #: the write-up's state, only when it states one
    status: str | None = None
    #: the line(s) under the title: a write-up's headline figure, another page's opening paragraph
    figure: str = ""
    #: rows under that (the home page's proof): (key and state, headline figure); :data:`MAX_ROWS` drawn
    rows: tuple[tuple[str, str], ...] = ()

    @property
    def alt(self) -> str:
        """The card's text on one line (``og:image:alt``)."""
        rows = [f"{head}: {detail}" if detail else head for head, detail in self.rows[:MAX_ROWS]]
        site = "" if clean_text(self.site) == clean_text(self.title) else self.site  # as drawn: named once
        parts = (self.title, self.key, self.status or "", self.figure, *rows, site)
        return " · ".join(text for text in map(clean_text, parts) if text)


@dataclass(frozen=True)
class Palette:
    """The site's dark palette (furo's dark background, the brand colour, the state badges' colours)."""

    background: str = "#131416"
    accent: str = "#22d3ee"
    title: str = "#f8fafc"
    text: str = "#cbd5e1"
    badge_text: str = "#111827"
    states: tuple[tuple[str, str], ...] = (
        ("merged", "#c4b5fd"),
        ("open", "#fcd34d"),
        ("closed", "#cbd5e1"),
        ("draft", "#fca5a5"),
    )


@dataclass(frozen=True)
class Fonts:
    """A regular and a bold font file; ``None`` stands for Pillow's bundled font (ASCII only)."""

    regular: str | None = None
    bold: str | None = None

    @classmethod
    def find(cls) -> Fonts:
        """DejaVu Sans where the system has it, else Pillow's bundled font (always there)."""
        paths = [DEJAVU_DIR / name for name in DEJAVU]
        if all(path.is_file() for path in paths):
            return cls(str(paths[0]), str(paths[1]))
        return cls()

    @property
    def bundled(self) -> bool:
        return self.regular is None

    @property
    def identity(self) -> str:
        """What the pixels depend on besides the card: the files, Pillow and its text layout engine."""
        layout = "raqm " + (features.version("raqm") or "") if features.check("raqm") else "basic"
        return f"{self.regular}|{self.bold}|Pillow {PIL.__version__}|{layout}"

    def get(self, size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
        return _load_font(self.bold if bold else self.regular, size)


@functools.lru_cache(maxsize=32)
def _load_font(path: str | None, size: int) -> ImageFont.FreeTypeFont:
    """A font at a size, loaded once per process (a few sizes of two files)."""
    font = ImageFont.truetype(path, size) if path else ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("social cards need Pillow with FreeType support")
    return font


# -- text --------------------------------------------------------------------------------------------

_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: for Pillow's bundled font, which has ASCII only: the symbols the site's figures use, in ASCII
_ASCII = str.maketrans({"≈": "~", "×": "x", "→": "->", "←": "<-", "—": "-", "–": "-", "−": "-"})


def clean_text(text: str) -> str:
    """NFC, whitespace collapsed, and characters that cannot be laid out (control, format, unassigned…) dropped."""
    if text.isascii() and text.isprintable():  # the common case, without a look at each character
        return " ".join(text.split())
    kept = "".join(
        " " if char.isspace() else char for char in text if char.isspace() or unicodedata.category(char) not in _DROPPED
    )
    return " ".join(unicodedata.normalize("NFC", kept).split())


def _ascii_fallback(text: str) -> str:
    """Accents dropped (é → e) and a few symbols spelled in ASCII, for the bundled font."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _prepare(text: str, fonts: Fonts) -> str:
    text = clean_text(text)
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS].rstrip() + ELLIPSIS
    return _ascii_fallback(text) if fonts.bundled else text


def _fits(text: str, font: ImageFont.FreeTypeFont, width: int) -> bool:
    return font.getlength(text) <= width


def _longest_prefix(text: str, font: ImageFont.FreeTypeFont, width: int, suffix: str = "") -> int:
    """The length of the longest prefix of ``text`` that fits with ``suffix`` after it (binary search)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _fits(text[:mid].rstrip() + suffix, font, width):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _take_line(text: str, font: ImageFont.FreeTypeFont, width: int) -> tuple[str, str]:
    """The first line of ``text`` (whole words where a word fits on a line) and the rest."""
    if _fits(text, font, width):
        return text, ""
    words = text.split(" ")
    line = words[0]
    if not _fits(line, font, width):  # one word wider than the card: cut it
        cut = max(1, _longest_prefix(line, font, width))
        return line[:cut], text[cut:].lstrip()
    count = 1
    while count < len(words) and _fits(line + " " + words[count], font, width):
        line += " " + words[count]
        count += 1
    return line, " ".join(words[count:]).lstrip()


def _ellipsize(text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` if it fits on one line, else its longest fitting prefix with an ellipsis, at a word end if near."""
    if _fits(text, font, width):
        return text
    cut = _longest_prefix(text, font, width, ELLIPSIS)
    space = text.rfind(" ", 0, cut + 1)
    if space > cut * 2 // 3:
        cut = space
    return text[:cut].rstrip() + ELLIPSIS


def wrap(text: str, font: ImageFont.FreeTypeFont, width: int, max_lines: int) -> tuple[list[str], bool]:
    """``text`` in lines of at most ``width`` px, cut with an ellipsis past ``max_lines``; and whether all is shown."""
    lines: list[str] = []
    rest = text
    while rest and len(lines) < max_lines - 1:
        line, rest = _take_line(rest, font, width)
        lines.append(line)
    if rest:
        last = _ellipsize(rest, font, width)
        lines.append(last)
        return lines, last == rest
    return lines, True


# -- drawing -----------------------------------------------------------------------------------------


def _rgb(colour: str) -> tuple[int, int, int]:
    value = ImageColor.getrgb(colour)
    return value[0], value[1], value[2]


def _ramp(start: str, end: str, steps: int = 16) -> list[tuple[int, ...]]:
    ends = list(zip(_rgb(start), _rgb(end), strict=True))
    return [tuple(round(a + (b - a) * i / (steps - 1)) for a, b in ends) for i in range(steps)]


@functools.lru_cache(maxsize=8)
def palette_image(palette: Palette) -> Image.Image:
    """The card's 256 colours, ramps that keep anti-aliasing: a third of a true-colour PNG's time, half its size."""
    inks = (palette.accent, palette.title, palette.text, *(colour for _, colour in palette.states))
    colours: list[tuple[int, ...]] = []
    for ink in inks:
        colours += _ramp(palette.background, ink)
    for _, colour in palette.states:
        colours += _ramp(colour, palette.badge_text)
    unique = list(dict.fromkeys(colours))[:256]
    unique += [unique[0]] * (256 - len(unique))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in unique for channel in colour])
    return image


class _Pen:
    """Draws lines of text top-down from ``y``."""

    def __init__(self, image: Image.Image, fonts: Fonts, y: int) -> None:
        self.draw = ImageDraw.Draw(image)
        self.fonts = fonts
        self.y = y

    def lines(self, lines: list[str], size: int, colour: str, *, bold: bool = False) -> None:
        font = self.fonts.get(size, bold=bold)
        step = round(size * LINE_SPACING)
        for line in lines:
            self.draw.text((MARGIN, self.y + size), line, font=font, fill=colour, anchor="ls")
            self.y += step


def _pill(image: Image.Image, box: tuple[int, int, int, int], colour: str) -> None:
    """A rounded badge, anti-aliased (drawn at 4× and scaled down as a mask)."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    mask = Image.new("L", (width * 4, height * 4), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width * 4 - 1, height * 4 - 1), radius=height * 2, fill=255)
    image.paste(colour, box, mask.resize((width, height), Image.Resampling.BOX))


def render_card(card: Card, palette: Palette | None = None, fonts: Fonts | None = None) -> bytes:
    """The card as PNG bytes, 1200×630, 256 colours."""
    palette = palette or Palette()
    fonts = fonts or Fonts.find()
    image = Image.new("RGB", (WIDTH, HEIGHT), palette.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, BAR - 1), fill=palette.accent)
    inner = WIDTH - 2 * MARGIN
    pen = _Pen(image, fonts, MARGIN)

    site, title = _prepare(card.site, fonts), _prepare(card.title, fonts)
    if site and site != title:  # the home page is often titled with the site's name
        pen.lines([_ellipsize(site, fonts.get(SITE_SIZE, bold=True), inner)], SITE_SIZE, palette.accent, bold=True)
        pen.y += 18

    for size in TITLE_SIZES:
        lines, whole = wrap(title, fonts.get(size, bold=True), inner, TITLE_LINES)
        if whole:
            break
    pen.lines(lines, size, palette.title, bold=True)

    figure = _prepare(card.figure, fonts)
    if figure:
        pen.y += 22
        size = ROW_SIZE if card.rows else FIGURE_SIZE  # above the rows: one line, a little smaller
        lines, _ = wrap(figure, fonts.get(size), inner, 1 if card.rows else FIGURE_LINES)
        pen.lines(lines, size, palette.text)

    for head, detail in card.rows[:MAX_ROWS]:
        pen.y += 20
        pen.lines(
            [_ellipsize(_prepare(head, fonts), fonts.get(ROW_SIZE, bold=True), inner)],
            ROW_SIZE,
            palette.accent,
            bold=True,
        )
        if detail:
            pen.lines(
                [_ellipsize(_prepare(detail, fonts), fonts.get(ROW_DETAIL_SIZE), inner)], ROW_DETAIL_SIZE, palette.text
            )

    key, status = _prepare(card.key, fonts), _prepare(card.status or "", fonts)
    baseline = HEIGHT - MARGIN
    if status:
        state_font = fonts.get(STATE_SIZE, bold=True)
        label = _ellipsize(status, state_font, inner // 3)
        pad, height = 20, 46
        width = round(state_font.getlength(label)) + 2 * pad
        key_font = fonts.get(KEY_SIZE, bold=True)
        key = _ellipsize(key, key_font, inner - width - 24) if key else ""
        left = MARGIN + (round(key_font.getlength(key)) + 24 if key else 0)
        top = baseline - 36
        _pill(image, (left, top, left + width, top + height), dict(palette.states).get(card.status or "", palette.text))
        draw.text((left + pad, top + height // 2), label, font=state_font, fill=palette.badge_text, anchor="lm")
    if key:
        key_font = fonts.get(KEY_SIZE, bold=True)
        draw.text((MARGIN, baseline), _ellipsize(key, key_font, inner), font=key_font, fill=palette.title, anchor="ls")

    out = io.BytesIO()
    image.quantize(palette=palette_image(palette), dither=Image.Dither.NONE).save(out, "PNG", compress_level=3)
    return out.getvalue()


def card_digest(card: Card, palette: Palette | None = None, fonts: Fonts | None = None) -> str:
    """16 hex digits naming the card's pixels: its text, the palette, the fonts and the drawing's version."""
    inputs = [DRAWING_VERSION, asdict(card), asdict(palette or Palette()), (fonts or Fonts.find()).identity]
    return hashlib.sha256(json.dumps(inputs, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]
