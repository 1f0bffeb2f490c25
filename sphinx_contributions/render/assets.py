"""The extension's stylesheet and script (``static/``), on the pages of HTML builders only; the listings'
filter script only on a site's pages, where its listings are."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..builders import is_site_builder, writes_html
from .filter import add_filter_script

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
STATIC_FILES = ("contributions.css", "contributions.js")


def add_static_path(app: Sphinx, config: Config) -> None:
    """``config-inited``: the extension's ``static/`` folder, as a site's own would be, set before the
    environment compares this configuration with the last build's: set later (at ``builder-inited``), the
    last build's pickled configuration held it and this one not yet, so every build with nothing to do
    said "The configuration has changed (1 option: 'html_static_path')". Builders that write no HTML
    never read it."""
    if str(STATIC_DIR) not in config.html_static_path:
        config.html_static_path.append(str(STATIC_DIR))


def add_static_files(app: Sphinx) -> None:
    """``builder-inited``: the extension's CSS and script, for HTML builders only."""
    if not writes_html(app.builder):
        return
    app.add_css_file("contributions.css")
    if is_site_builder(app.builder):  # the filter script works on a site's listing pages
        add_filter_script(app)
