"""Data kept per page on the domain by an environment collector: dropped with the page, merged from workers."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from sphinx.environment.collectors import EnvironmentCollector

from .domain import get_domain

if TYPE_CHECKING:
    from collections.abc import Set

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
