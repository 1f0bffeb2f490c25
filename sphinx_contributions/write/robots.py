"""A build that is not the published site (``contributions_noindex``) says ``noindex`` on every page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..builders import is_site_builder

if TYPE_CHECKING:
    from sphinx.application import Sphinx

NOINDEX = '<meta name="robots" content="noindex">'


def add_noindex(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``: every page of a site builder, when ``contributions_noindex`` is set."""
    if app.config.contributions_noindex and is_site_builder(app.builder):
        context["metatags"] = context.get("metatags", "") + NOINDEX + "\n"
