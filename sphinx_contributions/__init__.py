"""Sphinx extension for an engineering portfolio of upstream contributions (``AUTHORING.md``): :mod:`.read` →
:mod:`.check` → :mod:`.collect` → :mod:`.render` → :mod:`.write`, wired in :mod:`.extension`."""

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
