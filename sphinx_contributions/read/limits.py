"""The ``known-limits`` callout: a container of class ``contrib-limits`` headed by a rubric (its argument, else
"Known limits"), so every builder renders it."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes

from ..i18n import _
from .marks import MarkingDirective

if TYPE_CHECKING:
    from sphinx.util.typing import OptionSpec


class KnownLimitsDirective(MarkingDirective):
    """``:::{known-limits} [title]``: a callout of the change's known limits."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[OptionSpec] = {}

    def run(self) -> list[nodes.Node]:
        title = " ".join(self.arguments[0].split()) if self.arguments else _("Known limits")
        node = nodes.container(classes=["contrib-limits"])
        self.set_source_info(node)
        textnodes, _messages = self.parse_inline(title, lineno=self.lineno)
        node += nodes.rubric(title, "", *textnodes, classes=["contrib-limits-title"])
        node += self.parse_content_to_nodes()
        return [node]
