"""When a handler of the wiring table has anything to do: the ``when`` of a row of
:data:`..extension.HANDLERS`, asked with the event's arguments before the handler's module is imported.

A site that lists the extension and shows nothing of it (no page ran one of its directives or roles, and
no output keeps a memory of an earlier build that did) is a guest's site: the handlers that render,
list, export or index write-ups have nothing to do there, and their modules (most of the package) are
never imported (:mod:`..lazy`; issue 32). A gate must be cheap, import nothing heavy, and be asked only
once the pages are read (its event comes after ``env-updated``), except those that read settings alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..builders import output_of
from ..collect.own_nodes import site_shows_work
from .manifest import in_use

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def shows_work(app: Sphinx, *args: Any) -> bool:
    """A page read ran the extension's directives or roles, or this output keeps a memory of a build that
    did (what it wrote for them is removed by the handlers behind this gate)."""
    return site_shows_work(app) or in_use(app)


def marks_links(app: Sphinx, *args: Any) -> bool:
    """Outbound links get ``rel``: on the pages that show the extension's work, or everywhere where the
    site asks for it (``contributions_external_rel``)."""
    return bool(app.config.contributions_external_rel) or shows_work(app)


def cards_on(app: Sphinx, *args: Any) -> bool:
    """The site asks for social cards (``contributions_social_cards``)."""
    return bool(app.config.contributions_social_cards)


def epub_without_version(app: Sphinx, *args: Any) -> bool:
    """The builder writes an ePub and the site sets no ``version`` (which EPUB 3 needs)."""
    return output_of(app.builder).epub and not str(app.config.version or "").strip()
