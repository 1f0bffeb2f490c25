"""Which pages hold the extension's nodes, noted once when a page is read, so each write-time handler returns
at once on a page that holds none (a book's one document is always looked through)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.environment.collectors import EnvironmentCollector

from .. import nodes as cn
from ..builders import output_of
from .domain import get_domain

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

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


#: the name kept for every page the extension's directives or roles ran on, whatever nodes they left
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


class OwnNodesCollector(EnvironmentCollector):
    """Notes :data:`MARKED` and the kinds of :data:`OWN_NODES` of each page the extension ran on."""

    @staticmethod
    def pages(env: BuildEnvironment) -> dict[str, list[str]]:
        """docname → the names kept for it."""
        pages: dict[str, list[str]] = get_domain(env).data.setdefault("own_nodes", {})
        return pages

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        self.pages(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        theirs = other.domaindata["contrib"].get("own_nodes", {})  # a worker's environment has no domains
        self.pages(env).update({docname: theirs[docname] for docname in docnames if docname in theirs})

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
    """Whether page ``docname`` may hold the extension's nodes (in a book, always)."""
    return output_of(app.builder).inlines or docname in OwnNodesCollector.pages(app.env)


def pages_showing_work(app: Sphinx) -> set[str]:
    """The pages the extension's directives or roles ran on when they were read: where it shows its work."""
    return set(OwnNodesCollector.pages(app.env))


def site_shows_work(app: Sphinx) -> bool:
    """Whether any page of the site, when it was read, ran one of the extension's directives or roles."""
    return bool(OwnNodesCollector.pages(app.env))


def setup_own_nodes(app: Sphinx) -> None:
    app.add_env_collector(OwnNodesCollector)
