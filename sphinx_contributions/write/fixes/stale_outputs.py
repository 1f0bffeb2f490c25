"""Sphinx never deletes output files: a deleted, renamed or now-draft page keeps its HTML page (and its
``_sources`` copy) in the output folder, and so does a tag or project page the extension no longer
generates. This removes them, so an incremental build's output equals a clean build's.

Paths are the builder's own output file names (``get_target_uri`` is a URI, percent-encoded:
``notes%5B1%5D.html``), and a source copy's name is built as the builder builds it, from the page's name
and each source suffix, never matched as a pattern (``notes[1]`` as a glob is a character class that
matches ``notes1``, another page)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...builders import output_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def output_file(app: Sphinx, pagename: str) -> Path:
    """The file the builder writes page ``pagename`` to (``a/b.html``; dirhtml: ``a/b/index.html``)."""
    return Path(app.builder.get_outfilename(pagename))  # type: ignore[attr-defined]  # HTML builders


def source_copies(app: Sphinx, pagename: str) -> list[Path]:
    """The names the builder gives the ``_sources`` copy of ``pagename``, one per source suffix (a removed
    page's suffix is no longer known)."""
    link_suffix = app.config.html_sourcelink_suffix
    names = [pagename + suffix + ("" if suffix == link_suffix else link_suffix) for suffix in app.config.source_suffix]
    return [Path(app.outdir, "_sources", name) for name in names]


def remove_outputs(app: Sphinx, pagenames: Iterable[str], sources: bool) -> None:
    """Delete the HTML output of ``pagenames`` (and their ``_sources`` copies, with ``sources``)."""
    if not output_of(app.builder).pages:
        return
    for pagename in pagenames:
        targets = [output_file(app, pagename), *(source_copies(app, pagename) if sources else ())]
        for target in targets:
            if target.is_file():
                target.unlink()


def remove_deleted(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """``env-get-outdated``: remove the output of deleted (or renamed, or now draft) pages."""
    remove_outputs(app, sorted(removed), sources=True)
    return []


def setup_stale_outputs(app: Sphinx) -> None:
    app.connect("env-get-outdated", remove_deleted)
