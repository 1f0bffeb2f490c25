"""The one answer to "does this site show the extension's work?", as a handler of the writing stages asks it.

A page read ran one of the extension's directives or roles (:func:`..collect.own_nodes.site_shows_work`),
or this output keeps a memory of a build that did (:func:`.manifest.in_use`: what that build wrote for them
is removed by the same handlers). Every handler with nothing to do on a guest's site (no write-up, listing,
overview, figure, callout or role) asks it first and returns at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..collect.own_nodes import site_shows_work
from .manifest import in_use

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def shows_work(app: Sphinx) -> bool:
    """A page read ran the extension's directives or roles, or this output keeps a memory of a build that did."""
    return site_shows_work(app) or in_use(app)
