"""The collected data: small frozen records, and the pure functions that parse options into them.

Nothing here touches Sphinx; the directives call these parsers and turn a :class:`OptionError` into a
warning with the page's location.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import date as _date
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import cached_property
from typing import TYPE_CHECKING

from babel.numbers import format_decimal

from . import forges

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping

    #: a message → its translation (``sphinx_contributions.i18n._``); the model itself stays in English
    Translate = Callable[[str], str]


def untranslated(message: str) -> str:
    """The English message itself: what the model's words are without a translation."""
    return message


#: the states a contribution may declare; absent means "not stated"
STATUSES = ("merged", "open", "closed", "draft")

#: the four sections of a write-up, in page order: (directive name = anchor, default heading)
SECTIONS: tuple[tuple[str, str], ...] = (
    ("problem", "Problem"),
    ("root-cause", "Root cause"),
    ("fix", "Fix"),
    ("verification", "Verification"),
)
SECTION_NAMES = tuple(name for name, _ in SECTIONS)

_TARGET_RE = re.compile(rf"^({forges.SPEC_PATTERN})?#([1-9][0-9]{{0,9}})$")
_INT_RE = re.compile(r"^[1-9][0-9]{0,9}$")
_NUMBER_RE = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
_SLUG_DROP = re.compile(r"[^a-z0-9]+")
#: slugs name files (tags/<slug>.html): a very long tag or project must not exceed a file name's limit
MAX_SLUG = 100


#: the word of the scaffold's placeholders: ``contributions new`` writes the title and the summary as
#: ``TODO: …``
PLACEHOLDER = "TODO"
#: a placeholder: ``TODO`` alone, or ``TODO`` then a colon or an ellipsis and the prompt (``TODO: the title
#: of sglang#1``, ``TODO …``); a title that merely starts with the letters (``TODOs considered harmful``)
#: is written
_PLACEHOLDER = re.compile(rf"^{PLACEHOLDER}[ \t]*(?:$|:|…|\.\.\.)")


def is_placeholder(text: str) -> bool:
    """Whether a title or summary is still the scaffold's placeholder."""
    return _PLACEHOLDER.match(text.strip()) is not None


#: raw HTML made only of comments (``<!-- … -->``): a prompt left by the scaffold, not written content
_HTML_COMMENTS = re.compile(r"\s*(?:<!--.*?-->\s*)*", re.DOTALL)


def is_comment_only_html(text: str) -> bool:
    """Whether raw HTML holds only comments: one rule for "is this section written", used by the
    section directives (on nodes) and by the source scan (on Markdown tokens)."""
    return _HTML_COMMENTS.fullmatch(text) is not None


def make_key(repo: str, pr: int | str) -> str:
    """The one way a key is built: the repository's name (without its owner), ``#``, the PR number."""
    return f"{repo.rpartition('/')[2]}#{str(pr).strip().lstrip('#')}"


def split_target(target: str) -> tuple[str, str | None]:
    """A ``{contrib}`` target → (key, section or None): ``CTranslate2#2103`` → (``CTranslate2#2103``,
    None); ``CTranslate2#2103#root-cause`` → (``CTranslate2#2103``, ``root-cause``)."""
    repo, _, rest = target.strip().partition("#")
    number, sep, section = rest.partition("#")
    return f"{repo}#{number}" if rest else repo, (section.strip().lower() if sep else None)


def object_name(key: str, section: str | None = None) -> str:
    """A write-up's (or one of its sections') name in ``objects.inv``: the key lowercased, so that other
    sites find it in any case (``ctranslate2#2103``, ``ctranslate2#2103#root-cause``)."""
    return key_lookup(key) + (f"#{section}" if section else "")


def label(key: str, section: str | None = None) -> str:
    """A write-up's (or one of its sections') ``{ref}`` label: the key lowercased with ``-`` for ``#``,
    as the page's file name (``ctranslate2-2103``, ``ctranslate2-2103-root-cause``)."""
    return key_lookup(key).replace("#", "-") + (f"-{section}" if section else "")


def label_key(name: str) -> str | None:
    """The key (lowercased) a ``{ref}`` label made by :func:`label` names, or None for another label."""
    section = next((f"-{section}" for section in SECTION_NAMES if name.endswith(f"-{section}")), "")
    repo, _, number = name[: len(name) - len(section)].rpartition("-")
    return f"{repo}#{number}" if repo and _INT_RE.match(number) else None


#: between a write-up's title and a section's heading, in link texts and ``objects.inv``
SECTION_SEPARATOR = " — "


def digest(value: object) -> str:
    """A short, stable digest of a value's ``repr`` (records are frozen dataclasses of plain values)."""
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


class OptionError(ValueError):
    """An option value that does not parse; the message is shown to the author as is."""


#: the ``expect`` values a metric accepts: ``hold`` marks a no-regression check (the figure must not get worse)
EXPECTS = ("hold",)
#: significant figures of the change in words: at most this many, and for an approximate value no more
#: than the author wrote (``~1.03e-1``: three, so two; ``~1e-1``: one)
FIGURES_EXACT = 2
#: a change under this many percent is "<0.01%": smaller shares say nothing a reader can use
_SMALLEST_PERCENT = Decimal("0.01")
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
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


