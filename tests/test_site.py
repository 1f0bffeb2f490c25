"""The real site: it builds strictly with Read the Docs' command, has its pages, and every internal
link in the built HTML resolves to a file."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

from sphinx.util.inventory import InventoryFile

PAGES = [
    "index.html",
    "about/index.html",
    "open-source/index.html",
    "contributions/index.html",
    "contributions/transformers-49135.html",
    "contributions/ctranslate2-2103.html",
    "contributions/vllm-metal-1182.html",
    "404.html",
]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        for name in ("href", "src"):
            if values.get(name) and tag in {"a", "link", "script", "img"}:
                self.links.append(values[name] or "")


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_pages_exist(site: Path) -> None:
    missing = [page for page in PAGES if not (site / page).is_file()]
    assert missing == []


def test_every_internal_link_resolves(site: Path) -> None:
    broken = []
    checked = 0
    for page in sorted(site.rglob("*.html")):
        if page.name == "404.html":  # absolute links from the canonical URL's path, checked below
            continue
        for link in _parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "#")):
                continue
            path, fragment = urldefrag(unquote(parts.path))
            target = (page.parent / path).resolve() if path else page
            checked += 1
            if not target.is_file():
                broken.append(f"{page.relative_to(site)} -> {link}")
            elif fragment and target.suffix == ".html" and fragment not in _parse(target).ids:
                broken.append(f"{page.relative_to(site)} -> {link} (no id {fragment!r})")
    assert checked > 100
    assert broken == []


def test_404_links_are_absolute_under_the_canonical_path(site: Path) -> None:
    links = [link for link in _parse(site / "404.html").links if not urlsplit(link).scheme and link[0] != "#"]
    assert links, "the 404 page links to the site's assets"
    for link in links:
        assert link.startswith("/en/latest/"), link
        assert (site / link.removeprefix("/en/latest/").split("#")[0].split("?")[0]).exists(), link


TITLES = {
    "ctranslate2#2103": "Add UMT5 support: per-layer relative attention bias",
    "transformers#49135": "Fix UMT5 decoder self-attention not being causal",
    "vllm-metal#1182": "LFM2-VL image input on the paged path",
}


def test_objects_inv_names_each_write_up_and_its_sections(site: Path) -> None:
    """Other sites link through ``objects.inv``: each write-up by its lowercased key, shown by its title;
    each of its four sections as ``<key>#<section>`` and as a ``{ref}`` label."""
    with open(site / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "https://example.org/", lambda base, uri: base + uri)
    entries = inventory["contrib:contribution"]
    assert {name: entry.display_name for name, entry in entries.items()} == TITLES
    assert entries["transformers#49135"].uri == (
        "https://example.org/contributions/transformers-49135.html#contribution"
    )
    sections = inventory["contrib:section"]
    assert len(sections) == 3 * 4
    for key, title in TITLES.items():
        page = "https://example.org/contributions/" + key.replace("#", "-") + ".html"
        for name, heading in (
            ("problem", "Problem"),
            ("root-cause", "Root cause"),
            ("fix", "Fix"),
            ("verification", "Verification"),
        ):
            entry = sections[f"{key}#{name}"]
            assert (entry.uri, entry.display_name) == (f"{page}#{name}", f"{title} — {heading}")
            label = inventory["std:label"][key.replace("#", "-") + f"-{name}"]
            assert (label.uri, label.display_name) == (entry.uri, entry.display_name)


def test_contrib_links_between_pages_resolve(site: Path) -> None:
    html = (site / "contributions/transformers-49135.html").read_text(encoding="utf-8")
    assert 'href="ctranslate2-2103.html#contribution"' in html
    html = (site / "contributions/ctranslate2-2103.html").read_text(encoding="utf-8")
    assert 'href="transformers-49135.html#contribution"' in html
