"""A renamed write-up's old address still leads to it. The build knows each write-up by its key
(``repo#N``, or ``:key:``), not by its file: the output's memory (:mod:`.manifest`, ``addresses``: key →
the page it was last written to) tells when a key's page moved, and the output then holds a small
redirect page at the old address, as sphinx-reredirects writes one (a meta refresh, a canonical link
where the site has a canonical URL, ``noindex`` and a link to follow by hand), with one info line.

The redirects an output holds are remembered too (``redirects``: old page → key), so each build keeps
them, and they are files of the output (:func:`.manifest.held_files`): a redirect whose
write-up is gone, or whose address a page of the site now takes, is removed as any stale file is.
Only website builders that write a file per page (``html``, ``dirhtml``) write them; the memory is per
builder and output folder, so the first build of an output writes none.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging
from sphinx.util.osutil import relative_uri

from ..builders import is_site_builder, output_of
from ..collect.domain import get_domain
from ..files import write_whole
from ..settings import canonical_url
from .manifest import note, recalled, this_build

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

PAGE = """\
<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="0; url={href}">
{canonical}</head>
<body>
<p>This page has moved: <a href="{href}">{title}</a>.</p>
</body>
</html>
"""


def _writes_redirects(app: Sphinx) -> bool:
    return is_site_builder(app.builder) and output_of(app.builder).pages


def redirects(app: Sphinx) -> dict[str, str]:
    """Old page → the page its write-up is at now, for every redirect this output holds after this build
    (worked out once per build, when writing starts)."""
    kept = this_build(app)
    if "redirect_pages" in kept:
        found: dict[str, str] = kept["redirect_pages"]
        return found
    found = kept["redirect_pages"] = {}
    if not _writes_redirects(app):
        return found
    env = app.env
    domain = get_domain(env)
    pages = {record.key: record.docname for record in domain.contributions.values()}
    taken = set(env.found_docs) | set(domain.generated_pages())
    old_pages = recalled(app, "addresses")
    note(app, "addresses", pages)
    moved = {old: key for key, page in pages.items() if (old := old_pages.get(key)) not in (None, page)}
    now = {old: key for old, key in (recalled(app, "redirects") | moved).items() if key in pages and old not in taken}
    note(app, "redirects", now)
    for old, key in sorted(now.items()):
        found[old] = pages[key]
        if old in moved:
            logger.info("%s moved to %s: a redirect page keeps its old address", old, pages[key])
    return found


def redirect_files(app: Sphinx) -> Iterator[Path]:
    """The file of each redirect this output holds (:func:`.manifest.held_files`)."""
    for old in redirects(app):
        yield Path(app.builder.get_outfilename(old))  # type: ignore[attr-defined]  # HTML builders


def write_redirects(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages``: each redirect page, written as a file (no page of the theme's)."""
    builder = app.builder
    base = canonical_url(app.config)
    domain = get_domain(app.env)
    for old, page in redirects(app).items():
        href = relative_uri(builder.get_target_uri(old), builder.get_target_uri(page)) or "#"
        record = domain.contributions[page]
        canonical = f'<link rel="canonical" href="{escape(base + builder.get_target_uri(page))}">\n' if base else ""
        text = PAGE.format(
            lang=escape(app.config.language or "en"),
            title=escape(record.title),
            href=escape(href),
            canonical=canonical,
        )
        write_whole(Path(builder.get_outfilename(old)), text)  # type: ignore[attr-defined]  # HTML builders
    return []