_IN_REPO, _NUMBER, _SHA = (
    rf"(?P<repo>{forges.SPEC_PATTERN})",
    r"(?P<number>[1-9][0-9]{0,9})",
    r"(?P<sha>[0-9a-fA-F]{7,40})",
)
#: (kind, form) of the GitHub items of ``:evidence:``; without ``owner/repo``, in the page's repository
_EVIDENCE_GITHUB = tuple(
    (kind, re.compile(form, re.I))
    for kind, form in (
        ("pr", rf"^pr\s+{_NUMBER}$"),
        ("pr", rf"^(?:pr\s+)?{_IN_REPO}#{_NUMBER}$"),
        ("issue", rf"^issue\s+(?:{_IN_REPO}#)?{_NUMBER}$"),
        ("commit", rf"^commit\s+{_SHA}$"),
        ("commit", rf"^(?:commit\s+)?{_IN_REPO}@{_SHA}$"),
    )
)
_EVIDENCE_URL = re.compile(r"^(?:(?P<text>[^<>]*?)\s*<)?(?P<url>https?://[^\s<>/]+[^\s<>]*)(?(text)>)$")
#: the forms an ``:evidence:`` item takes, for messages (``#12`` is not one: in MyST's directive
#: options a ``#`` after a space starts a comment)
EVIDENCE_FORMS = (
    "'PR N', 'issue N' or 'commit SHA' (in the page's repository), 'owner/repo#N' (a pull request), "
    "'issue owner/repo#N', 'owner/repo@SHA', or an http(s) URL ('text <URL>' to give its text)"
)


def parse_evidence_item(value: str, page_repo: str | None) -> Evidence:
    """One ``:evidence:`` item: ``PR 12``, ``issue 34`` or ``commit 0123abc`` in ``page_repo`` (the
    page's own repository); ``owner/repo#N`` (a pull request), ``issue owner/repo#N`` or
    ``owner/repo@SHA`` in another; or an http(s) URL, shown without its scheme, or as ``text <URL>``."""
    item = " ".join(value.split())
    if not item:
        raise OptionError("an item is empty (in directive options ' #' starts a comment: write 'PR 12', not '#12')")
    kind, match = next(((kind, found) for kind, form in _EVIDENCE_GITHUB if (found := form.match(item))), ("", None))
    if match is None:
        url = _EVIDENCE_URL.match(item)
        if url is None:
            raise OptionError(f"evidence must be {EVIDENCE_FORMS}; got {item!r}")
        return Evidence("link", url["text"] or url["url"].split("://", 1)[1].rstrip("/"), url["url"])
    named = match.groupdict().get("repo") or ""
    repo = parse_repo(named) if named else page_repo
    if repo is None:
        raise OptionError(f"{item!r} needs 'owner/repo' outside a contribution page")
    if kind == "commit":
        sha = match["sha"].lower()
        return Evidence(kind, f"commit {named}@{sha[:7]}" if named else f"commit {sha[:7]}", commit_url(repo, sha))
    number = int(match["number"])
    if kind == "issue":
        return Evidence(kind, f"issue {named}#{number}", issue_url(repo, number))
    return Evidence(kind, f"PR {named}#{number}", pr_url(repo, number))


