"""The bases of the extension's directives and roles: each marks its page (:data:`..nodes.MADE_HERE`) when it
runs, so the per-page looks for the extension's nodes are taken only where it stands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.util.docutils import SphinxDirective, SphinxRole

from .. import nodes as cn

if TYPE_CHECKING:
    from collections.abc import Sequence

    from docutils.nodes import Node, system_message
    from docutils.parsers.rst.states import Inliner


class MarkingDirective(SphinxDirective):
    """A directive of the extension: it marks its page when it is made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.env.current_document[cn.MADE_HERE] = True


class MarkingRole(SphinxRole):
    """A role of the extension: it marks its page when it is called."""

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
