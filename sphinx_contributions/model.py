"""The collected data: small frozen records, and the pure functions that parse options into them.

Nothing here touches Sphinx; the directives call these parsers and turn a :class:`OptionError` into a
warning with the page's location.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date as _date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

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

_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?"
_REPO = r"[A-Za-z0-9_.-]{1,100}"
_REPO_RE = re.compile(rf"^({_OWNER})/({_REPO})$")
_TARGET_RE = re.compile(rf"^(?:({_OWNER})/({_REPO}))?#([1-9][0-9]{{0,9}})$")
_INT_RE = re.compile(r"^[1-9][0-9]{0,9}$")
_NUMBER_RE = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
_SLUG_DROP = re.compile(r"[^a-z0-9]+")
#: slugs name files (tags/<slug>.html): a very long tag or project must not exceed a file name's limit
MAX_SLUG = 100


#: a title or summary that starts with this is not written yet (``contributions new`` writes them so)
PLACEHOLDER = "TODO"


def is_placeholder(text: str) -> bool:
    return text.lstrip().startswith(PLACEHOLDER)


#: raw HTML made only of comments (``<!-- … -->``): a prompt left by the scaffold, not written content
_HTML_COMMENTS = re.compile(r"\s*(?:<!--.*?-->\s*)*", re.DOTALL)


def is_comment_only_html(text: str) -> bool:
    """Whether raw HTML holds only comments: one rule for "is this section written", used by the
    section directives (on nodes) and by the source scan (on Markdown tokens)."""
    return _HTML_COMMENTS.fullmatch(text) is not None


def make_key(repo: str, pr: int | str) -> str:
    """The one way a key is built: the repository's name (without its owner), ``#``, the PR number."""
    return f"{repo.rpartition('/')[2]}#{str(pr).strip().lstrip('#')}"


def digest(value: object) -> str:
    """A short, stable digest of a value's ``repr`` (records are frozen dataclasses of plain values)."""
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


class OptionError(ValueError):
    """An option value that does not parse; the message is shown to the author as is."""


@dataclass(frozen=True)
class Metric:
    """One before/after figure."""

    label: str
    before: float
    after: float
    before_text: str
    after_text: str
    unit: str = ""
    better: str = "lower"

    @property
    def improved(self) -> bool | None:
        """True when the change goes the ``better`` way, None when there is no change."""
        if self.after == self.before:
            return None
        return (self.after < self.before) == (self.better == "lower")

    @property
    def log_scale(self) -> bool:
        """Both values positive and at least one order of magnitude apart."""
        lo, hi = sorted((abs(self.before), abs(self.after)))
        return self.before > 0 and self.after > 0 and hi / lo >= 10

    def change_words(self, _: Translate = untranslated) -> str:
        """The change in words: ``≈54,000× lower``, ``≈8× higher``, ``≈25% lower`` (under 2×),
        ``unchanged``, ``up from 0``; ``_`` translates the words (:mod:`.i18n`), English by default."""
        before, after = self.before, self.after
        if before == after:
            return _("unchanged")
        lower = after < before
        if before > 0 and after > 0:
            ratio = max(before, after) / min(before, after)
            if ratio < 2:  # "≈1.3× lower" reads worse than a percentage
                percent = f"{abs(after - before) / before * 100:.2g}"
                return (_("≈%(percent)s%% lower") if lower else _("≈%(percent)s%% higher")) % {"percent": percent}
            return (_("≈%(ratio)s× lower") if lower else _("≈%(ratio)s× higher")) % {"ratio": format_ratio(ratio)}
        if before == 0:
            return _("up from 0") if after > 0 else _("down from 0")
        if after == 0:
            return _("down to 0") if before > 0 else _("up to 0")
        amount = format_number(abs(after - before))
        return (_("lower by %(amount)s") if lower else _("higher by %(amount)s")) % {"amount": amount}

    def as_text(self, _: Translate = untranslated) -> str:
        """A one-line text equivalent, for screen readers and plain-text outputs."""
        unit = f" {self.unit}" if self.unit else ""
        return _("%(label)s: %(before)s before, %(after)s after (%(change)s; %(better)s)") % {
            "label": self.label,
            "before": self.before_text + unit,
            "after": self.after_text + unit,
            "change": self.change_words(_),
            "better": _("lower is better") if self.better == "lower" else _("higher is better"),
        }

    def as_json(self) -> dict[str, object]:
        return {
            "label": self.label,
            "before": self.before,
            "after": self.after,
            "unit": self.unit or None,
            "better": self.better,
            "change": self.change_words(),
        }


@dataclass(frozen=True)
class Contribution:
    """One upstream pull request, as declared by a page's ``contribution`` directive."""

    docname: str
    title: str
    repo: str
    pr: int
    summary: str
    issues: tuple[int, ...] = ()
    status: str | None = None
    tags: tuple[str, ...] = ()
    project: str = ""
    date: str | None = None
    metrics: tuple[Metric, ...] = ()
    sections: tuple[str, ...] = field(default=())
    lineno: int = 0

    @property
    def repo_name(self) -> str:
        return self.repo.split("/", 1)[1]

    @property
    def key(self) -> str:
        return make_key(self.repo, self.pr)

    @property
    def anchor(self) -> str:
        """The HTML id of the page's header block, and the object's anchor in ``objects.inv``."""
        return "contribution"

    @property
    def display_project(self) -> str:
        return self.project or self.repo_name

    @property
    def repo_url(self) -> str:
        return f"https://github.com/{self.repo}"

    @property
    def pr_url(self) -> str:
        return pr_url(self.repo, self.pr)

    @property
    def issue_urls(self) -> tuple[str, ...]:
        return tuple(issue_url(self.repo, n) for n in self.issues)

    @property
    def tag_slugs(self) -> tuple[str, ...]:
        return tuple(slugify(tag) for tag in self.tags)

    @property
    def project_page(self) -> str:
        """The docname of the generated page of this contribution's project."""
        return project_page(self.display_project)


