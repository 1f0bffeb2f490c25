"""Sphinx extension for an engineering portfolio of upstream contributions (see ``AUTHORING.md``).

The layout is the data flow: :mod:`.read` → :mod:`.check` → :mod:`.collect` (the ``contrib`` domain) → :mod:`.render` →
:mod:`.write`, with :mod:`.cli` and :mod:`.forges` beside them. Handlers are wired in :mod:`.extension`, settings in
:mod:`.settings`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .version import __version__

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["__version__", "setup"]


def setup(app: Sphinx) -> ExtensionMetadata:
    """Sphinx's entry point: the wiring is imported only when Sphinx loads the extension."""
    from .extension import setup as wire

    return wire(app)
