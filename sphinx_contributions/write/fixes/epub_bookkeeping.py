"""The ePub builder packs every file of its output folder it knows a media type for, and warns about
every other one (``[epub.unknown_project_files]``, which fails a strict build). Two files of bookkeeping
live there and are no part of the book:

- ``.buildinfo.bak``: Sphinx renames ``.buildinfo`` to it when the configuration's hash changes, and
  leaves it in the folder, where the ePub builder (which leaves out ``.buildinfo`` only) then warns
  ``unknown mimetype for .buildinfo.bak`` on this and every later build into that folder, with no
  further edit (Sphinx 7.4 to 9.x: the range :data:`...compat.WORKAROUNDS` names). It is removed when
  writing starts, before the book is packed, so the folder holds what a clean build's holds;
- the extension's memory of what the output holds (:data:`..manifest.MEMORY_NAME`): named in
  ``epub_exclude_files``, the setting for "files in the output folder that are not part of the book",
  at ``config-inited`` (the same value in every build: Sphinx's comparison of settings sees no change).

When the guard test (``tests/test_incremental.py``, ``test_the_buildinfo_backup_must_go``) reports that
Sphinx no longer warns about ``.buildinfo.bak``, end the range there.

Workaround ``epub_bookkeeping``: sphinx ``>=7.4,<10``; upstream: no upstream issue found.
(``compat.WORKAROUNDS``; the fix to send upstream: ``docs/explanation/workarounds.md``)
"""

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
