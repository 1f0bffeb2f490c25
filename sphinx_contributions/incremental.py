"""What makes an incremental build write exactly what a clean build writes.

Sphinx re-reads changed pages and the domain keeps its records per page; this module handles what
Sphinx leaves stale on its own (``../shared/pitfalls.md``, measured; ``tests/test_incremental.py``
compares incremental, parallel and clean builds file by file):

- pages whose output shows other pages' data are rewritten when that data changes
  (``env-get-updated``), and only then: a page with a ``contributions`` listing when any record
  changed; a page with a ``{contrib}`` link when the record it links to changed (its title, its page);
  a page with a ``{doc}`` link when the linked page's title changed; and every page when the
  navigation changed (a title or an entry of a page in the toctree), since the theme puts the whole
  navigation and prev/next links on every page;
- the generated tag and project pages are written only when what they show changed (their records,
  the navigation, the configuration or templates) or their file is missing, not on every build;
- output files of deleted pages and of generated pages that no longer exist are removed;
- the search index drops words left with no page (Sphinx keeps them as empty lists);
- ``sitemap.xml`` lists every page, not only those written this build, in a stable order.

What a page links to is collected when the page is read (:class:`DependencyCollector`, merged from
parallel workers); what the pages showed last time is stored as digests when the changed pages are
known (``env-get-updated``, in the read phase). Both live in the domain's data, so they are pickled
with the environment; nothing is kept between builds outside it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import queue
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx import addnodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util import docname_join

from .model import key_lookup
from .pages import generated_pages

if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .domain import ContributionsDomain


def _domain(env: BuildEnvironment) -> ContributionsDomain:
    return env.domains["contrib"]  # type: ignore[return-value]


def _links(env: BuildEnvironment) -> dict[str, dict[str, list[str]]]:
    """docname → ``{"contrib": [keys], "doc": [docnames]}``: what each page's links show the title of."""
    return _domain(env).data.setdefault("links", {})  # type: ignore[no-any-return]


def _shown(env: BuildEnvironment) -> dict[str, Any]:
    """What the pages written so far showed: per-record and per-title digests, the navigation's digest."""
    return _domain(env).data.setdefault("shown", {})  # type: ignore[no-any-return]


class DependencyCollector(EnvironmentCollector):
    """Collects, per page, the ``{contrib}`` keys and ``{doc}`` pages it links to by title."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _links(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        mine = _links(env)
        theirs = other.domaindata["contrib"].get("links", {})  # a worker's environment has no domains
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        docname = env.current_document.docname
        keys: set[str] = set()
        docs: set[str] = set()
        for node in doctree.findall(addnodes.pending_xref):
            if node.get("refdomain") == "contrib":
                keys.add(key_lookup(node["reftarget"]))
            elif node.get("refdomain") == "std" and node.get("reftype") == "doc" and not node.get("refexplicit"):
                docs.add(docname_join(node.get("refdoc", docname), node["reftarget"]))
        if keys or docs:
            _links(env)[docname] = {"contrib": sorted(keys), "doc": sorted(docs)}

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        return updated(app, env)


def _remove_outputs(app: Sphinx, pagenames: Iterable[str], sources: bool) -> None:
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


def outdated(app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]) -> list[str]:
    """``env-get-outdated``: remove the output of deleted (or renamed, or now draft) pages."""
    _remove_outputs(app, sorted(removed), sources=True)
    return []


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def _record_digests(domain: ContributionsDomain) -> tuple[dict[str, str], dict[str, str]]:
    """key → digest of what a listing shows of the record that owns the key (all of it but the line
    number of its header, used for warnings only); and key → digest of what a ``{contrib}`` link shows
    (title and page)."""
    records, links = {}, {}
    for record in domain.published():
        key = key_lookup(record.key)
        records[key] = _digest(dataclasses.replace(record, lineno=0))
        links[key] = _digest((record.title, record.docname, record.anchor))
    return records, links


def _nav_digest(env: BuildEnvironment) -> str:
    """A digest of everything in the site's navigation: which page includes which (in order), each
    toctree's options and caption, and the title of every page in the navigation."""
    parts: list[object] = [env.config.root_doc]
    in_nav = {env.config.root_doc}
    for docname in sorted(env.toctree_includes):
        parts.append((docname, env.toctree_includes[docname]))
        in_nav.update(env.toctree_includes[docname])
        toc = env.tocs.get(docname)
        if toc is not None:
            for node in toc.findall(addnodes.toctree):
                parts.append(
                    sorted((k, repr(v)) for k, v in node.attributes.items() if k not in {"parent", "rawentries"})
                )
    parts.extend((docname, env.titles[docname].astext()) for docname in sorted(in_nav) if docname in env.titles)
    return _digest(parts)


