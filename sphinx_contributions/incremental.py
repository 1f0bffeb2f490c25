"""What makes an incremental build write exactly what a clean build writes.

Sphinx re-reads changed pages and the domain keeps its records per page; this module handles what
Sphinx leaves stale on its own (``../shared/pitfalls.md``, measured):

- pages whose output depends on other pages' records (listings, ``{contrib}`` links) are rewritten
  when any record changes (``env-get-updated``; compared by a digest stored on the environment);
- output files of deleted pages and of generated pages that no longer exist are removed;
- the search index drops words left with no page (Sphinx keeps them as empty lists);
- ``sitemap.xml`` lists every page, not only those written this build, in a stable order.

Everything here runs in the read phase (so it is saved with the environment) or is recomputed from
the environment; nothing is kept between builds outside it.
"""

from __future__ import annotations

import queue
from pathlib import Path
from typing import TYPE_CHECKING

from .pages import generated_pages

if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .domain import ContributionsDomain


def _domain(env: BuildEnvironment) -> ContributionsDomain:
    return env.domains["contrib"]  # type: ignore[return-value]


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


def updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: when any record changed, rewrite the pages that show records; and remove
    the output of generated pages that are gone."""
    domain = _domain(env)
    fingerprint = domain.fingerprint()
    pages = sorted(generated_pages(domain))
    gone = sorted(set(domain.data.get("generated", ())) - set(pages))
    _remove_outputs(app, gone, sources=False)
    domain.data["generated"] = pages
    if fingerprint == domain.data["fingerprint"]:
        return []
    domain.data["fingerprint"] = fingerprint
    return sorted(domain.listings)


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

    for docname in sorted(app.env.found_docs):
        add_html_link(app, docname, None, {}, None)
    links: set[tuple[str, str | None]] = set()
    while True:
        try:
            links.add(links_queue.get_nowait())
        except queue.Empty:
            break
    for link in sorted(links, key=lambda item: (item[0], item[1] or "")):
        links_queue.put(link)


def setup_incremental(app: Sphinx) -> None:
    app.connect("env-get-outdated", outdated)
    app.connect("env-get-updated", updated)
    app.connect("html-collect-pages", prune_search_index)
    app.connect("build-finished", complete_sitemap, priority=400)
