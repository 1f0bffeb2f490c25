"""Sharing, as a link preview shows the site: every page in the sitemap names a 1200×630 card
(``og:image``, with ``og:image:alt`` and ``twitter:image:alt``), tag and project pages included; the home
page's card shows the proof (each pull request, its state and headline figure); write-ups are
``og:type`` ``article``."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

from bs4 import BeautifulSoup
from PIL import Image

from .conftest import SITE_URL

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"


def head(page: Path) -> dict[str, str]:
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    found = {}
    for meta in soup.select("meta[property], meta[name]"):
        name = str(meta.get("property") or meta.get("name"))
        assert not (name.startswith(("og:", "twitter:")) and name in found), f"{page}: {name} twice"
        found[name] = str(meta.get("content"))
    return found


def test_every_page_in_the_sitemap_has_a_card(site: Path) -> None:
    locs = [loc.text or "" for loc in ET.parse(site / "sitemap.xml").getroot().iter(SITEMAP)]
    pages = [loc.removeprefix(SITE_URL) for loc in locs]
    assert {"index.html", "tags/training.html", "projects/beta.html", "contributions/alpha-101.html"} <= set(pages)
    for name in pages:
        meta = head(site / name)
        image = meta.get("og:image", "")
        assert image.startswith(SITE_URL + "_images/social/"), name
        with Image.open(site / image.removeprefix(SITE_URL)) as card:
            assert card.size == (1200, 630), name
        assert meta["twitter:card"] == "summary_large_image", name
        assert meta["og:image:alt"] and meta["twitter:image:alt"] == meta["og:image:alt"], name
        writeup = name.startswith("contributions/") and name != "contributions/index.html"
        assert meta["og:type"] == ("article" if writeup else "website"), name


def test_the_home_card_shows_the_proof(site: Path) -> None:
    alt = head(site / "index.html")["og:image:alt"]
    assert alt == (
        "Ada Tester · Test Engineer · Fictional Systems · Example Data · "
        "Alpha #101 · merged: 0 of 140 → 139 of 140 · Valid prompts on the example model · "
        "beta #202 · merged: ~1.03e-1 → ~1.91e-6 (more than 10⁴× lower) · Position-0 drift · "
        "gamma #303: Gamma option on the fast path"
    )


def test_tag_and_project_pages_card_their_write_ups(site: Path) -> None:
    assert head(site / "tags/training.html")["og:image:alt"] == (
        "Tag: training · Add per-layer tables to the alpha loader; Fix the beta decoder mask · Ada Tester"
    )
    assert head(site / "projects/gamma.html")["og:image:alt"] == (
        "Project: gamma · Gamma option on the fast path · Ada Tester"
    )