@dataclass(frozen=True)
class Metric:
    """One before/after figure. ``before``/``after`` are the values, ``before_text``/``after_text`` the
    text shown for them (as written, ``~`` included for an approximate value)."""

    label: str
    before: float
    after: float
    before_text: str
    after_text: str
    unit: str = ""
    better: str = "lower"
    #: the write-up's headline figure: the one listings, cards and the home page show
    headline: bool = False
    #: the value was written approximate (``~1.03e-1``): the change in words is no more precise than the
    #: values (an order of magnitude that holds across their written precision, or the direction alone)
    before_approximate: bool = False
    after_approximate: bool = False
    #: ``"hold"``: a no-regression check, read as "held" or "not held" rather than better or worse
    expect: str | None = None
    #: the Babel locale whose separators the numbers of the change in words take (the site's ``language``,
    #: :func:`~.i18n.number_locale`); None: English. The values as written stay as written.
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
        """Significant figures of the change in words: :data:`FIGURES_EXACT`, and no more than an
        approximate value was written with (the precision the author gave it)."""
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
        """The chart's scale, ``"log"`` or ``"linear"``; None when no chart is truthful.

        Bars start at zero (linear) or at a power of ten (log), so a chart is drawn only for values of
        zero or more, not both zero; log when both are positive and at least ten times apart, unless they
        count out of a whole (:attr:`whole`: a linear axis to it)."""
        if self.before < 0 or self.after < 0 or max(self.before, self.after) == 0:
            return None
        lo, hi = sorted((self.before, self.after))
        if self.whole is not None:
            return "linear"
        return "log" if lo > 0 and hi / lo >= 10 else "linear"  # hi / lo may be inf: still ≥ 10

    @property
    def whole(self) -> float | None:
        """The whole a count is out of: 140 for ``139`` with ``:unit: of 140`` (or ``/ 140``), where it is
        at least both values; None for any other unit. A count's axis ends there, not at the larger value."""
        found = _OF_WHOLE.fullmatch(self.unit.strip())
        whole = float(found[1]) if found else None
        if whole and math.isfinite(whole) and whole >= max(self.before, self.after):
            return whole
        return None

    @property
    def log_scale(self) -> bool:
        return self.chart == "log"

    def telling_change(self, _: Translate = untranslated) -> str:
        """The change in words where it adds to the values shown beside it, else "": a figure from or to
        0 (``up from 0`` says what ``0 → 139`` says), an unchanged one, and a no-regression check (its
        check mark says it) tell nothing more. What a listing, a card and a write-up's header show."""
        if not self.words or self.expect == "hold" or self.before == self.after or 0 in (self.before, self.after):
            return ""
        return self.change_words(_)

    def change_words(self, _: Translate = untranslated) -> str:
        """The change in words: ``≈54,000× lower``; under 2× as a percentage, ``≈25% lower``; ``≈1×10³²⁰×
        higher``; ``unchanged``; ``up from 0``, ``down to 0``; between negative values or across zero
        the difference, ``lower by 2``. A no-regression check reads ``held``, ``held, ≈1% higher`` or
        ``not held: ≈1% lower``. A change of approximate values is no more precise than they are:
        ``more than 10⁴× lower`` where every value within their written precision is that many times apart,
        else the direction alone, ``lower``. With :attr:`words` off: "" (a check ``held`` or ``not held``).
        ``_`` translates the words (:mod:`.i18n`), English by default. Never raises for finite values."""
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
                    if _round_sig(percent, figures) < _SMALLEST_PERCENT:
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
        """The range a value stands for: itself when exact; written approximate, half a unit of its last
        written figure either side (``~1.03e-1``: 0.1025 to 0.1035; ``~1e-1``: 0.05 to 0.15)."""
        number = Decimal(value)
        if not approximate or number == 0:
            return number, number
        half = Decimal(1).scaleb(number.copy_abs().adjusted() - written_figures(text) + 1) / 2
        return number - half, number + half

    def _approximate_ratio(self, _: Translate, lower: bool) -> str:
        """Two positive values, one or both approximate: ``more than 10ⁿ× lower`` with the largest n that
        every pair of values within their written precision exceeds; the direction alone below ten times."""
        lo_b, hi_b = self._bounds(self.before, self.before_text, self.before_approximate)
        lo_a, hi_a = self._bounds(self.after, self.after_text, self.after_approximate)
        least = lo_b / hi_a if lower else lo_a / hi_b  # the smallest ratio the written values allow
        if lo_b <= 0 or lo_a <= 0 or least < 10:
            return _("lower") if lower else _("higher")
        power = least.adjusted()  # floor(log10(least)): least ≥ 10**power
        ratio = "10" + str(power).translate(_SUPERSCRIPT) if power > 1 else "10"
        words = _("more than %(ratio)s× lower") if lower else _("more than %(ratio)s× higher")
        return words % {"ratio": ratio}

    def as_text(self, _: Translate = untranslated) -> str:
        """A one-line text equivalent, for screen readers and plain-text outputs."""
        unit = f" {self.unit}" if self.unit else ""
        better = _("lower is better") if self.better == "lower" else _("higher is better")
        if self.expect == "hold":
            better = _("a no-regression check, %(better)s") % {"better": better}
        if not self.change_words(_):
            return _("%(label)s: %(before)s before, %(after)s after (%(better)s)") % {
                "label": self.label,
                "before": self.before_text + unit,
                "after": self.after_text + unit,
                "better": better,
            }
        return _("%(label)s: %(before)s before, %(after)s after (%(change)s; %(better)s)") % {
            "label": self.label,
            "before": self.before_text + unit,
            "after": self.after_text + unit,
            "change": self.change_words(_),
            "better": better,
        }

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


#: the kinds of :class:`Inline` markup a summary keeps
INLINE_KINDS = ("text", "code", "emphasis", "strong", "link")


@dataclass(frozen=True)
class Inline:
    """One piece of a summary's inline markup: ``text`` or ``code`` (its ``text``), ``emphasis``,
    ``strong`` or ``link`` (to ``url``) around ``children``."""

    kind: str
    text: str = ""
    url: str = ""
    children: tuple[Inline, ...] = ()


def plain_text(markup: Iterable[Inline]) -> str:
    """The one plain form of inline markup, for what shows text only (the page's meta description, the
    JSON, the feed, card images, the command line): its text, spaces collapsed."""

    def text(item: Inline) -> str:
        return item.text if item.kind in ("text", "code") else "".join(map(text, item.children))

    return " ".join("".join(map(text, markup)).split())


