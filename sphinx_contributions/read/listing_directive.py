"""The ``contributions`` listing directive: it records its options; the list is rendered at write time."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import nodes as cn
from ..options import OptionDoc, OptionError, parse_positive_int, parse_status, parse_text
from ..queries import LAYOUTS, SORTS
from ..warnings import ContribWarning, suggest, warn
from .directives import OptionsDirective

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils import nodes


class ContributionsDirective(OptionsDirective):
    """``:::{contributions}``: a listing of the write-ups, chosen, ordered and laid out by its options."""

    has_content = False
    option_doc: ClassVar[dict[str, OptionDoc]] = {
        "layout": OptionDoc(
            f"one of {', '.join(f'`{name}`' for name in LAYOUTS)}",
            f"`{LAYOUTS[0]}`",
            "How the write-ups are drawn: a table, cards, or proof rows (project, impact and headline figure).",
        ),
        "project": OptionDoc("text", "every project", "Only this project (display name or repository name, any case)."),
        "tag": OptionDoc("text", "every tag", "Only the write-ups with this tag."),
        "status": OptionDoc(
            "one of `merged`, `open`, `closed`", "every state", "Only this state (drafts are never published)."
        ),
        "sort": OptionDoc(
            f"one of {', '.join(f'`{name}`' for name in SORTS)}",
            f"`{SORTS[0]}`",
            "The order: newest first (undated last), by project, or by title.",
        ),
        "limit": OptionDoc("positive integer", "no limit", "At most this many write-ups."),
        "filter": OptionDoc(
            "flag, or a positive integer",
            "no controls",
            "Filter controls by project, tag and state, once the listing holds `contributions_filter_min` "
            "write-ups, or the number given.",
        ),
    }

    def make_nodes(self) -> list[nodes.Node]:
        self.warn_misspelt_options()
        options, errors = self._parse()
        if errors:
            warn(
                ContribWarning.BAD_LISTING,
                f"contributions listing: {'; '.join(errors)}; showing the full table",
                self.get_location(),
            )
            options = {"layout": "table", "sort": "date"}
        node = cn.contribution_list("", **options)
        self.set_source_info(node)
        return [node]

    def _parse(self) -> tuple[dict[str, object], list[str]]:
        """The listing's options, and a message for each one that does not parse (all of them at once)."""
        errors: list[str] = []
        options: dict[str, object] = {"filter": "filter" in self.options}
        if (given := self.options.get("filter", "").strip()) != "":
            try:  # the fewest write-ups for which the controls show (default: contributions_filter_min)
                options["filter_min"] = parse_positive_int(given, "filter")
            except OptionError as error:
                errors.append(str(error))
        for name, choices, default in (("layout", LAYOUTS, "table"), ("sort", SORTS, "date")):
            value = self.options.get(name, default).strip()
            if value in choices:
                options[name] = value
            else:
                errors.append(f"{name} must be one of {', '.join(choices)}, got {value!r}{suggest(value, choices)}")
        parsers: dict[str, Callable[[str], object]] = {
            "limit": lambda value: parse_positive_int(value, "limit"),
            "status": parse_status,
            "project": lambda value: parse_text(value, "project"),
            "tag": lambda value: parse_text(value, "tag"),
        }
        for name, parse in parsers.items():
            if name in self.options:
                try:
                    options[name] = parse(self.options[name])
                except OptionError as error:
                    hint = self.comment_hint(name)
                    errors.append(hint if hint is not None else str(error))
        return options, errors
