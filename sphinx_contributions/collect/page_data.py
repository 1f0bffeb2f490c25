"""Data kept per page on the domain (``env.domaindata["contrib"][key][docname]``) by an environment
collector: dropped when the page is read again or removed, merged from the workers of a parallel read."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from sphinx import addnodes
from sphinx.environment.collectors import EnvironmentCollector

from .domain import get_domain

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


class PageDataCollector(EnvironmentCollector):
    """Keeps, per page, a list of names under :attr:`data_key` of the domain's data."""

    #: the domain data key: docname → the names kept for that page
    data_key: ClassVar[str]

    @classmethod
    def pages(cls, env: BuildEnvironment) -> dict[str, list[str]]:
        """docname → the names kept for it."""
        pages: dict[str, list[str]] = get_domain(env).data.setdefault(cls.data_key, {})
        return pages

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        self.pages(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        mine = self.pages(env)
        theirs = other.domaindata["contrib"].get(self.data_key, {})  # a worker's environment has no domains
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]


#: where the page being read keeps its cross-references, found once (Sphinx's data of the current
#: document, new for each page it reads)
_XREFS = "contributions:pending-xrefs"


def pending_xrefs(env: BuildEnvironment, doctree: nodes.document) -> list[addnodes.pending_xref]:
    """The page's cross-references, in document order: one look through the page for every collector
    that reads them (the links to a write-up's title, the untitled ``{doc}`` links), which see every page."""
    found = env.current_document.get(_XREFS)
    if found is None or found[0] is not doctree:
        found = (doctree, list(doctree.findall(addnodes.pending_xref)))  # docutils 0.22's findall: as quick as a loop
        env.current_document[_XREFS] = found
    xrefs: list[addnodes.pending_xref] = found[1]
    return xrefs
