"""A renamed write-up's old address leads to it: the output's memory (:mod:`.manifest`) tells where a key's page moved,
and a redirect page stays there (``html``, ``dirhtml``)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util.osutil import relative_uri

from ..collect.domain import get_domain
from ..files import write_whole
from ..settings import canonical_url
from .manifest import redirects, shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx


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


def write_redirects(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages``: each redirect page, written as a file (no page of the theme's)."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return []
    builder = app.builder
    base = canonical_url(app.config)
    domain = get_domain(app.env)
    for old, page in redirects(app).items():
        href = relative_uri(builder.get_target_uri(old), builder.get_target_uri(page)) or "#"
        record = domain.contributions[page]
        canonical = f'<link rel="canonical" href="{escape(base + builder.get_target_uri(page))}">\n' if base else ""
        text = PAGE.format(
            lang=escape(app.config.language or "en"), title=escape(record.title), href=escape(href), canonical=canonical
        )
        write_whole(Path(builder.get_outfilename(old)), text)  # type: ignore[attr-defined]  # HTML builders
    return []
