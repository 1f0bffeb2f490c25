"""sphinx-sitemap lists only the pages written by the current build, in the order they were written:
an incremental build's ``sitemap.xml`` misses every page it did not rewrite. This adds every page
(and every generated tag and project page) and sorts the list, before sphinx-sitemap writes it.

sphinx-sitemap also prefers its own ``site_url`` setting to ``html_baseurl``, and any top-level
``site_url`` in ``conf.py`` becomes that setting: a sitemap that lists another site than the canonical
URL (on Read the Docs: another version, domain or a preview's production URLs) is reported."""

from __future__ import annotations

import queue
from typing import TYPE_CHECKING

from ..domain import get_domain
from ..warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: a sitemap entry: the page's URL and its last-updated date (if any)
Link = tuple[str, str | None]


def _drain(source: queue.Queue[Link], into: set[Link]) -> None:
    while True:
        try:
            into.add(source.get_nowait())
        except queue.Empty:
            return


def complete_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, before sphinx-sitemap writes: add pages not rewritten this build, sorted.

    sphinx-sitemap collects links in a queue served by another process (so parallel writers can add
    to it); once the writers are done, the links are read from it once and handed back in a local
    queue, so neither this nor sphinx-sitemap pays a round trip per page."""
    shared = getattr(app, "sitemap_links", None)
    if exception is not None or shared is None or app.builder.format != "html":
        return
    from sphinx_sitemap import add_html_link

    links: set[Link] = set()
    _drain(shared, links)  # the pages this build wrote
    local: queue.Queue[Link] = queue.Queue()
    app.sitemap_links = local  # type: ignore[attr-defined]  # sphinx-sitemap's own attribute
    generated = get_domain(app.env).generated_pages()
    for pagename in sorted({*app.env.found_docs, *generated}):
        add_html_link(app, pagename, None, {}, None)
    _drain(local, links)
    for link in sorted(links, key=lambda item: (item[0], item[1] or "")):
        local.put(link)


def check_sitemap_url(app: Sphinx) -> None:
    """``builder-inited``: sphinx-sitemap's ``site_url``, when set, must be the canonical URL."""
    site_url = app.config.site_url if "site_url" in app.config else None
    if site_url and site_url.rstrip("/") != (app.config.html_baseurl or "").rstrip("/"):
        warn(
            ContribWarning.CONFIG,
            f"site_url is {site_url!r} but html_baseurl is {app.config.html_baseurl!r}: sphinx-sitemap "
            "prefers site_url, so the sitemap would list URLs outside the canonical site (rename a "
            "top-level 'site_url' in conf.py)",
            None,
        )


def setup_sitemap(app: Sphinx) -> None:
    app.connect("builder-inited", check_sitemap_url)
    app.connect("build-finished", complete_sitemap, priority=400)
