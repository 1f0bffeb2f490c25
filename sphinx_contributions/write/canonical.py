"""Without a canonical URL (``html_baseurl``) no absolute URL to the site is written (canonical links, feed, cards,
sitemap, ``og:url``), and one information line says what is left out."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from ..builders import is_site_builder
from ..settings import canonical_url
from .manifest import shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config

logger = logging.getLogger(__name__)

#: sphinx-sitemap's warning when it has no URL (``type``.``subtype``)
SITEMAP_WARNING = "sitemap.configuration"
#: an ``og:url`` whose content is not an absolute URL
_RELATIVE_OG_URL = re.compile(r'<meta property="og:url" content="(?![a-z][a-z0-9+.-]*:)[^"]*"\s*/?>\n?', re.I)


def left_out(app: Sphinx) -> list[str]:
    """What this build does not write for want of a canonical URL, in the order the line names them."""
    items = ["canonical links", "absolute URLs in contributions.json", "the Atom feed contributions.atom"]
    if "sphinx_sitemap" in app.extensions:
        items.append("the sitemap")
    if "sphinxext.opengraph" in app.extensions:
        items.append("og:url")
    if app.config.contributions_social_cards:
        items.append("social cards (og:image)")
    return items


def report_left_out(app: Sphinx, builder: Builder) -> None:
    """``write-started``: the information line, where there is no canonical URL and the site shows work."""
    if canonical_url(app.config) or not is_site_builder(builder) or not shows_work(app):
        return
    logger.info(
        "html_baseurl is not set (no canonical URL), so no absolute URL to the site is written; left out: "
        + ", ".join(left_out(app))
        + "; set html_baseurl (on Read the Docs: READTHEDOCS_CANONICAL_URL) to write them"
    )


def silence_sitemap(app: Sphinx, config: Config) -> None:
    """``config-inited``: no sphinx-sitemap warning of a missing URL; the information line says it."""
    silenced = SITEMAP_WARNING in config.suppress_warnings
    if not config.contributions_sitemap:  # sphinx-sitemap's own warning stays the site's
        return
    if not canonical_url(config) and "sphinx_sitemap" in app.extensions and not silenced:
        config.suppress_warnings = [*config.suppress_warnings, SITEMAP_WARNING]


def drop_relative_og_url(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``, after opengraph: a relative ``og:url`` (no site URL) is dropped."""
    if canonical_url(app.config) or "metatags" not in context or not shows_work(app):
        return
    context["metatags"] = _RELATIVE_OG_URL.sub("", context["metatags"])
