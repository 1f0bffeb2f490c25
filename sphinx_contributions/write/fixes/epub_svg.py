"""EPUB 3 wants ``properties="svg"`` on a page with inline SVG (epubcheck ``OPF-014``): added to ``content.opf``, and
the book packed again.

Workaround ``epub_svg``: sphinx ``>=7.4,<10``; upstream: no upstream issue found."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from ...collect.domain import pages_showing_work
from ...compat import needed
from ..manifest import shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx

_ITEM = re.compile(r'<item id="[^"]*" href="(?P<href>[^"]*)" media-type="application/xhtml\+xml" */>')


def declare_svg(opf: Path, only: set[str] | None = None) -> bool:
    """Add ``properties="svg"`` to the items of ``opf`` whose page holds ``<svg`` (of ``only``); whether it changed."""
    text = opf.read_text(encoding="utf-8")

    def declared(match: re.Match[str]) -> str:
        href = unquote(match["href"])
        page = opf.parent / href
        if (
            (only is not None and href not in only)
            or not page.is_file()
            or "<svg" not in page.read_text(encoding="utf-8")
        ):
            return match[0]
        return match[0].removesuffix("/>").rstrip() + ' properties="svg" />'

    new = _ITEM.sub(declared, text)
    if new != text:
        opf.write_text(new, encoding="utf-8")
    return new != text


def fix_epub(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: declare the pages with SVG and pack the book again."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return
    # an ePub builder's module is loaded where one builds; not imported here, a cost to every other build
    epub3 = sys.modules.get("sphinx.builders.epub3")
    if exception is not None or epub3 is None or not isinstance(app.builder, epub3.Epub3Builder):
        return
    if not needed("epub_svg"):
        return
    only = None
    if not app.config.contributions_book_fixes:
        only = {unquote(app.builder.get_target_uri(doc)) for doc in pages_showing_work(app)}
    if declare_svg(Path(app.outdir) / "content.opf", only):
        app.builder.build_epub()