@dataclass(frozen=True)
class ForgeFacts:
    """What the forge said about a write-up's pull request, as ``contributions sync`` wrote it into
    ``contributions.lock.json`` (:mod:`.lock`); the build reads only that file, never the network."""

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

    @property
    def merged_on(self) -> str | None:
        """The merge's date (``YYYY-MM-DD``, UTC) or None."""
        return self.merged_at[:10] if self.merged_at else None

    def as_json(self) -> dict[str, object]:
        return {
            "state": self.state,
            "title": self.title,
            "fetched_at": self.fetched_at,
            "merged_at": self.merged_at,
            "merge_commit": self.merge_commit,
            "additions": self.additions,
            "deletions": self.deletions,
            "changed_files": self.changed_files,
            "issues": [{"number": n, "title": t, "state": st} for n, t, st in self.issues],
            "first_release": (
                {"tag": self.first_release[0], "published_at": self.first_release[1]} if self.first_release else None
            ),
        }


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
    #: the forge's facts from the lock file, when it has an entry for the key
    forge: ForgeFacts | None = None
    #: the summary's inline markup (code, emphasis, links), as the page's parser read it; empty for a
    #: summary of plain text made without a parse
    summary_markup: tuple[Inline, ...] = ()

    #: the folders of the generated tag and project pages (``contributions_tags_path``, ``…_projects_path``)
    folders: tuple[str, str] = ("tags", "projects")
    #: the header's ``:key:`` (:func:`parse_key`), for a repository name that two owners share; "" for
    #: the key :func:`make_key` makes
    given_key: str = ""
    #: the impact sentence (``:impact:``: what the change means for the project's users) as plain text;
    #: "" when not given
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
        """What a listing, a link preview or an export says the write-up is about: its impact sentence,
        else its summary (plain text)."""
        return self.impact or self.summary

    @property
    def description_inline(self) -> tuple[Inline, ...]:
        """:attr:`description` as inline markup."""
        return self.impact_inline or self.summary_inline

    @property
    def repo_name(self) -> str:
        return self.repo.rpartition("/")[2]

    @cached_property
    def key(self) -> str:
        return self.given_key or make_key(self.repo, self.pr)

    @property
    def anchor(self) -> str:
        """The HTML id of the page's header block, and the object's anchor in ``objects.inv``."""
        return "contribution"

    def link_target(self, section: str | None = None) -> tuple[str, str] | None:
        """(anchor, link title) of the write-up, or of one of its sections; None when the page has no such
        section."""
        return next(((anchor, title) for name, anchor, title in self.targets() if name == section), None)

    def targets(self) -> Iterator[tuple[str | None, str, str]]:
        """(section or None, anchor, link title) of the write-up and of each of its sections: what
        ``objects.inv``, ``{ref}`` labels and ``{contrib}`` links point to."""
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

    @cached_property
    def tag_slugs(self) -> tuple[str, ...]:
        """The slug of each tag (computed once per record: every listing, header and page link asks)."""
        return tuple(slugify(tag) for tag in self.tags)

    @property
    def headline(self) -> Metric | None:
        """The figure marked ``:headline:``, else the first one, else None."""
        return next((m for m in self.metrics if m.headline), self.metrics[0] if self.metrics else None)

    @cached_property
    def project_page(self) -> str:
        """The docname of the generated page of this contribution's project."""
        return project_page(self.display_project, self.folders[1])

    def tag_page(self, tag: str) -> str:
        """The docname of the generated page of one of this contribution's tags."""
        slugs = dict(zip(self.tags, self.tag_slugs, strict=True))
        return f"{self.folders[0]}/{slugs[tag]}" if tag in slugs else tag_page(tag, self.folders[0])

    def __getstate__(self) -> dict[str, object]:
        """The fields only: what :func:`functools.cached_property` keeps is worked out again after a
        pickle (the environment's), never carried over from an older version's rules."""
        return {name: value for name, value in self.__dict__.items() if name not in _DERIVED}


#: what a :class:`Contribution` works out once and keeps (its ``cached_property`` names)
_DERIVED = frozenset({"key", "tag_slugs", "project_page"})


def tag_page(tag: str, folder: str = "tags") -> str:
    """The docname of the generated page of one tag."""
    return f"{folder}/{slugify(tag)}"


def project_page(project: str, folder: str = "projects") -> str:
    """The docname of the generated page of one project."""
    return f"{folder}/{slugify(project)}"


@dataclass(frozen=True)
class GeneratedPage:
    """A tag or project page: what it is (``kind`` is ``"tag"`` or ``"project"``), its name and records."""

    kind: str
    name: str
    records: tuple[Contribution, ...]


def generated_pages(
    records: Iterable[Contribution], tag_min: int = 1, project_min: int = 1
) -> dict[str, GeneratedPage]:
    """pagename → :class:`GeneratedPage` for every project that at least ``project_min`` of ``records``
    are of (``contributions_project_page_min``: a project of one write-up gets no page of one card, its
    links lead to its section of the ``projects`` listing) and every tag that at least ``tag_min`` of them
    have (``contributions_tag_page_min``: its links lead to the filtered list), sorted by pagename; each
    page's records newest first."""
    found: dict[str, tuple[str, str, list[Contribution]]] = {}
    for record in records:
        found.setdefault(record.project_page, ("project", record.display_project, []))[2].append(record)
        for tag in record.tags:
            found.setdefault(record.tag_page(tag), ("tag", tag, []))[2].append(record)
    return {
        pagename: GeneratedPage(kind, name, tuple(sort_records(listed, "date")))
        for pagename, (kind, name, listed) in sorted(found.items())
        if len(listed) >= (project_min if kind == "project" else tag_min)
    }


#: listing options: the layouts and sort orders a ``contributions`` listing accepts
LAYOUTS = ("table", "cards", "proof")
SORTS = ("date", "project", "title")


def is_of_project(record: Contribution, name: str) -> bool:
    """Whether ``name`` names the record's project: its display name or its repository's name, any case."""
    return key_lookup(name) in (key_lookup(record.display_project), key_lookup(record.repo_name))


def projects(records: Iterable[Contribution], first: Iterable[str] = ()) -> list[GeneratedPage]:
    """Every project of ``records`` (as its generated page groups them: one per slug, records newest
    first): the projects named in ``first`` in that order, then the others by name."""
    pages = [page for page in generated_pages(records).values() if page.kind == "project"]
    pages.sort(key=lambda page: (key_lookup(page.name), page.name))
    named = [page for name in first for page in pages if any(is_of_project(r, name) for r in page.records)]
    return list(dict.fromkeys([*named, *pages]))


