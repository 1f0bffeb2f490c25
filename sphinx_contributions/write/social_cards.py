"""Social cards (``contributions_social_cards``): a PNG per page, named by a digest of what it shows, so it is drawn
again only when that changed."""

from __future__ import annotations

import contextlib
import importlib.util
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from docutils import nodes
from markupsafe import Markup, escape
from sphinx.util import logging

from ..builders import is_site_builder
from ..collect.domain import get_domain
from ..files import write_whole
from ..queries import sort_records
from ..render.card_size import HEIGHT, WIDTH
from ..render.header import stat
from ..settings import canonical_url
from ..warnings import ContribWarning, warn
from .fixes.opengraph_fields import opengraph_form

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

    from ..records import Contribution, Metric
    from ..render.card_image import Card, Fonts, Palette

logger = logging.getLogger(__name__)

CARD_DIR = "_images/social"
_CARD_NAME = re.compile(r"^(?P<docname>.+)\.[0-9a-f]{16}\.png$")


def cards_enabled(app: Sphinx) -> bool:
    """Whether this build writes cards: they are on and the builder writes a website."""
    return bool(app.config.contributions_social_cards) and is_site_builder(app.builder) and has_pillow()


def has_pillow() -> bool:
    """Whether Pillow (the ``cards`` extra) is installed, without importing it."""
    return importlib.util.find_spec("PIL") is not None


def site_name(config: Config) -> str:
    """The name sphinxext-opengraph gives the site (``ogp_site_name``, else ``project``)."""
    name = getattr(config, "ogp_site_name", None)
    return name if isinstance(name, str) and name else config.project


def site_palette(config: Config) -> Palette:
    """The card palette, with the theme's dark brand colour as accent when furo's options set one."""
    from PIL import ImageColor

    from ..render.card_image import Palette

    options = config.html_theme_options or {}
    dark = options.get("dark_css_variables") or {}
    accent = dark.get("color-brand-primary") if isinstance(dark, dict) else None
    if isinstance(accent, str):
        try:
            ImageColor.getrgb(accent)
        except ValueError:
            return Palette()
        return Palette(accent=accent)
    return Palette()


def proof_figure(metric: Metric) -> str:
    """A headline figure for the home page's card, numbers first (an ellipsis cuts the label)."""
    unit = f" {metric.unit}" if metric.unit else ""
    change = stat(metric).telling
    said = f" ({change})" if change else ""
    return f"{metric.before_text}{unit} → {metric.after_text}{unit}{said} · {metric.label}"


def proof_rows(records: list[Contribution]) -> tuple[tuple[str, str], ...]:
    """A row per write-up for the home page's card: key and state, and its figure or summary."""
    rows = []
    for record in sort_records(records, "project"):
        head = f"{record.display_project} #{record.pr}" + (f" · {record.status}" if record.status else "")
        rows.append((head, proof_figure(record.headline) if record.headline else record.title))
    return tuple(rows)


def page_card(app: Sphinx, pagename: str, doctree: nodes.document, record: Contribution | None) -> Card:
    """A page's card: a write-up's record, the home page's proof, or a title and first paragraph."""
    from ..render.card_image import Card

    if record is not None:
        # no figure: what the write-up says of itself (its impact, else its summary), not a title and space
        figure = stat(record.headline).brief if record.headline else record.description
        return Card(record.title, site_name(app.config), record.key, record.status, figure)
    title = app.env.titles[pagename].astext() if pagename in app.env.titles else ""
    opening = next((text for node in doctree.findall(nodes.paragraph) if (text := node.astext().strip())), "")
    if pagename == app.config.root_doc:
        return Card(title, site_name(app.config), figure=opening, rows=proof_rows(get_domain(app.env).published()))
    return Card(title, site_name(app.config), figure=opening)


def generated_page_card(app: Sphinx, pagename: str, title: str) -> Card | None:
    """A tag or project page's card: its heading and its write-ups' titles; None elsewhere."""
    from ..render.card_image import Card

    page = get_domain(app.env).all_generated_pages().get(pagename)
    if page is None:
        return None
    records = sort_records(page.records, "project")
    return Card(title, site_name(app.config), figure="; ".join(record.title for record in records))


