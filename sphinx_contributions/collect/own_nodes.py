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


#: the name kept for every page the extension's directives or roles ran on (:func:`..nodes.made_here`),
#: whatever nodes they left: the site holds the extension's work (:func:`site_shows_work`)
MARKED = "marked"

#: the class of a container made by the extension's known-limits directive (:mod:`..read.limits`)
LIMITS_CLASS = "contrib-limits"
#: the name kept for a page holding a known-limits callout (a container, not one of :data:`OWN_NODES`)
LIMITS = "limits"


def _kind(node: nodes.Node) -> str | None:
    """The name kept for ``node`` when it is one of the extension's (its type's name, or :data:`LIMITS`)."""
    if isinstance(node, OWN_NODES):
        return type(node).__name__
    if isinstance(node, nodes.container) and LIMITS_CLASS in node["classes"]:
        return LIMITS
    return None


class OwnNodesCollector(PageDataCollector):
    """Notes, per page the extension's directives or roles ran on, :data:`MARKED` and the names of the kinds
    of :data:`OWN_NODES` it holds (other pages: not kept)."""

    data_key = "own_nodes"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        if not cn.made_here(app.env):
            return
        found = {MARKED}
        for node in cn.walk(doctree):
            kind = _kind(node)
            if kind is not None:
                found.add(kind)
        self.pages(app.env)[app.env.current_document.docname] = sorted(found)


def holds_own_nodes(app: Sphinx, docname: str) -> bool:
    """Whether the page ``docname``, resolved for the current builder, may hold any of the extension's
    nodes (always, in a book: its root document holds every page)."""
    return output_of(app.builder).inlines or docname in OwnNodesCollector.pages(app.env)


def pages_showing_work(app: Sphinx) -> set[str]:
    """The pages the extension's directives or roles ran on when they were read: where it shows its work."""
    return set(OwnNodesCollector.pages(app.env))


def site_shows_work(app: Sphinx) -> bool:
    """Whether any page of the site, when it was read, ran one of the extension's directives or roles."""
    return bool(OwnNodesCollector.pages(app.env))


def setup_own_nodes(app: Sphinx) -> None:
    app.add_env_collector(OwnNodesCollector)