def neighbours(ordered: list[Contribution], i: int) -> tuple[Contribution | None, Contribution | None]:
    """The records before and after ``ordered[i]`` (None at either end)."""
    return (ordered[i - 1] if i else None), (ordered[i + 1] if i + 1 < len(ordered) else None)


def select(records: Iterable[Contribution], options: Mapping[str, object]) -> list[Contribution]:
    """Filter, sort (stable, deterministic) and limit, as a listing's options say."""
    chosen = list(records)
    if "project" in options:
        chosen = [c for c in chosen if is_of_project(c, str(options["project"]))]
    if "tag" in options:
        slug = slugify(str(options["tag"]))
        chosen = [c for c in chosen if slug in c.tag_slugs]
    if "status" in options:
        chosen = [c for c in chosen if c.status == options["status"]]
    chosen = sort_records(chosen, str(options.get("sort", "date")))
    limit = options.get("limit")
    if isinstance(limit, int):
        chosen = chosen[:limit]
    return chosen


def sort_records(records: Iterable[Contribution], by: str = "date") -> list[Contribution]:
    """``date``: newest first, undated last; ``project``; ``title``. Ties fall back to the key."""
    ordered = sorted(records, key=lambda c: (key_lookup(c.key), c.docname))
    if by == "date":
        ordered.sort(key=lambda c: c.date or "", reverse=True)  # undated ("") sorts last
    elif by == "project":
        ordered.sort(key=lambda c: key_lookup(c.display_project))
    elif by == "title":
        ordered.sort(key=lambda c: c.title.casefold())
    return ordered


def pr_url(repo: str, number: int) -> str:
    """The page of pull (merge) request ``number`` on the repository's forge (:mod:`.forges`)."""
    return forges.pr_url(repo, number)


def issue_url(repo: str, number: int) -> str:
    return forges.issue_url(repo, number)


def commit_url(repo: str, sha: str) -> str:
    return forges.commit_url(repo, sha)


def slugify(text: str) -> str:
    """A URL- and class-safe slug: ``MLX/Metal`` → ``mlx-metal``, ``C++`` → ``c-plus-plus``,
    ``Übersetzung`` → ``ubersetzung``; never empty: text with no Latin letter or digit (``注意``) gets
    ``tag-`` and a digest of the text, so two such tags stay apart (see :func:`is_opaque_slug`)."""
    return _readable_slug(text) or "tag-" + hashlib.sha256(text.strip().encode()).hexdigest()[:8]


def _readable_slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()  # keep é as e
    slug = _SLUG_DROP.sub("-", ascii_text.lower().replace("+", " plus ")).strip("-")
    return slug[:MAX_SLUG].rstrip("-")


def is_opaque_slug(text: str) -> bool:
    """Whether ``text`` has no Latin letter or digit to make a slug of, so :func:`slugify` gives it a
    digest (``tag-1a2b3c4d``): an address a reader cannot read."""
    return not _readable_slug(text)


def key_lookup(key: str) -> str:
    """The form keys are compared in: keys match without regard to case."""
    return key.strip().lower()


#: a title longer than this is cut short by the listings, the cards and the browser's tab
MAX_TITLE = 120


#: how alike a name and a candidate must be to suggest it (:func:`difflib.get_close_matches`' ratio): one
#: slip in a three-letter name ("fxi", "fox" for "fix") is 0.67, two letters of three wrong ("foo") 0.33
CLOSE_ENOUGH = 0.6


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``name`` is most likely a typo of, by :func:`difflib.get_close_matches` (any case; the
    most alike, the first on a tie); None when ``name`` is a candidate or none is alike enough."""
    name = name.strip().lower()
    names = tuple(candidates)
    if name in names:  # the common case, a name spelt right, compares nothing
        return None
    found = difflib.get_close_matches(name, names, n=1, cutoff=CLOSE_ENOUGH)
    return found[0] if found else None


def suggest(name: str, candidates: Iterable[str]) -> str:
    """``": did you mean 'merged'?"`` for a near miss (:func:`closest`), else ""."""
    found = closest(name, candidates)
    return f": did you mean {found!r}?" if found is not None else ""


_KEY_FILE = re.compile(r"^(?P<name>.+)-(?P<number>[1-9][0-9]{0,9})$")


def file_name_key(docname: str) -> str:
    """A page's file name, lowercased and without folder or suffix: what :func:`label` gives for the key
    the page is named after (``contributions/numpy-27001`` → ``numpy-27001``)."""
    return docname.rpartition("/")[2].lower()


def named_after_key(docname: str, key: str) -> bool:
    """Whether the page's file name is its key's, as ``contributions new`` names it."""
    return file_name_key(docname) == label(key)


def names_another_pr(docname: str, repo: str, pr: int) -> bool:
    """Whether a write-up's file is named after its repository with another number (``numpy-27001.md``
    with ``:pr: 27010``): one of the two is a slip. A file named otherwise (``np-27010.md``, ``a-1.md``) is
    the author's choice, not a slip."""
    match = _KEY_FILE.match(file_name_key(docname))
    return match is not None and match["name"] == key_lookup(repo.rpartition("/")[2]) and int(match["number"]) != pr


