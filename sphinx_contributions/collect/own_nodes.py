"""Which pages hold the extension's nodes, noted once when a page is read.

The handlers that run when each page is resolved for writing (``doctree-resolved``: headers, listings, the
projects overview, figures, links to generated pages) each looked through the whole page for their own
nodes, on every page of the site, and a site such as ablog's resolves a page several times (its post
lists resolve each excerpt). With the kinds of node a page holds noted here (one look through the page
when it is read), each returns at once on a page that holds none of them: the cost on a site with no
write-up is one walk over each page read, not one walk per handler per page written.

A book (singlehtml, LaTeX, Texinfo, man: builders that put every page into the root document) is always
looked through: its one document holds every page's nodes.

The same look notes the pages that hold sphinx-design's nodes (a component, a button or badge reference, a
link opened in a new tab: :func:`is_design_node`), for :mod:`..render.design_guest`: where the site does not
list ``sphinx_design`` itself, its per-page transforms run only where there is something for them to do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from .. import nodes as cn
from ..builders import output_of
from .page_data import PageDataCollector

if TYPE_CHECKING:
    from docutils.transforms import Transform
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


def is_design_node(node: nodes.Node) -> bool:
    """Whether sphinx-design's transforms act on ``node``: one of its components (``design_component``,
    as its ``is_component`` reads), a ``button-ref`` or a ``bdg-ref`` with a tooltip (its stash transforms),
    an element whose links open in a new tab (its ``doctree-resolved`` handler)."""
    if not isinstance(node, nodes.Element):
        return False
    attributes = node.attributes
    if "design_component" in attributes or "sd_new_tab" in attributes or "sd_tooltip" in attributes:
        return True
    return isinstance(node, addnodes.pending_xref) and "sd-btn" in attributes["classes"]


class OwnNodesCollector(PageDataCollector):
    """Notes, per page the extension's directives or roles ran on, :data:`MARKED` and the names of the kinds
    of :data:`OWN_NODES` it holds (other pages: not kept)."""

    data_key = "own_nodes"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        # where either may be found: sphinx-design's nodes only where it was loaded before the pages were
        # read without the site listing it (its directives are not there otherwise: render/design_guest.py)
        own, guest = cn.made_here(app.env), design_is_guest(app) and "sphinx_design" in app.extensions
        if not (own or guest):
            return
        found: set[str] = {MARKED} if own else set()
        design = False
        for node in cn.walk(doctree):  # one look for both notes
            kind = _kind(node) if own else None
            if kind is not None:
                found.add(kind)
            elif guest and not design:
                design = is_design_node(node)
        docname = app.env.current_document.docname
        if found:
            self.pages(app.env)[docname] = sorted(found)
        if design:
            DesignNodesCollector.pages(app.env)[docname] = ["sphinx_design"]


class DesignNodesCollector(PageDataCollector):
    """The pages that hold sphinx-design's nodes (:func:`is_design_node`), noted by
    :class:`OwnNodesCollector`'s look (this one drops and merges them)."""

    data_key = "design_nodes"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        """Noted by :class:`OwnNodesCollector`, in its one look at the page."""


def design_is_guest(app: Sphinx) -> bool:
    """Whether sphinx-design is loaded only for the extension: the site's ``extensions`` do not list it."""
    return "sphinx_design" not in (app.config.extensions or ())


def holds_own_nodes(app: Sphinx, docname: str) -> bool:
    """Whether the page ``docname``, resolved for the current builder, may hold any of the extension's
    nodes (always, in a book: its root document holds every page)."""
    return output_of(app.builder).inlines or docname in OwnNodesCollector.pages(app.env)


def site_shows_work(app: Sphinx) -> bool:
    """Whether any page of the site, when it was read, ran one of the extension's directives or roles."""
    return bool(OwnNodesCollector.pages(app.env))


#: the kinds of :data:`OWN_NODES` rendered as sphinx-design's cards and grids (:mod:`..render.header`,
#: :mod:`..render.listing`, :mod:`..render.projects`)
CARDS = frozenset({"contribution_header", "contribution_list", "contribution_projects"})


def site_shows_cards(app: Sphinx) -> bool:
    """Whether any page of the site, when it was read, held a write-up's header, a listing or a projects
    overview (the extension's nodes drawn with sphinx-design's cards)."""
    return any(not CARDS.isdisjoint(kinds) for kinds in OwnNodesCollector.pages(app.env).values())


def site_ran_here(transform: Transform) -> bool:
    """:func:`site_shows_work`, for a transform (the ``when`` of a post transform of the wiring)."""
    return bool(OwnNodesCollector.pages(transform.env))


def holds_design_nodes(app: Sphinx, docname: str) -> bool:
    """Whether the page ``docname`` held any of sphinx-design's nodes when it was read."""
    return docname in DesignNodesCollector.pages(app.env)


def site_holds_design_nodes(app: Sphinx) -> bool:
    """Whether any page of the site held sphinx-design's nodes when it was read."""
    return bool(DesignNodesCollector.pages(app.env))


def setup_own_nodes(app: Sphinx) -> None:
    app.add_env_collector(DesignNodesCollector)
    app.add_env_collector(OwnNodesCollector)