def tag_page(tag: str) -> str:
    """The docname of the generated page of one tag."""
    return f"tags/{slugify(tag)}"


def project_page(project: str) -> str:
    """The docname of the generated page of one project."""
    return f"projects/{slugify(project)}"


@dataclass(frozen=True)
class GeneratedPage:
    """A tag or project page: what it is (``kind`` is ``"tag"`` or ``"project"``), its name and records."""

    kind: str
    name: str
    records: tuple[Contribution, ...]


def generated_pages(records: Iterable[Contribution]) -> dict[str, GeneratedPage]:
    """pagename → :class:`GeneratedPage` for every tag and every project of ``records``, sorted by
    pagename; each page's records newest first."""
    found: dict[str, tuple[str, str, list[Contribution]]] = {}
    for record in records:
        found.setdefault(record.project_page, ("project", record.display_project, []))[2].append(record)
        for tag in record.tags:
            found.setdefault(tag_page(tag), ("tag", tag, []))[2].append(record)
    return {
        pagename: GeneratedPage(kind, name, tuple(sort_records(listed, "date")))
        for pagename, (kind, name, listed) in sorted(found.items())
    }


#: listing options: the layouts and sort orders a ``contributions`` listing accepts
LAYOUTS = ("table", "cards")
SORTS = ("date", "project", "title")


def select(records: Iterable[Contribution], options: Mapping[str, object]) -> list[Contribution]:
    """Filter, sort (stable, deterministic) and limit, as a listing's options say."""
    chosen = list(records)
    if "project" in options:
        wanted = key_lookup(str(options["project"]))
        chosen = [c for c in chosen if wanted in (key_lookup(c.display_project), key_lookup(c.repo_name))]
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
    return f"https://github.com/{repo}/pull/{number}"


def issue_url(repo: str, number: int) -> str:
    return f"https://github.com/{repo}/issues/{number}"


def slugify(text: str) -> str:
    """A URL- and class-safe slug: ``MLX/Metal`` → ``mlx-metal``, ``C++`` → ``c-plus-plus``,
    ``Übersetzung`` → ``ubersetzung``; never empty: text with no Latin letter or digit (``注意``) gets
    ``tag-`` and a digest of the text, so two such tags stay apart."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()  # keep é as e
    slug = _SLUG_DROP.sub("-", ascii_text.lower().replace("+", " plus ")).strip("-")
    return slug[:MAX_SLUG].rstrip("-") or "tag-" + hashlib.sha256(text.strip().encode()).hexdigest()[:8]


def key_lookup(key: str) -> str:
    """The form keys are compared in: keys match without regard to case."""
    return key.strip().lower()


def parse_repo(value: str | None) -> str:
    value = (value or "").strip()
    if not _REPO_RE.match(value) or value.split("/")[1] in {".", ".."}:
        raise OptionError(f"repo must be a GitHub 'owner/name', got {value!r}")
    return value


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


def parse_tags(value: str | None) -> tuple[str, ...]:
    tags = tuple(" ".join(tag.split()) for tag in (value or "").split(","))
    if not all(tags):
        raise OptionError(f"tags must be a comma-separated list without empty items, got {value!r}")
    seen: dict[str, str] = {}
    for tag in tags:
        if slugify(tag) in seen:
            raise OptionError(f"tag {tag!r} repeats {seen[slugify(tag)]!r}")
        seen[slugify(tag)] = tag
    return tags


def parse_status(value: str | None) -> str:
    value = (value or "").strip().lower()
    if value not in STATUSES:
        raise OptionError(f"status must be one of {', '.join(STATUSES)}; got {value!r}")
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
    return float(text), text


def parse_better(value: str | None) -> str:
    value = (value or "lower").strip().lower()
    if value not in ("lower", "higher"):
        raise OptionError(f"better must be 'lower' or 'higher', got {value!r}")
    return value


def parse_target(value: str) -> tuple[str | None, int]:
    """``owner/repo#N`` → (repo, N); ``#N`` → (None, N)."""
    match = _TARGET_RE.match(value.strip())
    if not match:
        raise OptionError(f"expected 'owner/repo#N' or '#N', got {value!r}")
    owner, name, number = match.groups()
    return (f"{owner}/{name}" if owner else None), int(number)


def format_number(value: float) -> str:
    """A compact, readable number: ``139``, ``0.5``, ``1.9e-06``."""
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.3g}"


def format_ratio(ratio: float) -> str:
    """Two significant figures with thousands separators: 53927 → ``54,000``; 2.46 → ``2.5``."""
    if ratio >= 10:
        digits = math.floor(math.log10(ratio))
        rounded = round(ratio, 1 - digits)
        return f"{int(rounded):,}"
    return f"{ratio:.1f}".rstrip("0").rstrip(".")
