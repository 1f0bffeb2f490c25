"""Which pages hold the extension's nodes, noted once when a page is read.

The handlers that run when each page is resolved for writing (``doctree-resolved``: headers, listings, the
projects overview, figures, links to generated pages) each looked through the whole page for their own
nodes, on every page of the site, and a site such as ablog's resolves a page several times (its post
lists resolve each excerpt). With the kinds of node a page holds noted here (one look through the page
when it is read), each returns at once on a page that holds none of them: the cost on a site with no
write-up is one walk over each page read, not one walk per handler per page written.

A book (singlehtml, LaTeX, Texinfo, man: builders that put every page into the root document) is always
looked through: its one document holds every page's nodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from .. import nodes as cn
from ..builders import output_of
from .page_data import PageDataCollector

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: the nodes the extension's write-time handlers look for (its directives and roles make them)
OWN_NODES: tuple[type[nodes.Node], ...] = (
    cn.contribution_header,
    cn.metric,
    cn.contribution_list,
    cn.contribution_projects,
    cn.project_intro,
    cn.page_link,
    cn.export_link,
)


def _is_own(node: nodes.Node) -> bool:
    return isinstance(node, OWN_NODES)


class OwnNodesCollector(PageDataCollector):
    """Notes, per page, the names of the kinds of :data:`OWN_NODES` it holds (pages holding none: not kept)."""

    data_key = "own_nodes"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        found = {type(node).__name__ for node in doctree.findall(_is_own)}
        if found:
            self.pages(app.env)[app.env.current_document.docname] = sorted(found)


def holds_own_nodes(app: Sphinx, docname: str) -> bool:
    """Whether the page ``docname``, resolved for the current builder, may hold any of the extension's
    nodes (always, in a book: its root document holds every page)."""
    return output_of(app.builder).inlines or docname in OwnNodesCollector.pages(app.env)


def setup_own_nodes(app: Sphinx) -> None:
    app.add_env_collector(OwnNodesCollector)
