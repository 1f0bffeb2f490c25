"""The option parsers: a directive's option text → a record's values, or an :class:`OptionError` whose message
the author is shown; and the rules of what counts as written. Nothing here touches Sphinx."""

from __future__ import annotations

import math
import re
from datetime import date as _date
from decimal import Decimal, localcontext
from typing import NamedTuple

from . import forges
from .formatting import APPROXIMATE_MARKS, NUMBER_RE, round_sig
from .keys import POSITIVE_INT, commit_url, issue_url, pr_url, repo_of_url, slugify
from .records import Evidence
from .warnings import suggest

#: the states a contribution may declare; absent means "not stated"
STATUSES = ("merged", "open", "closed", "draft")


_TARGET_RE = re.compile(rf"^({forges.SPEC_PATTERN})?#([1-9][0-9]{{0,9}})$")


#: the word of the scaffold's placeholders (``contributions new`` writes the title and summary ``TODO: …``)
PLACEHOLDER = "TODO"
#: a placeholder: ``TODO`` alone or then a colon or an ellipsis (not ``TODOs considered harmful``)
_PLACEHOLDER = re.compile(rf"^{PLACEHOLDER}[ \t]*(?:$|:|…|\.\.\.)")


def is_placeholder(text: str) -> bool:
    """Whether a title or summary is still the scaffold's placeholder."""
    return _PLACEHOLDER.match(text.strip()) is not None


#: raw HTML made only of comments (``<!-- … -->``): a prompt left by the scaffold, not written content
_HTML_COMMENTS = re.compile(r"\s*(?:<!--.*?-->\s*)*", re.DOTALL)


def is_comment_only_html(text: str) -> bool:
    """Whether raw HTML holds only comments: the one rule for "is this section written"."""
    return _HTML_COMMENTS.fullmatch(text) is not None


class OptionDoc(NamedTuple):
    """One option of a directive, as the manual's reference shows it (each directive's ``option_doc``)."""

    #: what the value is: ``text``, ``positive integer``, ``number``, ``one of …``, ``flag (no value)``
    type: str
    default: str
    #: what it does, in a sentence or two (MyST Markdown)
    meaning: str


class OptionError(ValueError):
    """An option value that does not parse; the message is shown to the author as is."""


#: the ``expect`` values a metric accepts: ``hold`` marks a no-regression check (the figure must not get worse)
EXPECTS = ("hold",)


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
#: the forms an ``:evidence:`` item takes, for messages (``#12`` is not one: MyST reads it as a comment)
EVIDENCE_FORMS = (
    "'PR N', 'issue N' or 'commit SHA' (in the page's repository), 'owner/repo#N' (a pull request), "
    "'issue owner/repo#N', 'owner/repo@SHA', or an http(s) URL ('text <URL>' to give its text)"
)


def parse_evidence_item(value: str, page_repo: str | None) -> Evidence:
    """One ``:evidence:`` item (:data:`EVIDENCE_FORMS`; without ``owner/repo``, in ``page_repo``)."""
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


#: a title longer than this is cut short by the listings, the cards and the browser's tab
MAX_TITLE = 120


def parse_repo(value: str | None) -> str:
    """A ``:repo:`` value: a forge's spec (``owner/name``, ``gitlab.com/group/…/name`` …) or its address."""
    try:
        return forges.parse_spec(repo_of_url(value or ""))
    except forges.RepoError as error:
        raise OptionError(str(error)) from None


def parse_positive_int(value: str | None, name: str) -> int:
    value = (value or "").strip().lstrip("#")
    if not POSITIVE_INT.match(value):
        raise OptionError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def parse_int_list(value: str | None, name: str) -> tuple[int, ...]:
    items = [item.strip().lstrip("#") for item in (value or "").split(",")]
    if not all(POSITIVE_INT.match(item) for item in items):
        raise OptionError(f"{name} must be one or more comma-separated positive integers, got {value!r}")
    return tuple(int(item) for item in items)


def _unquoted(item: str) -> str:
    item = " ".join(item.split())
    if len(item) >= 2 and item[0] == item[-1] and item[0] in "\"'":
        item = " ".join(item[1:-1].split())
    return item