def ownership(record: Contribution) -> tuple[bool, str]:
    """The order in which pages that declare one key claim it: the page named after the key first
    (``numpy-27001.md`` for ``numpy#27001``), then by docname."""
    return not named_after_key(record.docname, record.key), record.docname


def repo_of_url(value: str) -> str:
    """A repository's address as its spec: ``https://github.com/owner/name`` (a tab of it, ``.git``, a
    trailing ``/``) → ``owner/name``; ``https://gitlab.com/group/sub/name/-/tree/main`` →
    ``gitlab.com/group/sub/name``; ``https://codeberg.org/owner/name`` → ``codeberg.org/owner/name``.
    Anything else is returned as it is."""
    match = re.match(
        r"^(?:https?://)?(?:www\.)?(?P<host>github\.com|gitlab\.com|codeberg\.org)/(?P<path>[^?#]*)", value.strip()
    )
    if match is None:
        return value
    host, parts = match["host"].lower(), [part for part in match["path"].split("/") if part]
    # GitLab: every group up to the "-" that starts a tab; GitHub and Codeberg: owner and name
    end = (parts.index("-") if "-" in parts else len(parts)) if host == "gitlab.com" else 2
    parts = parts[:end]
    if parts:
        parts[-1] = parts[-1].removesuffix(".git")
    path = "/".join(parts)
    return path if host == "github.com" else f"{host}/{path}"


def parse_repo(value: str | None) -> str:
    """A ``:repo:`` value: ``owner/name`` (GitHub), ``gitlab.com/group/…/name`` or ``codeberg.org/owner/name``,
    or the repository's address (https://github.com/owner/name …), read as its spec."""
    try:
        return forges.parse_spec(repo_of_url(value or ""))
    except forges.RepoError as error:
        raise OptionError(str(error)) from None


def parse_positive_int(value: str | None, name: str) -> int:
    value = (value or "").strip().lstrip("#")
    if not _INT_RE.match(value):
        raise OptionError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def parse_int_list(value: str | None, name: str) -> tuple[int, ...]:
    items = [item.strip().lstrip("#") for item in (value or "").split(",")]
    if not all(_INT_RE.match(item) for item in items):
        raise OptionError(f"{name} must be one or more comma-separated positive integers, got {value!r}")
    return tuple(int(item) for item in items)


def _unquoted(item: str) -> str:
    item = " ".join(item.split())
    if len(item) >= 2 and item[0] == item[-1] and item[0] in "\"'":
        item = " ".join(item[1:-1].split())
    return item


def tag_items(value: str) -> list[str]:
    """The tags of a ``:tags:`` value as people write them: a comma-separated list, or the same in YAML's
    brackets (``[caching, memory]``, items optionally quoted); each item's spaces collapsed."""
    text = value.strip()
    if text.startswith("[") and text.endswith("]"):
        return [_unquoted(item) for item in text[1:-1].split(",")]
    return [" ".join(tag.split()) for tag in text.split(",")]


def comma_form(text: str) -> str:
    """What to write for tags given as hashtags or words (``#a #b``, ``caching memory gpu``, ``[x, y]``):
    ``a, b``. Commas, where there are any, separate the tags; else each word is one."""
    text = text.strip().removeprefix("[").removesuffix("]")
    items = text.split(",") if "," in text else text.split()
    return ", ".join(tag for item in items if (tag := _unquoted(item).lstrip("#").strip()))


_KEY_RE = re.compile(r"^(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)#(?P<number>[0-9]+)$")


def parse_key(value: str | None, pr: int) -> str:
    """A ``:key:`` value: ``NAME#NUMBER``, the number the pull request's (``ROCm-sglang#1`` beside
    ``sglang#1`` of another owner); letters, digits, ``.``, ``_`` and ``-`` in the name."""
    text = (value or "").strip()
    match = _KEY_RE.match(text)
    if match is None or "#" in match["name"]:
        raise OptionError(
            f"key must be NAME#{pr} (letters, digits, '.', '_' and '-', then '#' and the pull request's number, "
            f"such as 'owner-name#{pr}'), got {text!r}"
        )
    if int(match["number"]) != pr:
        raise OptionError(f"key must end in the pull request's number, #{pr}: write ':key: {match['name']}#{pr}'")
    return text


def parse_tags(value: str | None) -> tuple[str, ...]:
    if ";" in (value or ""):
        written = ", ".join(" ".join(tag.split()) for tag in re.split("[,;]", value or "") if tag.strip())
        raise OptionError(f"tags are separated by commas, not ';': write ':tags: {written}'")
    tags = tuple(tag_items(value or ""))
    if not all(tags):
        raise OptionError(f"tags must be a comma-separated list without empty items, got {value!r}")
    seen: dict[str, str] = {}
    for tag in tags:
        if slugify(tag) in seen:
            raise OptionError(f"tag {tag!r} repeats {seen[slugify(tag)]!r}")
        seen[slugify(tag)] = tag
    return tags


def parse_status(value: str | None) -> str:
    written = (value or "").strip()
    value = written.lower()
    if value not in STATUSES:
        raise OptionError(f"status must be one of {', '.join(STATUSES)}; got {written!r}{suggest(value, STATUSES)}")
    return value


def parse_date(value: str | None) -> str:
    value = (value or "").strip()
    try:
        if not re.match(r"^\d{4}-\d{2}-\d{2}$", value):
            raise ValueError
        _date.fromisoformat(value)
    except ValueError:
        raise OptionError(f"date must be an ISO date YYYY-MM-DD, got {value!r}") from None
    return value


