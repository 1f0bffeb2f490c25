"""The page-level directives: ``contribution`` (the header) and the four sections.

Directives only validate their own options and build nodes; everything that needs the whole page
(which sections exist, the metrics for the header) happens in the domain once the page is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from . import nodes as cn
from .model import (
    SECTIONS,
    OptionError,
    is_comment_only_html,
    parse_date,
    parse_int_list,
    parse_positive_int,
    parse_repo,
    parse_status,
    parse_tags,
    parse_text,
)
from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: required options, in the order they are checked
REQUIRED = ("repo", "pr", "summary")


class ContributionDirective(SphinxDirective):
    """The header of a write-up: one per page, before its sections."""

    has_content = False
    option_spec: ClassVar[dict[str, object]] = {
        "repo": directives.unchanged,
        "pr": directives.unchanged,
        "summary": directives.unchanged,
        "issue": directives.unchanged,
        "status": directives.unchanged,
        "tags": directives.unchanged,
        "project": directives.unchanged,
        "date": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        document = self.state.document
        if document.get("contrib_rejected") or any(True for _ in document.findall(cn.contribution_header)):
            warn(
                ContribWarning.DUPLICATE_HEADER,
                "a page holds one contribution; this second 'contribution' directive is ignored",
                location,
            )
            return []
        missing = [name for name in REQUIRED if not self.options.get(name, "").strip()]
        if missing:
            warn(
                ContribWarning.MISSING_OPTION,
                f"contribution is missing required option(s): {', '.join(missing)}; the page is not listed",
                location,
            )
            document["contrib_rejected"] = True  # reported once here, not again by each section
            return []
        try:
            attributes = self._parse_required()
        except OptionError as error:
            warn(
                ContribWarning.BAD_OPTION,
                f"contribution not listed: {error}",
                location,
            )
            document["contrib_rejected"] = True
            return []
        attributes.update(self._parse_optional(location))
        node = cn.contribution_header(ids=["contribution"], docname=self.env.docname, **attributes)
        self.set_source_info(node)
        return [node]

    def _parse_required(self) -> dict[str, object]:
        return {
            "repo": parse_repo(self.options["repo"]),
            "pr": parse_positive_int(self.options["pr"], "pr"),
            "summary": parse_text(self.options["summary"], "summary"),
        }

    def _parse_optional(self, location: str) -> dict[str, object]:
        """Optional options: a bad value is reported and left out; the page stays listed."""
        parsers = {
            "issue": lambda v: parse_int_list(v, "issue"),
            "status": parse_status,
            "tags": parse_tags,
            "project": lambda v: parse_text(v, "project"),
            "date": parse_date,
        }
        result: dict[str, object] = {}
        for name, parse in parsers.items():
            if name not in self.options:
                continue
            try:
                result[name] = parse(self.options[name])
            except OptionError as error:
                kind = ContribWarning.BAD_STATUS if name == "status" else ContribWarning.BAD_OPTION
                warn(kind, f"option ignored: {error}", location)
        return result


class SectionDirective(SphinxDirective):
    """A write-up section: a real section with a heading and a stable anchor (the directive's name)."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        name = self.name
        location = self.get_location()
        document = self.state.document
        if not document.get("contrib_rejected") and not any(True for _ in document.findall(cn.contribution_header)):
            warn(
                ContribWarning.SECTION_OUTSIDE,
                f"'{name}' belongs on a contribution page, after the 'contribution' directive",
                location,
            )
        if any(node.get("contrib_section") == name for node in document.findall(nodes.section)):
            warn(
                ContribWarning.DUPLICATE_SECTION,
                f"section '{name}' is given twice on this page; only the first has the anchor '#{name}'",
                location,
            )
            anchor = document.set_id(nodes.section(), suggested_prefix=name)  # "problem-1", …
        else:
            anchor = name
        section = nodes.section(ids=[anchor], names=[], contrib_section=name, classes=["contrib-section"])
        self.set_source_info(section)
        if self.arguments:  # the author's heading: inline markup yes, raw HTML no
            heading = self.arguments[0]
            title_nodes, messages = self.state.inline_text(heading, self.lineno)
            title = nodes.title(heading, "", *title_nodes)
            for raw in list(title.findall(nodes.raw)):
                raw.replace_self(nodes.Text(raw.astext()))
            section += title
            section += messages
        else:  # the default heading is plain text: no inline parse (one per section of every page)
            heading = dict(SECTIONS)[name]
            section += nodes.title(heading, heading)
        body = self.parse_content_to_nodes(allow_section_headings=True)
        section += body
        if not any(_is_written(node) for node in body):
            warn(
                ContribWarning.UNWRITTEN_SECTION,
                f"section '{name}' is not written yet (it holds only comments or nothing)",
                location,
            )
            section["contrib_unwritten"] = True
        document.ids[anchor] = section
        return [section]


def _is_written(node: nodes.Node) -> bool:
    if isinstance(node, nodes.raw) and is_comment_only_html(node.astext()):
        return False
    return not isinstance(node, (nodes.comment, nodes.system_message, nodes.target))


def setup_directives(app: Sphinx) -> None:
    app.add_directive("contribution", ContributionDirective)
    for name, _ in SECTIONS:
        app.add_directive(name, SectionDirective)
