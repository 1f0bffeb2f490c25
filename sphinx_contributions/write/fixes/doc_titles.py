"""A ``{doc}`` link without explicit text shows the linked page's title, but Sphinx does not rewrite
the linking page when that title changes. Pages with such links are collected when read, and rewritten
when a linked title changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.util import docname_join

from ...collect.page_data import PageDataCollector, pending_xrefs
from ...files import digest
from ..gates import shows_work
from ..manifest import changed_keys, remember

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: the domain data key: docname → the docnames its untitled ``{doc}`` links show the title of
DATA_KEY = "doc_links"


class DocLinkCollector(PageDataCollector):
    """Collects, per page, the pages its untitled ``{doc}`` links point to."""

    data_key = DATA_KEY

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        docname = app.env.current_document.docname
        docs = {
            docname_join(node.get("refdoc", docname), node["reftarget"])
            for node in pending_xrefs(app.env, doctree)
            if node.get("refdomain") == "std" and node.get("reftype") == "doc" and not node.get("refexplicit")
        }
        if docs:
            DocLinkCollector.pages(app.env)[docname] = sorted(docs)

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        if not shows_work(app):  # a guest's site: its titles are Sphinx's to follow
            return []
        titles = {docname: digest(title.astext()) for docname, title in env.titles.items()}
        changed = changed_keys(remember(app, "titles", titles) or {}, titles)
        pages = {docname for docname, docs in DocLinkCollector.pages(env).items() if not changed.isdisjoint(docs)}
        return sorted(pages & env.found_docs)


def setup_doc_titles(app: Sphinx) -> None:
    app.add_env_collector(DocLinkCollector)