def parse_text(value: str | None, name: str) -> str:
    text = " ".join((value or "").split())
    if not text:
        raise OptionError(f"{name} must not be empty")
    return text


def parse_number(value: str | None, name: str) -> tuple[float, str]:
    """A finite number (scientific notation allowed) and the text it was written as."""
    text = (value or "").strip()
    if not text:
        raise OptionError(f"{name} is missing (a number such as 0.5 or 1.03e-1)")
    if not _NUMBER_RE.match(text) or not math.isfinite(float(text)):
        raise OptionError(f"{name} must be a number such as 0.5 or 1.03e-1, got {text!r}")
    number = float(text)
    if not _keeps_digits(text, number):
        raise OptionError(f"{name} is too close to zero to keep the digits written, got {text!r}")
    return number, text


def _keeps_digits(text: str, number: float) -> bool:
    """Whether the binary value shows the written value to its significant digits (at most 15, what a
    double holds): false only far below 1e-308, where doubles lose digits (``1e-400`` is 0, ``3e-324`` is
    4.9e-324); ``1e-320`` keeps its one digit."""
    written = Decimal(text)
    if written == 0:
        return True
    figures = min(len(written.as_tuple().digits), 15)
    with localcontext() as context:
        context.prec = 40
        return number != 0 and _round_sig(abs(Decimal(number)), figures) == _round_sig(abs(written), figures)


#: the marks of an approximate value: ``~1.03e-1`` or ``≈1.03e-1``
APPROXIMATE_MARKS = ("~", "≈")


def parse_value(value: str | None, name: str, unit: str = "", *, hint_unit: bool = True) -> tuple[float, str, bool]:
    """A metric's value: a number as :func:`parse_number` reads it, or an approximate one written
    ``~1.03e-1``; returns (value, the text shown, approximate). A value that does not parse is refused
    with what to write instead when it is a number dressed up (:func:`value_hint`); ``unit`` is the
    figure's ``:unit:``."""
    text = (value or "").strip()
    mark = text[:1] if text[:1] in APPROXIMATE_MARKS else ""
    number = text[len(mark) :].strip()
    if mark and not number:
        raise OptionError(f"{name} must be a number such as 0.5 or 1.03e-1, got {text!r}")
    try:
        parsed, shown = parse_number(number, name)
    except OptionError as error:
        message = str(error).replace(repr(number), repr(text))
        hint = value_hint(text, unit, hint_unit=hint_unit)
        raise OptionError(f"{message}: {hint}" if hint else message) from None
    return parsed, mark + shown, bool(mark)


#: a value written with its unit (``41.2 s``, ``12%``, ``1,200 ms``, ``3 tokens per s``): a number,
#: then words that start with no digit (the first with no separator either)
_WITH_UNIT = re.compile(
    r"^(?P<number>[+-]?[0-9][0-9.,_ ]*?(?:[eE][+-]?[0-9]+)?)\s*(?P<unit>[^\s0-9.,_+-]\S*(?:\s+[^\s0-9]\S*)*)$"
)
_EXPONENT = re.compile(r"^[eE][+-]?[0-9]")
#: digits in groups of three (``1,000``, ``12_345.6``, ``1 000``)
_GROUPED = re.compile(r"^[+-]?[0-9]{1,3}([,_ ])[0-9]{3}(?:\1[0-9]{3})*(?:\.[0-9]+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?[0-9]+,[0-9]+$")


def split_unit(text: str) -> tuple[str, str]:
    """A value written with its unit → (the number as written, the unit): ``41.2 s`` → (``41.2``,
    ``s``), ``12%`` → (``12``, ``%``); any other text → (the text, "")."""
    match = _WITH_UNIT.match(text.strip())
    if match is None or _EXPONENT.match(match["unit"]):
        return text.strip(), ""
    return match["number"].strip(), match["unit"].strip()


def value_hint(text: str, unit: str = "", *, hint_unit: bool = True) -> str:
    """What to write instead of a value that is a number dressed up, or "" when it is not one: ``41.2 s``
    → "write 41.2 and ':unit: s'"; ``1,000`` → "write 1000, without thousands separators"; ``0,5`` →
    "write 0.5, with a point before the decimals". ``unit`` is the figure's ``:unit:``; ``hint_unit``
    False when the unit is not one to suggest (before and after name different ones)."""
    mark = text[:1] if text[:1] in APPROXIMATE_MARKS else ""
    number, written_unit = split_unit(text[len(mark) :])
    plain, how = number, ""
    if _GROUPED.match(number):
        plain, how = re.sub("[,_ ]", "", number), "without thousands separators"
    elif _DECIMAL_COMMA.match(number):
        plain, how = number.replace(",", "."), "with a point before the decimals"
    if not _NUMBER_RE.match(plain) or (written_unit and not hint_unit):
        return ""
    plain = mark + plain
    if not written_unit:
        return f"write {plain}, {how}" if how else ""
    if unit and written_unit != unit:
        return f"write it in {unit} (its ':unit:') as a number alone"
    if unit:
        return f"write {plain} alone: the unit is given as ':unit: {unit}'"
    return f"write {plain} and ':unit: {written_unit}'"


