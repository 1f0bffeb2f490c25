"""Sphinx never deletes output files: a deleted, renamed or now-draft page keeps its output (and its
``_sources`` copy), a tag or project page the extension no longer generates stays, and so does an export
the build no longer writes (the feed, once the canonical URL is gone). The output folder's manifest
(:mod:`..manifest`, ``files``: every file this output holds for a page or an export, per builder and
output folder) is the one record of what it holds: when writing starts, each file the last build of this
output held and this one does not is removed, with its ``_sources`` copy and the folders it leaves empty.
So an incremental build's output equals a clean build's for every builder that writes a file per page
(``html``, ``dirhtml``, ``epub``, ``text`` …), also when two builders share one doctree folder, or after
``-E`` over an existing output. The extension's own files in ``_static`` are held as an export is: they
leave with the last write-up or listing, and the output is again the host's own.

Paths are the builder's own output file names (``get_target_uri`` is a URI, percent-encoded:
``notes%5B1%5D.html``), and a source copy's name is built as the builder builds it, from the page's name
and each source suffix, never matched as a pattern (``notes[1]`` as a glob is a character class that
matches ``notes1``, another page)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from ...builders import is_site_builder, output_of, written_exports
from ...collect.domain import get_domain
from ..gates import shows_work
from ..manifest import remember

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder


def output_file(app: Sphinx, pagename: str) -> Path:
    """The file the builder writes page ``pagename`` to (``a/b.html``; dirhtml: ``a/b/index.html``)."""
    return Path(app.builder.get_outfilename(pagename))  # type: ignore[attr-defined]  # HTML builders


def page_file(app: Sphinx, pagename: str) -> Path | None:
    """The file of its own this builder writes for page ``pagename``, or None (one document for all)."""
    output = output_of(app.builder)
    if output.pages:
        return output_file(app, pagename)
    suffix = getattr(app.builder, "out_suffix", None)
    if isinstance(suffix, str) and suffix and not (output.book or output.catalogs):
        return Path(app.outdir, pagename + suffix)  # text, xml, pseudoxml: a file per document
    return None


def source_copies(app: Sphinx, pagename: str) -> list[Path]:
    """The names the builder gives the ``_sources`` copy of ``pagename``, one per source suffix (a removed
    page's suffix is no longer known)."""
    link_suffix = app.config.html_sourcelink_suffix
    names = [pagename + suffix + ("" if suffix == link_suffix else link_suffix) for suffix in app.config.source_suffix]
    return [Path(app.outdir, "_sources", name) for name in names]


def held_files(app: Sphinx) -> dict[str, str]:
    """What this build's output holds for its pages, generated pages and exports: path (relative to the
    output folder, ``/``-separated) → the page it is of (``""`` for an export)."""
    from ...render.assets import used_static_files  # here: asked only where the extension shows work
    from ..redirects import redirect_files

    outdir = Path(app.outdir)
    held: dict[str, str] = {}
    pages = set(app.env.found_docs)
    if is_site_builder(app.builder):
        domain = get_domain(app.env)
        pages.update(domain.generated_pages())
        held.update(dict.fromkeys(written_exports(app, domain.has_published()), ""))
    for pagename in sorted(pages):
        path = page_file(app, pagename)
        if path is not None:
            with contextlib.suppress(ValueError):
                held[path.relative_to(outdir).as_posix()] = pagename
    for path in redirect_files(app):  # a renamed write-up's old address (:mod:`..redirects`)
        with contextlib.suppress(ValueError):
            held.setdefault(path.relative_to(outdir).as_posix(), "")
    for source in used_static_files(app, app.builder):  # the extension's files in _static, where used
        held.setdefault(f"_static/{source.name}", "")
    return held


def _remove_empty_folders(outdir: Path, start: Path) -> None:
    """``start`` and its parents up to ``outdir`` (not included), as long as each is empty."""
    folder = start
    while folder != outdir and outdir in folder.parents:
        try:
            folder.rmdir()  # only an empty folder
        except OSError:
            return
        folder = folder.parent


def remove_stale_files(app: Sphinx, builder: Builder) -> None:
    """``write-started``, before the manifest is saved: remove what the last build of this output held and
    this one does not, and note what this one holds."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return
    new = held_files(app)
    old = remember(app, "files", new)
    if not old:
        return
    outdir = Path(app.outdir)
    for name in sorted(set(old) - set(new)):
        target = outdir / name
        targets = [target, *(source_copies(app, old[name]) if old[name] and output_of(builder).site else ())]
        for path in targets:
            if path.is_file():
                path.unlink()
                _remove_empty_folders(outdir, path.parent)
    for name in sorted(name for name in set(old) & set(new) if old[name] and not new[name]):
        # a page's file that a redirect now takes (:mod:`..redirects`): its source copy goes
        targets = source_copies(app, old[name]) if output_of(builder).site else []
        for path in targets:
            if path.is_file():
                path.unlink()
                _remove_empty_folders(outdir, path.parent)
    images = outdir / "_images"
    if images.is_dir() and not any(images.iterdir()):
        images.rmdir()
