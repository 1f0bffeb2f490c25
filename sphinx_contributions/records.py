"""The collected data: small frozen records and what each works out from its own fields. Nothing here touches
Sphinx."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal, localcontext
from typing import TYPE_CHECKING

from . import forges
from .formatting import FIGURES_EXACT, SUPERSCRIPT, format_difference, format_sig, round_sig, written_figures
from .keys import SECTION_SEPARATOR, issue_url, make_key, pr_url, project_page, slugify, tag_page

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    #: a message → its translation (``sphinx_contributions.i18n._``); the records themselves stay in English
    Translate = Callable[[str], str]


def untranslated(message: str) -> str:
    """The English message itself: what the model's words are without a translation."""
    return message


#: a change under this many percent is "<0.01%": smaller shares say nothing a reader can use
_SMALLEST_PERCENT = Decimal("0.01")


#: a count's unit, ``of 140`` (or ``/ 140``): the whole its values are counted out of (:attr:`Metric.whole`)
_OF_WHOLE = re.compile(r"(?:of|/)\s*(\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class Evidence:
    """One link a figure cites as its evidence: a pull request, an issue, a commit or any web page."""

    kind: str  # "pr", "issue", "commit" or "link"
    text: str
    url: str

    def as_json(self) -> dict[str, str]:
        return {"kind": self.kind, "text": self.text, "url": self.url}


@dataclass(frozen=True)
class Metric:
    """One before/after figure: the values and the text shown for them (``~`` for an approximate value)."""

    label: str
    before: float
    after: float
    before_text: str
    after_text: str
    unit: str = ""
    better: str = "lower"
    #: the write-up's headline figure: the one listings, cards and the home page show
    headline: bool = False
    #: the value was written approximate (``~1.03e-1``): the change in words is no more precise
    before_approximate: bool = False
    after_approximate: bool = False
    #: ``"hold"``: a no-regression check, read as "held" or "not held" rather than better or worse
    expect: str | None = None
    #: the Babel locale of the numbers of the change in words (the site's ``language``); None: English
    locale: str | None = None
    #: False (``:change: off``): no change in words anywhere (the values alone; a check its mark)
    words: bool = True

    @property
    def approximate(self) -> bool:
        return self.before_approximate or self.after_approximate

    #: the links the figure cites as its evidence, in the order given
    evidence: tuple[Evidence, ...] = ()

    @property
    def figures(self) -> int:
        """Significant figures of the change in words: no more than an approximate value was written with."""
        written = [
            written_figures(text)
            for text, approximate in (
                (self.before_text, self.before_approximate),
                (self.after_text, self.after_approximate),
            )
            if approximate
        ]
        return min([FIGURES_EXACT, *written])

    @property
    def improved(self) -> bool | None:
        """True when the change goes the ``better`` way, None when there is no change."""
        if self.after == self.before:
            return None
        return (self.after < self.before) == (self.better == "lower")

    @property
    def verdict(self) -> str:
        """``better``, ``worse``, ``same``; for a no-regression check ``held`` or ``not-held``."""
        if self.expect == "hold":
            return "not-held" if self.improved is False else "held"
        return {True: "better", False: "worse", None: "same"}[self.improved]

    @property
    def chart(self) -> str | None:
        """The chart's scale, ``"log"`` or ``"linear"``; None when no chart is truthful."""
        if self.before < 0 or self.after < 0 or max(self.before, self.after) == 0:
            return None
        lo, hi = sorted((self.before, self.after))
        if self.whole is not None:
            return "linear"
        return "log" if lo > 0 and hi / lo >= 10 else "linear"  # hi / lo may be inf: still ≥ 10

    @property
    def whole(self) -> float | None:
        """The whole a count is out of (``:unit: of 140``) where it is at least both values; else None."""
        found = _OF_WHOLE.fullmatch(self.unit.strip())
        whole = float(found[1]) if found else None
        if whole and math.isfinite(whole) and whole >= max(self.before, self.after):
            return whole
        return None

    def telling_change(self, _: Translate = untranslated) -> str:
        """The change in words where it adds to the values beside it, else ""."""
        if not self.words or self.expect == "hold" or self.before == self.after or 0 in (self.before, self.after):
            return ""
        return self.change_words(_)

    def change_words(self, _: Translate = untranslated) -> str:
        """The change in words: ``≈54,000× lower``, ``≈25% lower``, ``unchanged``, ``held, ≈1% higher``…."""
        if not self.words:
            if self.expect != "hold":
                return ""
            return _("not held") if self.improved is False else _("held")
        words = self._change(_)
        if self.expect != "hold":
            return words
        if self.improved is None:
            return _("held")
        return (_("held, %(change)s") if self.improved else _("not held: %(change)s")) % {"change": words}

    def _change(self, _: Translate) -> str:
        if self.before == self.after:
            return _("unchanged")
        figures = self.figures
        # exact decimal arithmetic on the binary values: no overflow (1e308 - -1e308), no log of zero
        before, after = Decimal(self.before), Decimal(self.after)
        lower = after < before
        with localcontext() as context:
            context.prec = 40
            if before > 0 and after > 0 and self.approximate:
                return self._approximate_ratio(_, lower)
            if before > 0 and after > 0:
                ratio = max(before, after) / min(before, after)
                if ratio < 2:  # "≈1.3× lower" reads worse than a percentage
                    percent = abs(after - before) / before * 100
                    if round_sig(percent, figures) < _SMALLEST_PERCENT:
                        words = _("<%(percent)s%% lower") if lower else _("<%(percent)s%% higher")
                        return words % {"percent": format_sig(_SMALLEST_PERCENT, 1, self.locale)}
                    words = _("≈%(percent)s%% lower") if lower else _("≈%(percent)s%% higher")
                    return words % {"percent": format_sig(percent, figures, self.locale)}
                words = _("≈%(ratio)s× lower") if lower else _("≈%(ratio)s× higher")
                return words % {"ratio": format_sig(ratio, figures, self.locale)}
            if before == 0:
                return _("up from 0") if after > 0 else _("down from 0")
            if after == 0:
                return _("down to 0") if before > 0 else _("up to 0")
            amount = format_difference(abs(after - before), figures if self.approximate else None, self.locale)
            words = (_("lower by %(amount)s") if lower else _("higher by %(amount)s")) % {"amount": amount}
            if (before < 0) != (after < 0):
                crossing = _("from negative to positive") if after > 0 else _("from positive to negative")
                return f"{words}, {crossing}"
            return words

    def _bounds(self, value: float, text: str, approximate: bool) -> tuple[Decimal, Decimal]:
        """The range a value stands for: itself, or half a unit of its last written figure either side."""
        number = Decimal(value)
        if not approximate or number == 0:
            return number, number
        half = Decimal(1).scaleb(number.copy_abs().adjusted() - written_figures(text) + 1) / 2
        return number - half, number + half

    def _approximate_ratio(self, _: Translate, lower: bool) -> str:
        """Approximate positive values: ``more than 10ⁿ× lower`` with the largest n every pair of values
        within their written precision exceeds; the direction alone below ten times."""
        lo_b, hi_b = self._bounds(self.before, self.before_text, self.before_approximate)
        lo_a, hi_a = self._bounds(self.after, self.after_text, self.after_approximate)
        least = lo_b / hi_a if lower else lo_a / hi_b  # the smallest ratio the written values allow
        if lo_b <= 0 or lo_a <= 0 or least < 10:
            return _("lower") if lower else _("higher")
        power = least.adjusted()  # floor(log10(least)): least ≥ 10**power
        ratio = "10" + str(power).translate(SUPERSCRIPT) if power > 1 else "10"
        words = _("more than %(ratio)s× lower") if lower else _("more than %(ratio)s× higher")
        return words % {"ratio": ratio}

    def as_text(self, _: Translate = untranslated) -> str:
        """A one-line text equivalent, for screen readers and plain-text outputs."""
        unit = f" {self.unit}" if self.unit else ""
        better = _("lower is better") if self.better == "lower" else _("higher is better")
        if self.expect == "hold":
            better = _("a no-regression check, %(better)s") % {"better": better}
        values = {"label": self.label, "before": self.before_text + unit, "after": self.after_text + unit}
        change = self.change_words(_)
        if not change:
            return _("%(label)s: %(before)s before, %(after)s after (%(better)s)") % {**values, "better": better}
        words = _("%(label)s: %(before)s before, %(after)s after (%(change)s; %(better)s)")
        return words % {**values, "change": change, "better": better}

    def as_json(self) -> dict[str, object]:
        return {
            "label": self.label,
            "before": self.before,
            "after": self.after,
            "unit": self.unit or None,
            "better": self.better,
            "change": replace(self, locale=None).change_words() or None,  # English, as the rest; None: off
            "headline": self.headline,
            "approximate": {"before": self.before_approximate, "after": self.after_approximate},
            "expect": self.expect,
            "evidence": [item.as_json() for item in self.evidence],
        }


@dataclass(frozen=True)
class Inline:
    """A piece of inline markup: ``text``, ``code``, or ``emphasis``/``strong``/``link`` around ``children``."""

    kind: str
    text: str = ""
    url: str = ""
    children: tuple[Inline, ...] = ()


def plain_text(markup: Iterable[Inline]) -> str:
    """The one plain form of inline markup, for what shows text only: its text, spaces collapsed."""

    def text(item: Inline) -> str:
        return item.text if item.kind in ("text", "code") else "".join(map(text, item.children))

    return " ".join("".join(map(text, markup)).split())


@dataclass(frozen=True)
class ForgeFacts:
    """What the forge said about a write-up's pull request, as ``contributions sync`` wrote it in the lock."""

    state: str  # "merged", "open" or "closed"
    title: str
    fetched_at: str
    merged_at: str | None = None
    merge_commit: str | None = None
    additions: int | None = None
    deletions: int | None = None
    changed_files: int | None = None
    #: (number, title, state) of each issue of the page, as the forge gave them
    issues: tuple[tuple[int, str, str], ...] = ()
    #: the first release whose tag contains the merge commit: (tag, published at), or None
    first_release: tuple[str, str] | None = None
    #: how it was made (:class:`.forges.base.Made`), each None where the forge does not say;
    #: ``changed_files`` is a lower bound when ``files_at_least``
    opened_at: str | None = None
    commits: int | None = None
    approvals: int | None = None
    closes: tuple[int, ...] | None = None
    files: tuple[str, ...] | None = None
    files_at_least: bool = False

    @property
    def merged_on(self) -> str | None:
        """The merge's date (``YYYY-MM-DD``, UTC) or None."""
        return self.merged_at[:10] if self.merged_at else None

    def as_json(self) -> dict[str, object]:
        """Every fact, but those of how it was made the forge did not give (a lock written before them has none)."""
        facts = {item.name: getattr(self, item.name) for item in fields(self)}
        release = self.first_release
        facts.update(
            issues=[{"number": n, "title": t, "state": st} for n, t, st in self.issues],
            first_release={"tag": release[0], "published_at": release[1]} if release else None,
            closes=list(self.closes) if self.closes is not None else None,
            files=list(self.files) if self.files is not None else None,
            files_at_least=self.files_at_least or None,
        )
        return {name: value for name, value in facts.items() if value is not None or name not in _MADE}


#: the facts of how a pull request was made (:class:`ForgeFacts`), each given only where the forge says it
_MADE = ("opened_at", "commits", "approvals", "closes", "files", "files_at_least")


@dataclass(frozen=True)
class Contribution:
    """One upstream pull request, as declared by a page's ``contribution`` directive."""

    docname: str
    title: str
    repo: str
    pr: int
    #: the summary as plain text (:func:`plain_text` of ``summary_markup``)
    summary: str
    issues: tuple[int, ...] = ()
    status: str | None = None
    tags: tuple[str, ...] = ()
    project: str = ""
    date: str | None = None
    metrics: tuple[Metric, ...] = ()
    sections: tuple[str, ...] = field(default=())
    #: (section name = its anchor, its heading) of every section with a stable anchor, in page order
    section_titles: tuple[tuple[str, str], ...] = ()
    lineno: int = 0
    forge: ForgeFacts | None = None
    #: the summary's inline markup, as the page's parser read it; empty for plain text made without a parse
    summary_markup: tuple[Inline, ...] = ()

    #: the folders of the generated tag and project pages (``contributions_tags_path``, ``…_projects_path``)
    folders: tuple[str, str] = ("tags", "projects")
    #: the header's ``:key:``, for a repository name two owners share; "" for the key :func:`make_key` makes
    given_key: str = ""
    impact: str = ""
    #: the impact's inline markup, as the page's parser read it (as ``summary_markup``)
    impact_markup: tuple[Inline, ...] = ()

    @property
    def summary_inline(self) -> tuple[Inline, ...]:
        """The summary as inline markup: ``summary_markup``, or the plain summary as one text."""
        return self.summary_markup or (Inline("text", self.summary),)

    @property
    def impact_inline(self) -> tuple[Inline, ...]:
        """The impact as inline markup; empty when no impact is given."""
        return self.impact_markup or ((Inline("text", self.impact),) if self.impact else ())

    @property
    def description(self) -> str:
        """What the write-up is about, for listings and exports: its impact, else its summary."""
        return self.impact or self.summary

    @property
    def description_inline(self) -> tuple[Inline, ...]:
        """:attr:`description` as inline markup."""
        return self.impact_inline or self.summary_inline

    @property
    def repo_name(self) -> str:
        return self.repo.rpartition("/")[2]

    @property
    def key(self) -> str:
        return self.given_key or make_key(self.repo, self.pr)

    @property
    def anchor(self) -> str:
        """The HTML id of the page's header block, and the object's anchor in ``objects.inv``."""
        return "contribution"

    def link_target(self, section: str | None = None) -> tuple[str, str] | None:
        """(anchor, link title) of the write-up or one of its sections; None for a section it lacks."""
        return next(((anchor, title) for name, anchor, title in self.targets() if name == section), None)

    def targets(self) -> Iterator[tuple[str | None, str, str]]:
        """(section or None, anchor, link title) of the write-up and of each of its sections."""
        yield None, self.anchor, self.title
        for section, heading in self.section_titles:
            yield section, section, f"{self.title}{SECTION_SEPARATOR}{heading}"

    @property
    def display_project(self) -> str:
        return self.project or self.repo_name

    @property
    def repo_url(self) -> str:
        return forges.repo_url(self.repo)

    @property
    def pr_url(self) -> str:
        return pr_url(self.repo, self.pr)

    @property
    def issue_urls(self) -> tuple[str, ...]:
        return tuple(issue_url(self.repo, n) for n in self.issues)

    @property
    def tag_slugs(self) -> tuple[str, ...]:
        """The slug of each tag."""
        return tuple(slugify(tag) for tag in self.tags)

    @property
    def headline(self) -> Metric | None:
        """The figure marked ``:headline:``, else the first one, else None."""
        return next((m for m in self.metrics if m.headline), self.metrics[0] if self.metrics else None)

    @property
    def project_page(self) -> str:
        """The docname of the generated page of this contribution's project."""
        return project_page(self.display_project, self.folders[1])

    def tag_page(self, tag: str) -> str:
        """The docname of the generated page of one of this contribution's tags."""
        return tag_page(tag, self.folders[0])


@dataclass(frozen=True)
class GeneratedPage:
    """A tag or project page: what it is (``kind`` is ``"tag"`` or ``"project"``), its name and records."""

    kind: str
    name: str
    records: tuple[Contribution, ...]