def parse_values(
    before: str | None, after: str | None, unit: str = ""
) -> tuple[tuple[float, str, bool], tuple[float, str, bool]]:
    """A figure's two values (:func:`parse_value`), both reported at once when they do not parse; values
    written with two different units (``2 s`` and ``900 ms``) are refused: a figure has one unit."""
    units = [split_unit((text or "").strip().lstrip("".join(APPROXIMATE_MARKS)))[1] for text in (before, after)]
    differ = not unit and all(units) and units[0] != units[1]
    errors: list[str] = []
    parsed: list[tuple[float, str, bool]] = []
    for name, text in (("before", before), ("after", after)):
        try:
            parsed.append(parse_value(text, name, unit, hint_unit=not differ))
        except OptionError as error:
            errors.append(str(error))
    if differ:
        errors.append(
            f"before and after are in different units, {units[0]!r} and {units[1]!r}: write both in one unit, "
            "as numbers, and that unit once as ':unit:'"
        )
    if errors:
        raise OptionError("; ".join(errors))
    return parsed[0], parsed[1]


def parse_expect(value: str | None) -> str | None:
    """``hold``: the figure is a no-regression check."""
    if value is None:
        return None
    text = value.strip().lower()
    if text not in EXPECTS:
        raise OptionError(
            f"expect must be {' or '.join(map(repr, EXPECTS))} (a no-regression check), got {value.strip()!r}"
        )
    return text


def parse_change(value: str | None) -> bool:
    """``:change: off``: the figure shows no change in words (False); absent, ``on`` (True)."""
    if value is None:
        return True
    text = value.strip().lower()
    if text not in ("on", "off"):
        raise OptionError(f"change must be 'on' or 'off' (no change in words), got {value.strip()!r}")
    return text == "on"


def parse_better(value: str | None) -> str:
    written = (value or "lower").strip()
    value = written.lower()
    if value not in ("lower", "higher"):
        raise OptionError(f"better must be 'lower' or 'higher', got {written!r}{suggest(value, ('lower', 'higher'))}")
    return value


def parse_target(value: str) -> tuple[str | None, int]:
    """``owner/repo#N`` → (repo, N); ``#N`` → (None, N)."""
    match = _TARGET_RE.match(value.strip())
    if not match:
        raise OptionError(f"expected 'owner/repo#N' or '#N', got {value!r}")
    spec, number = match.groups()
    return (parse_repo(spec) if spec else None), int(number)


def _round_sig(value: Decimal, figures: int) -> Decimal:
    """``value`` (not negative) rounded half up to ``figures`` significant figures."""
    if value == 0:
        return value
    return value.quantize(Decimal(1).scaleb(value.adjusted() - figures + 1), rounding=ROUND_HALF_UP)


def format_number(number: Decimal, locale: str | None = None) -> str:
    """A number not below zero in plain digits, with the thousands separators and decimal sign of
    ``locale`` (a Babel locale name: ``de`` gives ``54.000`` and ``2,5``); None: English (``54,000``,
    ``2.5``). Every digit of ``number`` is kept."""
    if locale is not None:
        return format_decimal(number, locale=locale, decimal_quantization=False)
    if number == number.to_integral_value():
        return f"{int(number):,}"
    return _strip_zeros(format(number, "f"))


def format_sig(value: Decimal | float, figures: int, locale: str | None = None) -> str:
    """``value`` to ``figures`` significant figures, in plain digits with thousands separators from
    1e-4 to under 1e7 (``54,000``, ``2.5``, ``0.012``), beyond that as ``1.2×10⁸`` or ``1×10⁻³²⁰``; the
    separators and decimal sign of ``locale`` (:func:`format_number`)."""
    with localcontext() as context:
        context.prec = 40
        number = Decimal(value)
        sign = "-" if number < 0 else ""
        rounded = _round_sig(abs(number), figures)
        exponent = rounded.adjusted()
        if rounded == 0 or -4 <= exponent < 7:
            return sign + format_number(rounded, locale)
        mantissa = format_number(rounded.scaleb(-exponent), locale)
        return f"{sign}{mantissa}×10{str(exponent).translate(_SUPERSCRIPT)}"


def _strip_zeros(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def written_figures(text: str) -> int:
    """The significant figures a value was written with: ``~1.03e-1`` three, ``~1e-1`` one, ``200`` one
    (trailing zeros of a whole number without a point say nothing), ``2.00`` three."""
    number = text.lstrip("".join(APPROXIMATE_MARKS)).strip().lstrip("+-")
    if not _NUMBER_RE.match(number):  # not a value as parse_number reads it: no precision said
        return FIGURES_EXACT
    digits = "".join(map(str, Decimal(number).as_tuple().digits)).lstrip("0")
    if not any(mark in number for mark in ".eE"):
        digits = digits.rstrip("0")
    return max(1, len(digits))


def format_difference(value: Decimal | float, figures: int | None = None, locale: str | None = None) -> str:
    """A difference between two values: with ``figures`` (a value is approximate), to that many
    significant figures; else a whole number exactly (``165``, ``1,234,567``) below 1e15, anything else to
    three significant figures; the separators of ``locale`` (:func:`format_number`)."""
    number = Decimal(value)
    if figures is not None:
        return format_sig(number, figures, locale)
    if number == number.to_integral_value() and abs(number) < Decimal("1e15"):
        return ("-" if number < 0 else "") + format_number(abs(number), locale)
    return format_sig(number, 3, locale)
