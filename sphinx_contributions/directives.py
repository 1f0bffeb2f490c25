"""The page-level directives: ``contribution`` (the header) and the four sections.

Directives only validate their own options and build nodes; everything that needs the whole page
(which sections exist, the metrics for the header) happens in the domain once the page is read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, cast

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from . import nodes as cn
from .model import (
    SECTIONS,
    OptionError,
    is_comment_only_html,
    is_opaque_slug,
    parse_date,
    parse_int_list,
    parse_positive_int,
    parse_repo,
    parse_status,
    parse_tags,
    parse_text,
    project_page,
    tag_page,
)
from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.util.typing import OptionSpec


class ContributionDirective(SphinxDirective):
    """The header of a write-up: one per page, before its sections."""

    has_content = False
    option_spec: ClassVar[OptionSpec] = {
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
        attributes: dict[str, object] = {}
        for name, parse in _REQUIRED_PARSERS.items():
            try:
                attributes[name] = parse(self.options[name])
            except OptionError as error:
                warn(ContribWarning.BAD_OPTION, f"contribution not listed: {error}", self.option_location(name))
                document["contrib_rejected"] = True
                return []
        attributes.update(self._parse_optional())
        node = cn.contribution_header(
            "",
            ids=["contribution"],
            docname=self.env.docname,
            summary_line=self.option_line("summary"),
            status_line=self.option_line("status"),
            **attributes,
        )
        self.set_source_info(node)
        return [node]

    def option_line(self, name: str) -> int:
        """The source line of option ``name``: the directive's line plus the option's place in the
        directive's text (MyST's ``:name: value`` lines or ``---`` YAML block, or reStructuredText's field
        list); the directive's own line when the option is not given."""
        pattern = re.compile(rf"^\s*:?{re.escape(name)}\s*:")
        for offset, text in enumerate(self.block_text.splitlines()[1:], start=1):
            if pattern.match(text):
                return self.lineno + offset
        return self.lineno

    def option_location(self, name: str) -> str:
        """``source:line`` of option ``name``, for warnings about its value."""
        source, _ = self.get_source_info()
        return f"{source}:{self.option_line(name)}"

    def _parse_optional(self) -> dict[str, object]:
        """Optional options: a bad value is reported and left out; the page stays listed."""
        result: dict[str, object] = {}
        for name, parse in _OPTIONAL_PARSERS.items():
            if name not in self.options:
                continue
            try:
                result[name] = parse(self.options[name])
            except OptionError as error:
                kind = ContribWarning.BAD_STATUS if name == "status" else ContribWarning.BAD_OPTION
                warn(kind, f"option ignored: {error}", self.option_location(name))
        for tag in cast("tuple[str, ...]", result.get("tags", ())):
            self._warn_if_opaque("tag", tag, tag_page(tag), "tags")
        if "project" in result:
            project = cast("str", result["project"])
            self._warn_if_opaque("project", project, project_page(project), "project")
        return result

    def _warn_if_opaque(self, what: str, name: str, page: str, option: str) -> None:
        if is_opaque_slug(name):
            warn(
                ContribWarning.OPAQUE_SLUG,
                f"{what} {name!r} has no Latin letter or digit, so its page gets an opaque address, {page}: "
                f"add Latin letters or digits to the {what} (a transliteration, say) for a readable one",
                self.option_location(option),
            )


#: required options and their parsers, in the order they are checked
_REQUIRED_PARSERS: dict[str, Callable[[str], object]] = {
    "repo": parse_repo,
    "pr": lambda value: parse_positive_int(value, "pr"),
    "summary": lambda value: parse_text(value, "summary"),
}
#: required options, in the order they are checked
REQUIRED = tuple(_REQUIRED_PARSERS)
_OPTIONAL_PARSERS: dict[str, Callable[[str], object]] = {
    "issue": lambda value: parse_int_list(value, "issue"),
    "status": parse_status,
    "tags": parse_tags,
    "project": lambda value: parse_text(value, "project"),
    "date": parse_date,
}


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
        if not any(is_written(node) for node in body):
            warn(
                ContribWarning.UNWRITTEN_SECTION,
                f"section '{name}' is not written yet (it holds only comments or nothing)",
                location,
            )
            section["contrib_unwritten"] = True
        document.ids[anchor] = section
        return [section]


def is_written(node: nodes.Node) -> bool:
    """Whether a node is written content: not a comment (``%`` or ``<!-- … -->``), a label, a warning or
    another invisible node. The node form of the one rule (:func:`~.model.is_comment_only_html`)."""
    if isinstance(node, nodes.raw) and is_comment_only_html(node.astext()):
        return False
    return not isinstance(node, (nodes.Invisible, nodes.system_message))


def setup_directives(app: Sphinx) -> None:
    app.add_directive("contribution", ContributionDirective)
    for name, _ in SECTIONS:
        app.add_directive(name, SectionDirective)
