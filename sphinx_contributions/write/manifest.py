"""What to rewrite, and what the output holds, kept in the output folder (``.contributions-written.json``, per builder).

**One digest** (:func:`shown_digest`) covers everything a page can show from other pages; when it differs from the
output's, every page is rewritten (``env-get-updated``), else only those whose source changed.

**What the output holds** is what the next build removes stale files by. The memory never runs ahead of the output
(Sphinx pickles the environment before writing); a missing or misshapen one is none: every page is rewritten and the
extension's folders cleaned.

**The one answer** to "does this site show the extension's work?" is :func:`shows_work`."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx import addnodes
from sphinx.util import logging

from ..builders import EXPORT_NAMES, is_site_builder, output_of, written_exports
from ..collect.domain import get_domain, site_shows_work
from ..files import digest, read_json, write_whole
from ..render.projects import project_intros

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

#: the digest of an output that may or may not have been written whole (a build stopped while writing)
UNKNOWN = "?"
#: bump when the file's layout changes; a file of another version is no memory
MEMORY_VERSION = 3
#: the file's name in the output folder (the ePub builder leaves it out of the book, :mod:`.fixes.epub_bookkeeping`)
MEMORY_NAME = ".contributions-written.json"
#: the records of one output besides its digest (``shown``): each a mapping of text to text; an output's entry in
#: the file is keyed by its builder's name (the folder is where the file is)
RECORDS = ("files", "addresses", "redirects")


# -- the one digest ---------------------------------------------------------------------------------------


def _records(app: Sphinx, env: BuildEnvironment) -> object:
    """The published records as pages show them (lines aside), and the listings with their order."""
    domain = get_domain(env)
    return [dataclasses.replace(record, lineno=0) for record in domain.published()], sorted(domain.listings.items())


def _intros(app: Sphinx, env: BuildEnvironment) -> object:
    """The pages that hold an overview (a project link's fallback) and each project intro's content."""
    intros = project_intros(app, env)
    return sorted(get_domain(env).project_intros), sorted((n, d, node.pformat()) for n, (d, node) in intros.items())


def _titles(app: Sphinx, env: BuildEnvironment) -> object:
    """The title of every page: breadcrumbs, generated pages, navigation and ``{doc}`` links show them."""
    return sorted((docname, title.astext()) for docname, title in env.titles.items())


def _navigation(app: Sphinx, env: BuildEnvironment) -> object:
    """Which page includes which, in order, and each toctree's options and caption."""
    parts: list[object] = [env.config.root_doc]
    for docname in sorted(env.toctree_includes):
        parts.append((docname, env.toctree_includes[docname]))
        toc = env.tocs.get(docname)
        for node in toc.findall(addnodes.toctree) if toc is not None else ():
            parts.append(sorted((k, repr(v)) for k, v in node.attributes.items() if k not in {"parent", "rawentries"}))
    return parts


def _plain(value: object) -> object:
    """``value`` as plain data with the same ``repr`` in every run (sets sorted, others by type name)."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return sorted((repr(_plain(key)), _plain(item)) for key, item in value.items())
    if isinstance(value, (set, frozenset)):
        return sorted(repr(_plain(item)) for item in value)
    return type(value).__qualname__


def _settings(app: Sphinx, env: BuildEnvironment) -> object:
    """The ``env`` settings, the ``html`` ones (``.buildinfo``'s hash), and the templates' newest time."""
    values = sorted((item.name, _plain(item.value)) for item in app.config.filter(frozenset({"env"})))
    build_info = getattr(app.builder, "build_info", None)
    templates = getattr(app.builder, "templates", None)
    try:
        newest = templates.newest_template_mtime() if templates is not None else None
    except ValueError:  # no template folder at all (max() of nothing), e.g. gettext without templates_path
        newest = None
    return values, (build_info.config_hash, build_info.tags_hash) if build_info is not None else None, newest


def _static(app: Sphinx, env: BuildEnvironment) -> object:
    """The site's static CSS and JS, which every page links with a checksum Sphinx does not track."""
    parts = []
    for entry in getattr(app.config, "html_static_path", ()):
        top = Path(app.confdir, entry)
        files = sorted(path for path in top.rglob("*") if path.is_file()) if top.is_dir() else [top]
        parts += [
            (str(entry), path.relative_to(top).as_posix(), digest(path.read_bytes()))
            for path in files
            if path.suffix in LINKED_WITH_CHECKSUM and path.is_file()
        ]
    return parts


#: the static files Sphinx links with a checksum: stylesheets and scripts (not images or fonts)
LINKED_WITH_CHECKSUM = frozenset({".css", ".js", ".mjs"})


#: the parts of :func:`shown_digest`, by name (``tests/test_incremental.py`` drops each to show it is needed)
PARTS: dict[str, Callable[[Sphinx, BuildEnvironment], object]] = {
    "records": _records,
    "intros": _intros,
    "titles": _titles,
    "navigation": _navigation,
    "settings": _settings,
    "static": _static,
}


def shown_digest(app: Sphinx, env: BuildEnvironment) -> str:
    """The one digest of everything a page can show from other pages."""
    return digest([(name, part(app, env)) for name, part in PARTS.items()])


# -- the memory ----------------------------------------------------------------------------------------------


def _path(app: Sphinx) -> Path:
    return Path(app.outdir) / MEMORY_NAME


def _valid(entry: object) -> bool:
    """Whether ``entry`` is one output's memory of this version's shape."""
    if not isinstance(entry, dict) or not isinstance(entry.get("shown"), str):
        return False
    return all(
        isinstance(record := entry.get(name), dict) and all(isinstance(v, str) for v in record.values())
        for name in RECORDS
    )


def _state(app: Sphinx) -> dict[str, Any]:
    """This build's view of the memory, read once: ``outputs``, ``old`` (this output's, or None), ``new``, ``in_use``
    (:func:`shows_work`) and ``works``."""
    domain = get_domain(app.env)
    if domain.written is None:
        path = _path(app)
        data = read_json(path)
        outputs = data.get("outputs") if isinstance(data, dict) and data.get("version") == MEMORY_VERSION else None
        outputs = {k: v for k, v in outputs.items() if _valid(v)} if isinstance(outputs, dict) else {}
        works = site_shows_work(app)
        domain.written = {
            "outputs": outputs,
            "old": outputs.get(app.builder.name),
            "new": {},
            "in_use": works or path.is_file(),
            "works": works,
        }
    return domain.written


def shows_work(app: Sphinx) -> bool:
    """The one answer: a page ran the extension, or this output remembers a build where one did."""
    return bool(_state(app)["in_use"])


def recalled(app: Sphinx, name: str) -> dict[str, str]:
    """What the output's memory holds under ``name`` (one of :data:`RECORDS`; empty where there is none)."""
    old = _state(app)["old"]
    return dict(old[name]) if old is not None else {}


def note(app: Sphinx, name: str, record: dict[str, str]) -> None:
    """This build's record under ``name`` (one of :data:`RECORDS`), the memory once the build finished."""
    _state(app)["new"][name] = dict(record)


def _save(app: Sphinx, outputs: dict[str, Any]) -> None:
    if not outputs:
        _path(app).unlink(missing_ok=True)
        return
    text = json.dumps({"version": MEMORY_VERSION, "outputs": outputs}, indent=1, sort_keys=True) + "\n"
    write_whole(_path(app), text)


# -- what to rewrite -------------------------------------------------------------------------------------------


def updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: every page when the digest differs from the output's, else none."""
    if not shows_work(app):
        return []
    state = _state(app)
    shown = state["new"]["shown"] = shown_digest(app, env)
    state["changed"] = state["old"] is None or state["old"]["shown"] != shown
    return sorted(env.found_docs) if state["changed"] else []


def generated_page_is_current(app: Sphinx, pagename: str) -> bool:
    """Whether a generated page's file is what this build would write, so it can be skipped."""
    state = _state(app)
    return is_site_builder(app.builder) and not state.get("changed", True) and output_file(app, pagename).is_file()


# -- what the output holds: pages, exports, redirects --------------------------------------------------


def redirects(app: Sphinx) -> dict[str, str]:
    """Old page → its write-up's page now, for every redirect of this output (worked out once)."""
    kept: dict[str, Any] = _state(app)["new"]  # its "redirect_pages" is not carried to the next build (commit)
    if "redirect_pages" in kept:
        found: dict[str, str] = kept["redirect_pages"]
        return found
    found = kept["redirect_pages"] = {}
    if not (is_site_builder(app.builder) and output_of(app.builder).pages):
        return found
    env = app.env
    domain = get_domain(env)
    pages = {record.key: record.docname for record in domain.contributions.values()}
    taken = set(env.found_docs) | set(domain.generated_pages())
    old_pages = recalled(app, "addresses")
    note(app, "addresses", pages)
    moved = {old: key for key, page in pages.items() if (old := old_pages.get(key)) not in (None, page)}
    now = {old: key for old, key in (recalled(app, "redirects") | moved).items() if key in pages and old not in taken}
    note(app, "redirects", now)
    for old, key in sorted(now.items()):
        found[old] = pages[key]
        if old in moved:
            logger.info("%s moved to %s: a redirect page keeps its old address", old, pages[key])
    return found


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
    """The names the builder gives the ``_sources`` copy of ``pagename``, one per source suffix."""
    link_suffix = app.config.html_sourcelink_suffix
    names = [pagename + suffix + ("" if suffix == link_suffix else link_suffix) for suffix in app.config.source_suffix]
    return [Path(app.outdir, "_sources", name) for name in names]


def held_files(app: Sphinx) -> dict[str, str]:
    """What this output holds: path (``/``-separated) → its page (``""`` for an export or a redirect)."""
    from ..render.assets import used_static_files  # here: asked only where the extension shows work

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
    for old in redirects(app):
        path = Path(app.builder.get_outfilename(old))  # type: ignore[attr-defined]  # HTML builders
        with contextlib.suppress(ValueError):
            held.setdefault(path.relative_to(outdir).as_posix(), "")
    for source in used_static_files(app, app.builder):  # the extension's files in _static, where used
        held.setdefault(f"_static/{source.name}", "")
    return held


def own_files(app: Sphinx) -> dict[str, str]:
    """Without a memory: what the extension may have written, found in its own folders and exports."""
    outdir = Path(app.outdir)
    found = {name: "" for name in EXPORT_NAMES if (outdir / name).is_file()}
    for folder in (app.config.contributions_tags_path, app.config.contributions_projects_path):
        files = sorted(path for path in (outdir / folder).rglob("*") if path.is_file())
        found.update((path.relative_to(outdir).as_posix(), "") for path in files)
    return found


def _remove(outdir: Path, paths: list[Path]) -> None:
    """Each file of ``paths``, then its folders up to ``outdir`` as long as each is left empty."""
    for path in paths:
        if not path.is_file():
            continue
        path.unlink()
        folder = path.parent
        while folder != outdir and outdir in folder.parents:
            try:
                folder.rmdir()  # only an empty folder
            except OSError:
                break
            folder = folder.parent


def start_writing(app: Sphinx, builder: Builder) -> None:
    """``write-started``: remove what this build no longer writes; save a memory that cannot run ahead."""
    if not shows_work(app):
        return
    state = _state(app)
    new = state["new"]["files"] = held_files(app)
    old = state["old"]["files"] if state["old"] is not None else own_files(app)
    outdir = Path(app.outdir)
    site = output_of(builder).site
    for name in sorted(set(old) - set(new)):
        _remove(outdir, [outdir / name, *(source_copies(app, old[name]) if old[name] and site else ())])
    for name in sorted(name for name in set(old) & set(new) if old[name] and not new[name] and site):
        _remove(outdir, source_copies(app, old[name]))  # a page's file that a redirect now takes: its copy goes
    with contextlib.suppress(OSError):
        (outdir / "_images").rmdir()  # only when empty
    if state["old"] is None and not state["works"]:
        return
    shown = state["new"].get("shown", UNKNOWN)
    before = state["old"] or {"shown": UNKNOWN, "files": {}, "addresses": {}, "redirects": {}}
    meanwhile = {**before, "shown": shown if before["shown"] == shown else UNKNOWN, "files": {**before["files"], **new}}
    if meanwhile != state["old"]:
        _save(app, {**state["outputs"], app.builder.name: meanwhile})


def commit(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: when every page was written, this build's record becomes the memory."""
    domain = get_domain(app.env)
    state, domain.written = domain.written, None  # the next build of this application reads the file again
    if exception is not None or state is None or not state["in_use"]:
        return
    outputs = dict(state["outputs"])
    if not state["works"]:
        # the extension's last work is gone, and with it what the output held for it: no memory is left
        outputs.pop(app.builder.name, None)
    else:
        new = state["new"]
        outputs[app.builder.name] = {
            "shown": new.get("shown", UNKNOWN),
            **{name: new.get(name, {}) for name in RECORDS},
        }
    if read_json(_path(app)) != {"version": MEMORY_VERSION, "outputs": outputs}:
        _save(app, outputs)