def _xref_pages(env: BuildEnvironment, keys: Set[str]) -> set[str]:
    """Pages with a ``{contrib}`` link to one of ``keys``."""
    return {docname for docname, links in _links(env).items() if not keys.isdisjoint(links["contrib"])}


def _doc_link_pages(env: BuildEnvironment, docnames: Set[str]) -> set[str]:
    """Pages with an untitled ``{doc}`` link to one of ``docnames``."""
    return {docname for docname, links in _links(env).items() if not docnames.isdisjoint(links["doc"])}


def updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: the pages to rewrite because data they show from other pages changed; and
    remove the output of generated pages that are gone."""
    domain = _domain(env)
    generated = generated_pages(domain)
    gone = sorted(set(domain.data.get("generated", ())) - set(generated))
    _remove_outputs(app, gone, sources=False)
    domain.data["generated"] = sorted(generated)

    shown = _shown(env)
    records, links = _record_digests(domain)
    titles = {docname: _digest(title.astext()) for docname, title in env.titles.items()}
    nav = _nav_digest(env)
    # a tag or project page shows its records, the navigation and the theme's page for this config
    build_info = getattr(app.builder, "build_info", None)
    templates = getattr(app.builder, "templates", None)
    common = (
        nav,
        (build_info.config_hash, build_info.tags_hash) if build_info is not None else None,
        templates.newest_template_mtime() if templates is not None else None,
        app.config.contributions_index in env.found_docs,
    )
    inputs = {
        pagename: _digest((common, kind, name, [records[key_lookup(record.key)] for record in listed]))
        for pagename, (kind, name, listed) in generated.items()
    }
    old = dict(shown)
    stale = sorted(pagename for pagename, digest in inputs.items() if old.get("pages", {}).get(pagename) != digest)
    shown.update(records=records, links=links, titles=titles, nav=nav, pages=inputs, stale=stale)

    if old.get("nav", nav) != nav:
        return sorted(env.found_docs)  # every page carries the navigation
    rewrite: set[str] = set()
    if _changed(old.get("records", {}), records):
        rewrite.update(domain.listings)
    rewrite.update(_xref_pages(env, _changed(old.get("links", {}), links)))
    rewrite.update(_doc_link_pages(env, _changed(old.get("titles", {}), titles)))
    return sorted(rewrite & env.found_docs)


def generated_page_is_current(app: Sphinx, pagename: str) -> bool:
    """For ``html-collect-pages``: whether a tag or project page's output is what this build would
    write (nothing it shows changed since it was written, and the file is there), so it can be skipped."""
    if app.builder.format != "html" or pagename in _shown(app.env).get("stale", [pagename]):
        return False
    return (Path(app.outdir) / app.builder.get_target_uri(pagename)).is_file()


def _changed(old: dict[str, str], new: dict[str, str]) -> set[str]:
    """The keys added, removed or with another digest."""
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def prune_search_index(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages`` (runs before the index is dumped): drop words that no page holds."""
    indexer = getattr(app.builder, "indexer", None)
    if indexer is not None:
        for mapping in (indexer._mapping, indexer._title_mapping):
            for word in [word for word, docnames in mapping.items() if not docnames]:
                del mapping[word]
    return []


def complete_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, before sphinx-sitemap writes: add pages not rewritten this build, sorted."""
    links_queue = getattr(app, "sitemap_links", None)
    if exception is not None or links_queue is None or app.builder.format != "html":
        return
    from sphinx_sitemap import add_html_link

    for pagename in sorted({*app.env.found_docs, *_domain(app.env).data.get("generated", ())}):
        add_html_link(app, pagename, None, {}, None)
    links: set[tuple[str, str | None]] = set()
    while True:
        try:
            links.add(links_queue.get_nowait())
        except queue.Empty:
            break
    for link in sorted(links, key=lambda item: (item[0], item[1] or "")):
        links_queue.put(link)


def setup_incremental(app: Sphinx) -> None:
    app.add_env_collector(DependencyCollector)
    app.connect("env-get-outdated", outdated)
    app.connect("html-collect-pages", prune_search_index)
    app.connect("build-finished", complete_sitemap, priority=400)
