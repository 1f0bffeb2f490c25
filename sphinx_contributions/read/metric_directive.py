"""The ``metric`` directive (source → node) and the node's record (node → :class:`~.records.Metric`)."""

from __future__ import annotations

from dataclasses import fields
from functools import partial
from typing import TYPE_CHECKING, ClassVar, TypeVar

from docutils import nodes

from .. import nodes as cn
from ..i18n import number_locale
from ..options import (
    OptionDoc,
    OptionError,
    parse_better,
    parse_change,
    parse_evidence_item,
    parse_expect,
    parse_value,
    parse_values,
)
from ..records import Evidence, Metric
from ..warnings import ContribWarning, warn
from .directives import OptionsDirective
from .names import misspelt_header

if TYPE_CHECKING:
    from collections.abc import Callable


T = TypeVar("T")


class MetricDirective(OptionsDirective):
    """``:::{metric} Label``: a before/after figure, with its values, unit, direction and evidence."""

    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = False
    flags = ("headline",)
    option_doc: ClassVar[dict[str, OptionDoc]] = {
        "before": OptionDoc(
            "number",
            "required",
            "The value before the change, as written: scientific notation allowed (`1.03e-1`); `~` before it "
            "marks it approximate.",
        ),
        "after": OptionDoc("number", "required", "The value after the change, the same way."),
        "unit": OptionDoc("text", "none", "Shown after both values: `ms`, `of 16` (a count of that whole)."),
        "better": OptionDoc("one of `lower`, `higher`", "`lower`", "Which way is an improvement."),
        "headline": OptionDoc(
            "flag (no value)",
            "the page's first figure",
            "This is the write-up's headline figure, the one its header, listings and cards show.",
        ),
        "expect": OptionDoc(
            "`hold`",
            "none (a result)",
            "A no-regression check: the figure must not get worse (`196 → 196 tests passed`).",
        ),
        "change": OptionDoc(
            "one of `on`, `off`",
            "`on`",
            "`off`: no change in words anywhere, the values and the chart alone (for a ratio no source states).",
        ),
        "evidence": OptionDoc(
            "links, comma-separated",
            "none",
            "Where the figure comes from: `PR 12`, `issue 3`, `commit 0123abc`, `owner/repo#N`, "
            "`owner/repo@SHA` or a web address.",
        ),
    }

    def make_nodes(self) -> list[nodes.Node]:
        label = " ".join((self.arguments[0] if self.arguments else "").split())
        unit = " ".join(self.options.get("unit", "").split())
        errors: list[str] = [] if label else ["a label is required, the text after '{metric}'"]
        missing = tuple(name for name in ("before", "after") if not self.options.get(name, "").strip())
        # a misspelt ':befor:' is reported as such, not again as a missing value
        explained = set(self.warn_misspelt_options(missing, "the figure is not shown").values()) & set(missing)
        # every mistake of the figure at once
        values = None
        if not explained:
            values = _parsed(errors, lambda: parse_values(self.options.get("before"), self.options.get("after"), unit))
        for name in ("before", "after") if explained else ():
            if name not in explained:
                _parsed(errors, partial(parse_value, self.options.get(name), name, unit))
        better = _parsed(errors, lambda: parse_better(self.options.get("better")))
        expect = _parsed(errors, lambda: parse_expect(self.options.get("expect")))
        words = _parsed(errors, lambda: parse_change(self.options.get("change")))
        if errors or values is None or better is None or words is None:
            what = f"metric {label!r}" if label else "metric"  # name the figure, a page may hold several
            if errors:
                where = self._first_fault(label, unit, values is None, better is None, expect is None, words is None)
                warn(ContribWarning.BAD_METRIC, f"{what} not shown: {'; '.join(errors)}", where)
            return []
        (before, before_text, before_approximate), (after, after_text, after_approximate) = values
        evidence = self._evidence(label)
        node = cn.metric(
            label=label,
            before=before,
            after=after,
            before_text=before_text,
            after_text=after_text,
            unit=unit,
            better=better,
            headline="headline" in self.options,
            before_approximate=before_approximate,
            after_approximate=after_approximate,
            expect=expect,
            evidence=tuple((item.kind, item.text, item.url) for item in evidence),
            locale=number_locale(self.config.language),
            words=words,
        )
        self.set_source_info(node)
        node += self.option_text("label", label, line=self.lineno)
        if unit:
            node += self.option_text("unit", unit, line=self.option_line("unit"))
        return [node]

    def _first_fault(self, label: str, unit: str, values: bool, better: bool, expect: bool, words: bool) -> str:
        """Where a figure's one warning points: the first option at fault, else the directive's line."""
        if not label:
            return f"{self.get_source_info()[0]}:{self.lineno}"
        faults = []
        for name in ("before", "after") if values else ():
            if (
                self.options.get(name, "").strip()
                and _parsed([], partial(parse_value, self.options[name], name, unit)) is None
            ):
                faults.append(name)
        others = (("better", better), ("expect", expect), ("change", words))
        faults += [name for name, bad in others if bad and name in self.options]
        if not faults:
            return f"{self.get_source_info()[0]}:{self.lineno}"
        return self.option_location(min(faults, key=self.option_line))

    def _evidence(self, label: str) -> list[Evidence]:
        """The ``:evidence:`` items that parse; each one that does not is reported and left out."""
        document = self.state.document
        header = next(document.findall(cn.contribution_header), None)
        page_repo = header["repo"] if header is not None else None
        items = []
        for value in self.options["evidence"].split(",") if "evidence" in self.options else ():
            try:
                items.append(parse_evidence_item(value, page_repo))
            except OptionError as error:
                if page_repo is None and (document.get("contrib_rejected") or misspelt_header(self.env, document)):
                    continue  # the page's header was rejected (and reported): its short forms go unsaid
                warn(
                    ContribWarning.BAD_EVIDENCE,
                    f"metric {label!r}: evidence left out: {error}",
                    self.option_location("evidence"),
                )
        return items


def _parsed(errors: list[str], parse: Callable[[], T]) -> T | None:
    """What ``parse`` returns; None, with its message added to ``errors``, when it refuses the value."""
    try:
        return parse()
    except OptionError as error:
        errors.append(str(error))
        return None


def metric_from_node(node: nodes.Element) -> Metric:
    """The record of a ``metric`` node, whose attributes are the record's fields."""
    given = {field.name: node[field.name] for field in fields(Metric) if field.name in node.attributes}
    evidence: tuple[tuple[str, str, str], ...] = node.get("evidence", ())
    return Metric(**{**given, "evidence": tuple(Evidence(*item) for item in evidence)})