def tag_items(value: str) -> list[str]:
    """The tags of a ``:tags:`` value: comma-separated, or the same in YAML's brackets, items maybe quoted."""
    text = value.strip()
    if text.startswith("[") and text.endswith("]"):
        return [_unquoted(item) for item in text[1:-1].split(",")]
    return [" ".join(tag.split()) for tag in text.split(",")]


def comma_form(text: str) -> str:
    """What to write for tags given as hashtags or words (``#a #b``, ``a b c``, ``[x, y]``): ``a, b``."""
    text = text.strip().removeprefix("[").removesuffix("]")
    items = text.split(",") if "," in text else text.split()
    return ", ".join(tag for item in items if (tag := _unquoted(item).lstrip("#").strip()))


_KEY_RE = re.compile(r"^(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)#(?P<number>[0-9]+)$")


def parse_key(value: str | None, pr: int) -> str:
    """A ``:key:`` value: ``NAME#NUMBER``, the number the pull request's (``ROCm-sglang#1``)."""
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
    if not re.match(r"^\d{4}-\d{2}-\d{2}$", value):
        raise OptionError(f"date must be an ISO date YYYY-MM-DD, got {value!r}")
    try:
        _date.fromisoformat(value)
    except ValueError as error:  # in the form, but no such day: "day is out of range for month"
        raise OptionError(f"date {value!r} does not exist ({error})") from None
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
    if not NUMBER_RE.match(text) or not math.isfinite(float(text)):
        raise OptionError(f"{name} must be a number such as 0.5 or 1.03e-1, got {text!r}")
    number = float(text)
    if not _keeps_digits(text, number):
        raise OptionError(f"{name} is too close to zero to keep the digits written, got {text!r}")
    return number, text


def _keeps_digits(text: str, number: float) -> bool:
    """Whether the binary value keeps the written value's significant digits (at most 15): false only far
    below 1e-308, where doubles lose digits (``1e-400`` is 0)."""
    written = Decimal(text)
    if written == 0:
        return True
    figures = min(len(written.as_tuple().digits), 15)
    with localcontext() as context:
        context.prec = 40
        return number != 0 and round_sig(abs(Decimal(number)), figures) == round_sig(abs(written), figures)


def parse_value(value: str | None, name: str, unit: str = "", *, hint_unit: bool = True) -> tuple[float, str, bool]:
    """A metric's value, exact or approximate (``~1.03e-1``): (value, the text shown, approximate)."""
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


#: a value written with its unit (``41.2 s``, ``12%``, ``1,200 ms``): a number, then words
_WITH_UNIT = re.compile(
    r"^(?P<number>[+-]?[0-9][0-9.,_ ]*?(?:[eE][+-]?[0-9]+)?)\s*(?P<unit>[^\s0-9.,_+-]\S*(?:\s+[^\s0-9]\S*)*)$"
)
_EXPONENT = re.compile(r"^[eE][+-]?[0-9]")
#: digits in groups of three (``1,000``, ``12_345.6``, ``1 000``)
_GROUPED = re.compile(r"^[+-]?[0-9]{1,3}([,_ ])[0-9]{3}(?:\1[0-9]{3})*(?:\.[0-9]+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?[0-9]+,[0-9]+$")


def split_unit(text: str) -> tuple[str, str]:
    """A value written with its unit → (the number as written, the unit): ``41.2 s`` → (``41.2``, ``s``)."""
    match = _WITH_UNIT.match(text.strip())
    if match is None or _EXPONENT.match(match["unit"]):
        return text.strip(), ""
    return match["number"].strip(), match["unit"].strip()


def value_hint(text: str, unit: str = "", *, hint_unit: bool = True) -> str:
    """What to write instead of a number dressed up (``41.2 s``, ``1,000``, ``0,5``), or ""."""
    mark = text[:1] if text[:1] in APPROXIMATE_MARKS else ""
    number, written_unit = split_unit(text[len(mark) :])
    plain, how = number, ""
    if _GROUPED.match(number):
        plain, how = re.sub("[,_ ]", "", number), "without thousands separators"
    elif _DECIMAL_COMMA.match(number):
        plain, how = number.replace(",", "."), "with a point before the decimals"
    if not NUMBER_RE.match(plain) or (written_unit and not hint_unit):
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
    """A figure's two values, both reported at once; two different units (``2 s``, ``900 ms``) are refused."""
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
