"""The extension's own dependency tracking: which pages show which records, so an incremental build
rewrites exactly the pages a clean build would write differently.

- a page with a ``contributions`` listing is rewritten when any record changed;
- a page with a link that shows a write-up's title (``{contrib}``, an untitled ``{ref}`` to one of its
  labels, an untitled MyST link to one of its sections) is rewritten when that title, a section heading
  or the page changed;
- a write-up is rewritten when its previous or next write-up changed (page, title);
- a tag or project page is written only when what it shows changed (its records, the navigation, the
  configuration or templates) or its file is missing; the output of one that is gone is removed.

What a page links to is collected when the page is read (:class:`ContribLinkCollector`, merged from
parallel workers); what each output showed is kept by :mod:`.manifest`. What Sphinx and other packages
leave stale on their own is fixed in :mod:`.fixes`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..builders import is_site_builder
from ..collect.domain import get_domain
from ..collect.page_data import PageDataCollector, pending_xrefs
from ..files import digest
from ..keys import key_lookup, label_key, split_target
from .gates import shows_work
from .manifest import changed_keys, remember, this_build

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..collect.domain import ContributionsDomain

#: the domain data key: docname → what its links that may show a write-up's title point to: keys (from
#: ``{contrib}`` links and ``{ref}`` labels) and ``doc:<docname>`` (untitled MyST links to a page)
DATA_KEY = "contrib_links"


class ContribLinkCollector(PageDataCollector):
    """Collects, per page, the write-ups its links show the title of; and decides what to rewrite."""

    data_key = DATA_KEY

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        targets = set()
        for node in pending_xrefs(app.env, doctree):
            domain, kind, explicit = node.get("refdomain"), node.get("reftype"), node.get("refexplicit")
            if domain == "contrib":
                targets.add(key_lookup(split_target(node["reftarget"])[0]))
            elif domain == "std" and kind == "ref" and not explicit and (key := label_key(node["reftarget"])):
                targets.add(key)
            elif domain == "doc" and kind == "myst" and not explicit:
                targets.add("doc:" + node["reftarget"])
        if targets:
            ContribLinkCollector.pages(app.env)[app.env.current_document.docname] = sorted(targets)

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        return updated(app, env) if shows_work(app) else []  # a guest's site: nothing the extension shows


def _record_digests(domain: ContributionsDomain) -> tuple[dict[str, str], dict[str, str]]:
    """key → digest of what a listing shows of the record that owns the key (all of it but the line
    number of its header, used for warnings only); and key and ``doc:<docname>`` → digest of what a link
    to the write-up or one of its sections shows (titles and page)."""
    records, links = {}, {}
    for record in domain.published():
        key = key_lookup(record.key)
        records[key] = digest(dataclasses.replace(record, lineno=0))
        links[key] = links["doc:" + record.docname] = digest((record.docname, tuple(record.targets())))
    return records, links


def _neighbour_digests(app: Sphinx, domain: ContributionsDomain) -> dict[str, str]:
    """write-up docname → digest of its previous and next write-ups (page and title)."""
    index = app.config.contributions_index
    return {
        record.docname: digest(
            [(r.docname, r.title) if r is not None else None for r in domain.neighbours(index, record.docname)]
        )
        for record in domain.published()
    }


def _newest_template(app: Sphinx) -> float | None:
    templates = getattr(app.builder, "templates", None)
    try:
        return templates.newest_template_mtime() if templates is not None else None
    except ValueError:  # no template folder at all (max() of nothing), e.g. gettext without templates_path
        return None


def static_digest(app: Sphinx) -> str:
    """A digest of the stylesheets and scripts of ``html_static_path`` (the site's, and the extension's own
    folder): Sphinx links each with its checksum (``portfolio.css?v=…``), and rewrites no page when only
    such a file changed."""
    import hashlib
    from pathlib import Path

    parts = []
    for entry in app.config.html_static_path:
        top = Path(app.confdir, entry)
        files = sorted(path for path in top.rglob("*") if path.is_file()) if top.is_dir() else [top]
        parts += [
            (str(entry), path.relative_to(top).as_posix(), hashlib.sha256(path.read_bytes()).hexdigest())
            for path in files
            if path.suffix in LINKED_WITH_CHECKSUM and path.is_file()
        ]
    return digest(parts)


#: the static files Sphinx links with a checksum: stylesheets and scripts (not images or fonts)
LINKED_WITH_CHECKSUM = frozenset({".css", ".js", ".mjs"})


def _plain(value: object) -> object:
    """``value`` as plain data whose ``repr`` is the same in every run (sets sorted; anything else by its
    type's name)."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return sorted((repr(_plain(key)), _plain(item)) for key, item in value.items())
    if isinstance(value, (set, frozenset)):
        return sorted(repr(_plain(item)) for item in value)
    return type(value).__qualname__


def env_settings(app: Sphinx) -> str:
    """A digest of the settings of the ``env`` rebuild category (``language``, ``contributions_index`` …):
    a page Sphinx does not write from a source (a generated page) shows them too, and Sphinx's own
    record of an HTML output (``.buildinfo``) counts only the ``html`` ones. A value that is no plain
    data (a function in ``conf.py``) counts by its type: its text changes between runs."""
    values = {item.name: _plain(item.value) for item in app.config.filter(frozenset({"env"}))}
    return digest(sorted(values.items(), key=lambda pair: pair[0]))


def updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: the pages to rewrite because records they show changed; and note which
    generated pages are stale (the output of those that are gone goes with the manifest's ``files``,
    :mod:`.fixes.stale_outputs`)."""
    from .fixes.navigation import nav_digest  # here: asked only where the extension shows work

    domain = get_domain(env)
    records, links = _record_digests(domain)
    generated = domain.generated_pages()
    # a tag or project page shows its records, the navigation and the theme's page for this config
    build_info = getattr(app.builder, "build_info", None)
    common = (
        nav_digest(env),
        (build_info.config_hash, build_info.tags_hash) if build_info is not None else None,
        env_settings(app),  # the theme's words and language, the list's address: "env" settings too
        _newest_template(app),
        app.config.contributions_index in env.found_docs,
        static_digest(app),
    )
    inputs = {
        pagename: digest((common, page.kind, page.name, [records[key_lookup(r.key)] for r in page.records]))
        for pagename, page in generated.items()
    }
    old_pages = remember(app, "pages", inputs) or {}
    this_build(app)["stale"] = sorted(
        pagename for pagename, value in inputs.items() if old_pages.get(pagename) != value
    )
    old_records = remember(app, "records", records) or {}
    old_links = remember(app, "links", links) or {}
    around = _neighbour_digests(app, domain)
    old_neighbours = remember(app, "neighbours", around) or {}

    rewrite: set[str] = set()
    if changed_keys(old_records, records):
        rewrite.update(domain.listings)
    static = {"files": common[-1]}
    if (remember(app, "static", static) or static) != static:  # every page links the stylesheets
        rewrite.update(env.found_docs)
    if old_pages.keys() != inputs.keys():  # a tag or project page came or went: a header's link to it changes
        rewrite.update(record.docname for record in domain.contributions.values())  # drafts' headers too
    rewrite.update(changed_keys(old_neighbours, around))  # previous/next links of the write-ups
    changed = changed_keys(old_links, links)
    rewrite.update(
        docname for docname, targets in ContribLinkCollector.pages(env).items() if not changed.isdisjoint(targets)
    )
    return sorted(rewrite & env.found_docs)


def generated_page_is_current(app: Sphinx, pagename: str) -> bool:
    """For ``html-collect-pages``: whether a tag or project page's output is what this build would
    write (nothing it shows changed since it was written, and the file is there), so it can be skipped."""
    if not is_site_builder(app.builder) or pagename in this_build(app).get("stale", [pagename]):
        return False
    from .fixes.stale_outputs import output_file  # here: the same

    return output_file(app, pagename).is_file()


def setup_incremental(app: Sphinx) -> None:
    app.add_env_collector(ContribLinkCollector)
