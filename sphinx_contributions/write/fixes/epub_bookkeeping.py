"""The ePub builder warns about files it cannot pack (fatal under ``-W``): Sphinx's ``.buildinfo.bak`` is removed and
the extension's memory named in ``epub_exclude_files``.

Workaround ``epub_bookkeeping``: sphinx ``>=7.4,<10``; upstream: no upstream issue found."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...builders import output_of
from ...compat import needed
from ..manifest import MEMORY_NAME

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config

#: Sphinx's copy of the last ``.buildinfo``, made when the configuration changed
BUILDINFO_BACKUP = ".buildinfo.bak"


def exclude_memory(app: Sphinx, config: Config) -> None:
    """``config-inited``: the manifest's file is not part of the ePub."""
    if MEMORY_NAME not in config.epub_exclude_files:
        config.epub_exclude_files = [*config.epub_exclude_files, MEMORY_NAME]


def drop_buildinfo_backup(app: Sphinx, builder: Builder) -> None:
    """``write-started``: an ePub's output folder keeps no ``.buildinfo.bak`` to pack or warn about."""
    if output_of(builder).epub and needed("epub_bookkeeping"):
        Path(builder.outdir, BUILDINFO_BACKUP).unlink(missing_ok=True)
