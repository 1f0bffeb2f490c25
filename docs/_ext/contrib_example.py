"""Rendered examples: ``contrib-example`` shows a piece of MyST source beside what the extension makes of it,
as sphinx-design's and MyST-Parser's manuals show theirs. The content is the source: it is shown as a code
block, then parsed in place by the page's own parser, so what is shown is what was built, and the two cannot
drift.

Its argument names what the example shows (``contribution``, ``metric``, ``{pr}`` …): the manual's test
counts the examples by those names. ``:source-only:`` shows the source alone, for a part the page renders
elsewhere (the write-up's header and sections are the page's own, above and around it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import OptionSpec


class ContribExample(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[OptionSpec] = {"source-only": directives.flag}

    def run(self) -> list[nodes.Node]:
        source = "\n".join(self.content)
        shows = self.arguments[0].split()
        box = nodes.container(classes=["contrib-example"])
        box["shows"] = shows
        literal = nodes.literal_block(source, source, language="markdown", classes=["contrib-example-source"])
        self.set_source_info(literal)
        box += literal
        if "source-only" in self.options:  # the page itself renders it: the source must be the page's own
            page = self.env.doc2path(self.env.docname).read_text(encoding="utf-8")
            if source not in page.replace(f"```{{contrib-example}} {self.arguments[0]}\n:source-only:\n{source}", ""):
                raise self.error("the source shown is not the page's own text: copy it from the page")
            box["classes"].append("contrib-example-page")
            return [box]
        rendered = nodes.container(classes=["contrib-example-result"])
        rendered += self.parse_content_to_nodes(allow_section_headings=True)
        box += rendered
        return [box]


def add_data_shows(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """The names an example shows, as classes of its HTML element (``shows-metric``): the test counts them."""
    for box in doctree.findall(nodes.container):
        if box.get("shows"):
            box["classes"] = [*box["classes"], *(f"shows-{name.strip('{}`')}" for name in box["shows"])]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("contrib-example", ContribExample)
    app.connect("doctree-resolved", add_data_shows)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
