"""Sphinx extension for an engineering portfolio of upstream contributions.

Each pull request is a MyST page with a ``contribution`` header, the sections ``problem``,
``root-cause``, ``fix`` and ``verification``, and ``metric`` figures; ``contributions`` listings, tag
and project pages, ``contributions.json``, an Atom feed, ``objects.inv`` entries and ``{ref}`` labels
(for each write-up and each of its sections) all follow from those pages. See ``AUTHORING.md`` for the
format.

The package's layout is its data flow: :mod:`.read` (source → nodes) → :mod:`.check` → :mod:`.collect`
(nodes → records, the ``contrib`` domain) → :mod:`.render` (records → nodes per builder, at write time)
→ :mod:`.write` (outputs, and fixes for what other packages leave stale); :mod:`.cli` and :mod:`.forges`
beside them. Every event handler is wired in :mod:`.extension`, every setting in :mod:`.settings`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .version import __version__

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["__version__", "setup"]


def setup(app: Sphinx) -> ExtensionMetadata:
    """Sphinx's entry point: the wiring (:mod:`.extension`), imported when Sphinx loads the extension, not
    when a module of the package is imported (the ``contributions`` command needs none of the build)."""
    from .extension import setup as wire

    return wire(app)
