"""The mark each of the extension's directives and roles leaves on the page being read when it runs
(:data:`..nodes.MADE_HERE`, in ``env.current_document``: also where it runs in a translation of the page's
text, which Sphinx parses as a document of its own): the looks for the extension's nodes taken at every
page read are taken only where it stands. Every directive and role of the extension derives from one of
these two classes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.util.docutils import SphinxDirective, SphinxRole

from .. import nodes as cn

if TYPE_CHECKING:
    from collections.abc import Sequence

    from docutils.nodes import Node, system_message
    from docutils.parsers.rst.states import Inliner


class MarkingDirective(SphinxDirective):
    """A directive of the extension: it marks its page when docutils or MyST makes it, before it runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.env.current_document[cn.MADE_HERE] = True


class MarkingRole(SphinxRole):
    """A role of the extension: it marks its page when it is called, before it runs."""

    def __call__(
        self,
        name: str,
        rawtext: str,
        text: str,
        lineno: int,
        inliner: Inliner,
        options: dict[str, Any] | None = None,
        content: Sequence[str] = (),
    ) -> tuple[list[Node], list[system_message]]:
        inliner.document.settings.env.current_document[cn.MADE_HERE] = True
        return super().__call__(name, rawtext, text, lineno, inliner, options, content)