def write_card(outdir: Path, docname: str, card: Card, palette: Palette, fonts: Fonts) -> str:
    """The card's path, drawn only if missing; the page's earlier cards are removed."""
    from ..render.card_image import card_digest, render_card

    relative = f"{CARD_DIR}/{docname}.{card_digest(card, palette, fonts)}.png"
    path = outdir / relative
    if not path.is_file():
        write_whole(path, render_card(card, palette, fonts))  # never a half-written card
        base = Path(docname).name
        for other in path.parent.iterdir():
            match = _CARD_NAME.match(other.name)
            if match and match["docname"] == base and other != path:
                other.unlink()
    return relative


def meta_tag(name: str, content: str) -> str:
    """One self-closed (XHTML-safe) ``<meta>``: ``og:*`` as ``property``, others as ``name``."""
    attribute = "property" if name.startswith("og:") else "name"
    return f'<meta {attribute}="{escape(name)}" content="{escape(content)}" />'


def page_meta_tags(title: str, description: str, *, url: str = "", site: str = "", image: str = "") -> str:
    """OpenGraph and description tags for a page without a source (tag, project, 404)."""
    tags = {"og:title": title, "og:type": "website", "og:url": url, "og:site_name": site}
    tags |= {"og:description": description, "description": description}
    if image:
        tags |= {"og:image": image, "og:image:width": str(WIDTH), "og:image:height": str(HEIGHT)}
    if image:  # without one, the card's tags come from add_card, or there is no card
        tags["twitter:card"] = "summary_large_image"
    return "\n".join(meta_tag(name, content) for name, content in tags.items() if content) + "\n"


def add_card(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document) -> None:
    """``html-page-context``, before opengraph's: the page's card and the tags naming it."""
    if not cards_enabled(app) or not canonical_url(app.config):
        return
    meta = dict(context.get("meta") or {})
    if "ogp_disable" in meta or "og:image" in meta:  # the page opted out, or names its own image
        return
    from ..render.card_image import Fonts

    if doctree is None:
        card = generated_page_card(app, pagename, Markup(str(context.get("title") or "")).unescape())
        if card is None:
            return
    else:
        card = page_card(app, pagename, doctree, get_domain(app.env).contributions.get(pagename))
    relative = write_card(Path(app.outdir), pagename, card, site_palette(app.config), Fonts.find())
    url = canonical_url(app.config) + quote(relative)
    image = {"og:image": url, "og:image:alt": card.alt, "og:image:width": str(WIDTH), "og:image:height": str(HEIGHT)}
    twitter = [meta_tag("twitter:card", "summary_large_image"), meta_tag("twitter:image:alt", card.alt)]
    form = opengraph_form() if doctree is not None and "sphinxext.opengraph" in app.extensions else None
    if form is not None:
        # opengraph takes og:image from the metadata; a copy, so the environment's stays as read
        context["meta"] = meta | {name: form(value) for name, value in image.items()}
        tags = twitter
    else:
        tags = [meta_tag(name, value) for name, value in image.items()] + twitter
    context["metatags"] = context.get("metatags", "") + "\n".join(tags) + "\n"


def check_base_url(app: Sphinx) -> None:
    """``builder-inited``: cards are on and Pillow is missing: a warning (no base URL is said by :mod:`.canonical`)."""
    if app.config.contributions_social_cards and is_site_builder(app.builder) and not has_pillow():
        warn(
            ContribWarning.CONFIG,
            "contributions_social_cards is on but Pillow is not installed: no social cards are written "
            "(install it with: pip install 'sphinx-contributions[cards]')",
            None,
        )


def remove_stale_cards(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the cards of pages gone (all when off), and the folders left empty."""
    if exception is not None or not is_site_builder(app.builder):
        return
    root = Path(app.outdir) / CARD_DIR
    if not root.is_dir():
        return
    if not cards_enabled(app) or not canonical_url(app.config):
        shutil.rmtree(root)
    else:
        pages = {*app.env.all_docs, *get_domain(app.env).all_generated_pages()}
        for path in sorted(root.rglob("*")):
            match = _CARD_NAME.match(path.relative_to(root).as_posix())
            if path.is_file() and (match is None or match["docname"] not in pages):
                path.unlink()
        for folder in sorted((p for p in root.rglob("*") if p.is_dir()), reverse=True):  # the deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()  # only an empty one
    for folder in (root, root.parent):
        with contextlib.suppress(OSError):
            folder.rmdir()
