"""A ``{doc}`` link without explicit text shows the linked page's title, but Sphinx does not rewrite
the linking page when that title changes. Pages with such links are collected when read, and rewritten
when a linked title changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx import addnodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util import docname_join

from ..domain import get_domain
from ..model import digest
from ..written import changed_keys, remember

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: the domain data key: docname → the docnames its untitled ``{doc}`` links show the title of
DATA_KEY = "doc_links"


def _doc_links(env: BuildEnvironment) -> dict[str, list[str]]:
    links: dict[str, list[str]] = get_domain(env).data.setdefault(DATA_KEY, {})
    return links


class DocLinkCollector(EnvironmentCollector):
    """Collects, per page, the pages its untitled ``{doc}`` links point to."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _doc_links(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        mine = _doc_links(env)
        theirs = other.domaindata["contrib"].get(DATA_KEY, {})  # a worker's environment has no domains
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        docname = app.env.current_document.docname
        docs = {
            docname_join(node.get("refdoc", docname), node["reftarget"])
            for node in doctree.findall(addnodes.pending_xref)
            if node.get("refdomain") == "std" and node.get("reftype") == "doc" and not node.get("refexplicit")
        }
        if docs:
            _doc_links(app.env)[docname] = sorted(docs)

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        titles = {docname: digest(title.astext()) for docname, title in env.titles.items()}
        changed = changed_keys(remember(app, "titles", titles) or {}, titles)
        pages = {docname for docname, docs in _doc_links(env).items() if not changed.isdisjoint(docs)}
        return sorted(pages & env.found_docs)


def setup_doc_titles(app: Sphinx) -> None:
    app.add_env_collector(DocLinkCollector)
