"""Sphinx never deletes output files: a deleted, renamed or now-draft page keeps its HTML page (and its
``_sources`` copy) in the output folder, and so does a tag or project page the extension no longer
generates. This removes them, so an incremental build's output equals a clean build's."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def remove_outputs(app: Sphinx, pagenames: Iterable[str], sources: bool) -> None:
    """Delete the HTML output of ``pagenames`` (and their ``_sources`` copies, with ``sources``)."""
    builder = app.builder
    if builder.format != "html":
        return
    outdir = Path(app.outdir)
    for pagename in pagenames:
        targets = [outdir / builder.get_target_uri(pagename).rstrip("/")]
        if targets[0].is_dir():  # dirhtml
            targets = [targets[0] / "index.html"]
        if sources:
            targets += (outdir / "_sources").glob(f"{pagename}.*.txt")
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
