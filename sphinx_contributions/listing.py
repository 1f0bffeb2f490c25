"""The ``contributions`` listing directive: the one source of every overview of contributions.

The directive only records its options; the list is rendered when the page is written
(:mod:`.render.listing`), from the domain's records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from . import nodes as cn
from .model import LAYOUTS, SORTS, OptionError, parse_positive_int, parse_status
from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.util.typing import OptionSpec


class ContributionsDirective(SphinxDirective):
    """``:::{contributions}`` with ``:layout:``, ``:project:``, ``:tag:``, ``:status:``, ``:sort:``,
    ``:limit:`` and ``:filter:`` (faceted filter controls, added by the site's script)."""

    has_content = False
    option_spec: ClassVar[OptionSpec] = {
        "layout": directives.unchanged,
        "project": directives.unchanged,
        "tag": directives.unchanged,
        "status": directives.unchanged,
        "sort": directives.unchanged,
        "limit": directives.unchanged,
        "filter": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        try:
            options = self._parse()
        except OptionError as error:
            warn(
                ContribWarning.BAD_LISTING,
                f"contributions listing: {error}; showing the full table",
                self.get_location(),
            )
            options = {"layout": "table", "sort": "date"}
        node = cn.contribution_list("", **options)
        self.set_source_info(node)
        return [node]

    def _parse(self) -> dict[str, object]:
        layout = self.options.get("layout", "table").strip()
        if layout not in LAYOUTS:
            raise OptionError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
        sort = self.options.get("sort", "date").strip()
        if sort not in SORTS:
            raise OptionError(f"sort must be one of {', '.join(SORTS)}, got {sort!r}")
        options: dict[str, object] = {"layout": layout, "sort": sort, "filter": "filter" in self.options}
        if "limit" in self.options:
            options["limit"] = parse_positive_int(self.options["limit"], "limit")
        if "status" in self.options:
            options["status"] = parse_status(self.options["status"])
        for name in ("project", "tag"):
            if name in self.options:
                value = " ".join(self.options[name].split())
                if not value:
                    raise OptionError(f"{name} must not be empty")
                options[name] = value
        return options


def setup_listing(app: Sphinx) -> None:
    app.add_directive("contributions", ContributionsDirective)
