"""The ``projects`` listing and its ``project`` intros: a section per project with a write-up, taken from the
records (so a new project needs no edit of the overview), intros first in the order written, then by name."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes

from .. import nodes as cn
from ..options import OptionDoc
from ..warnings import ContribWarning, warn
from .directives import OptionsDirective
from .marks import MarkingDirective

if TYPE_CHECKING:
    from sphinx.util.typing import OptionSpec


class ProjectsDirective(MarkingDirective):
    """``::::{projects}``: a section per project with a write-up; its content holds ``project`` intros."""

    has_content = True
    option_spec: ClassVar[OptionSpec] = {}

    def run(self) -> list[nodes.Node]:
        node = cn.contribution_projects()
        self.set_source_info(node)
        for child in self.parse_content_to_nodes():
            if isinstance(child, cn.project_intro):
                node += child
            elif not isinstance(child, nodes.system_message):  # a warning already shown (MyST's) is no content
                text = " ".join(child.astext().split())
                shown = text if len(text) <= 40 else text[:39] + "…"
                warn(
                    ContribWarning.BAD_LISTING,
                    f"a 'projects' listing holds only 'project' intros; {shown!r} is not shown",
                    self.get_location(),
                )
        return [node]


class ProjectIntroDirective(OptionsDirective):
    """``:::{project} name`` (the project's name or its repository's): the intro of one project."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_doc: ClassVar[dict[str, OptionDoc]] = {
        "heading": OptionDoc("text", "the project's name", "The heading of the project's section."),
    }

    def make_nodes(self) -> list[nodes.Node]:
        self.warn_misspelt_options()
        name = " ".join(self.arguments[0].split())
        node = cn.project_intro(name=name, heading=" ".join(self.options.get("heading", "").split()))
        self.set_source_info(node)
        node += self.parse_content_to_nodes()
        return [node]
