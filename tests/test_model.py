"""Pure unit tests of the shared modules below the stages (:mod:`sphinx_contributions.records`,
``.options``, ``.formatting``, ``.queries``, ``.keys``): the option parsers, the metric's words and numbers,
slugs and keys. No Sphinx build; each table row is one case."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from sphinx_contributions.formatting import format_difference, format_sig
from sphinx_contributions.i18n import number_locale
from sphinx_contributions.keys import (
    key_lookup,
    label,
    names_another_pr,
    object_name,
    slugify,
    split_target,
)
from sphinx_contributions.options import (
    EVIDENCE_FORMS,
    OptionError,
    parse_better,
    parse_change,
    parse_date,
    parse_evidence_item,
    parse_expect,
    parse_int_list,
    parse_number,
    parse_positive_int,
    parse_repo,
    parse_status,
    parse_tags,
    parse_target,
    parse_text,
    parse_value,
    parse_values,
    split_unit,
)
from sphinx_contributions.queries import ownership
from sphinx_contributions.records import Contribution, Evidence, Inline, Metric, plain_text
from sphinx_contributions.warnings import closest

#: the start of the message for a :repo: that no forge accepts
REPO_MUST = (
    "repo must be 'owner/name' (GitHub), 'gitlab.com/group/name' (subgroups too) or 'codeberg.org/owner/name', got"
)


def metric(
    before: float,
    after: float,
    better: str = "lower",
    unit: str = "",
    *,
    approximate: bool = False,
    expect: str | None = None,
) -> Metric:
    return Metric(
        "Drift",
        before,
        after,
        repr(before),
        repr(after),
        unit=unit,
        better=better,
        before_approximate=approximate,
        expect=expect,
    )


# -- parsers: accepted values ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parse", "value", "expected"),
    [
        (parse_repo, "huggingface/transformers", "huggingface/transformers"),
        (parse_repo, "  OpenNMT/CTranslate2 ", "OpenNMT/CTranslate2"),
        (parse_repo, "vllm-project/vllm-metal", "vllm-project/vllm-metal"),
        (parse_repo, "a/b.c_d", "a/b.c_d"),
        (lambda v: parse_positive_int(v, "pr"), "49135", 49135),
        (lambda v: parse_positive_int(v, "pr"), " #2103 ", 2103),
        (lambda v: parse_int_list(v, "issue"), "49134", (49134,)),
        (lambda v: parse_int_list(v, "issue"), "1, 2,3 , #4", (1, 2, 3, 4)),
        (
            parse_tags,
            "attention correctness, SDPA,  seq2seq   training",
            ("attention correctness", "SDPA", "seq2seq training"),
        ),
        (parse_tags, "C++, C", ("C++", "C")),
        (parse_status, "merged", "merged"),
        (parse_status, " Open ", "open"),
        (parse_status, "CLOSED", "closed"),
        (parse_status, "draft", "draft"),
        (parse_date, "2025-11-02", "2025-11-02"),
        (parse_date, "2024-02-29", "2024-02-29"),
        (lambda v: parse_text(v, "summary"), "  one\n  sentence  ", "one sentence"),
        (lambda v: parse_number(v, "before"), "1.03e-1", (0.103, "1.03e-1")),
        (lambda v: parse_number(v, "before"), " 139 ", (139.0, "139")),
        (lambda v: parse_number(v, "before"), "-2.5", (-2.5, "-2.5")),
        (lambda v: parse_number(v, "before"), ".5", (0.5, ".5")),
        (lambda v: parse_number(v, "before"), "1E+3", (1000.0, "1E+3")),
        (lambda v: parse_number(v, "before"), "1e-320", (1e-320, "1e-320")),  # subnormal: keeps its digit
        (lambda v: parse_number(v, "before"), "-1e308", (-1e308, "-1e308")),
        (lambda v: parse_value(v, "before"), "1.03e-1", (0.103, "1.03e-1", False)),
        (lambda v: parse_value(v, "before"), "~1.03e-1", (0.103, "~1.03e-1", True)),
        (lambda v: parse_value(v, "before"), " ~ 2 ", (2.0, "~2", True)),
        (lambda v: parse_value(v, "before"), "≈-5", (-5.0, "≈-5", True)),
        (parse_expect, None, None),
        (parse_expect, " Hold ", "hold"),
        (parse_better, None, "lower"),
        (parse_better, "Higher", "higher"),
        (parse_target, "huggingface/transformers#49135", ("huggingface/transformers", 49135)),
        (parse_target, " #47014 ", (None, 47014)),
    ],
)
def test_parser_accepts(parse, value, expected) -> None:  # type: ignore[no-untyped-def]
    assert parse(value) == expected


# -- parsers: rejected values, with the message the author sees ------------------------------------


@pytest.mark.parametrize(
    ("parse", "value", "message"),
    [
        (
            parse_repo,
            "transformers",
            f"{REPO_MUST} 'transformers'",
        ),
        (
            parse_repo,
            "a/b/c",
            f"{REPO_MUST} 'a/b/c'",
        ),
        (
            parse_repo,
            "owner/..",
            f"{REPO_MUST} 'owner/..'",
        ),
        (
            parse_repo,
            "-owner/x",
            f"{REPO_MUST} '-owner/x'",
        ),
        (
            parse_repo,
            None,
            f"{REPO_MUST} ''",
        ),
        (lambda v: parse_positive_int(v, "pr"), "abc", "pr must be a positive integer, got 'abc'"),
        (lambda v: parse_positive_int(v, "pr"), "0", "pr must be a positive integer, got '0'"),
        (lambda v: parse_positive_int(v, "pr"), "-3", "pr must be a positive integer, got '-3'"),
        (lambda v: parse_positive_int(v, "pr"), "1.5", "pr must be a positive integer, got '1.5'"),
        (
            lambda v: parse_int_list(v, "issue"),
            "12, x",
            "issue must be one or more comma-separated positive integers, got '12, x'",
        ),
        (
            lambda v: parse_int_list(v, "issue"),
            "12,",
            "issue must be one or more comma-separated positive integers, got '12,'",
        ),
        (
            lambda v: parse_int_list(v, "issue"),
            "",
            "issue must be one or more comma-separated positive integers, got ''",
        ),
        (parse_tags, "a,,b", "tags must be a comma-separated list without empty items, got 'a,,b'"),
        (parse_tags, "", "tags must be a comma-separated list without empty items, got ''"),
        (parse_tags, "SDPA, sdpa", "tag 'sdpa' repeats 'SDPA'"),
        (parse_tags, "MLX/Metal, mlx metal", "tag 'mlx metal' repeats 'MLX/Metal'"),
        (parse_status, "landed", "status must be one of merged, open, closed, draft; got 'landed'"),
        (parse_status, None, "status must be one of merged, open, closed, draft; got ''"),
        (parse_date, "2025-13-01", "date '2025-13-01' does not exist (month must be in 1..12)"),
        (parse_date, "2025-02-30", "date '2025-02-30' does not exist (day is out of range for month)"),
        (parse_date, "20251102", "date must be an ISO date YYYY-MM-DD, got '20251102'"),
        (parse_date, "yesterday", "date must be an ISO date YYYY-MM-DD, got 'yesterday'"),
        (lambda v: parse_text(v, "summary"), "   ", "summary must not be empty"),
        (lambda v: parse_number(v, "before"), "fast", "before must be a number such as 0.5 or 1.03e-1, got 'fast'"),
        (lambda v: parse_number(v, "after"), "1,000", "after must be a number such as 0.5 or 1.03e-1, got '1,000'"),
        (lambda v: parse_number(v, "after"), "1e400", "after must be a number such as 0.5 or 1.03e-1, got '1e400'"),
        (lambda v: parse_number(v, "after"), "nan", "after must be a number such as 0.5 or 1.03e-1, got 'nan'"),
        (lambda v: parse_number(v, "after"), None, "after is missing (a number such as 0.5 or 1.03e-1)"),
        (
            lambda v: parse_number(v, "after"),
            "1e-400",
            "after is too close to zero to keep the digits written, got '1e-400'",
        ),
        (
            lambda v: parse_number(v, "after"),
            "3e-324",
            "after is too close to zero to keep the digits written, got '3e-324'",
        ),
        (lambda v: parse_value(v, "before"), "~", "before must be a number such as 0.5 or 1.03e-1, got '~'"),
        (lambda v: parse_value(v, "before"), "~fast", "before must be a number such as 0.5 or 1.03e-1, got '~fast'"),
        (lambda v: parse_value(v, "before"), "~~1", "before must be a number such as 0.5 or 1.03e-1, got '~~1'"),
        (lambda v: parse_value(v, "before"), "~inf", "before must be a number such as 0.5 or 1.03e-1, got '~inf'"),
        (parse_expect, "same", "expect must be 'hold' (a no-regression check), got 'same'"),
        (parse_expect, "", "expect must be 'hold' (a no-regression check), got ''"),
        (parse_better, "faster", "better must be 'lower' or 'higher', got 'faster'"),
        (parse_better, "Faster", "better must be 'lower' or 'higher', got 'Faster'"),  # as written
        (parse_better, "hgher", "better must be 'lower' or 'higher', got 'hgher': did you mean 'higher'?"),
        (parse_status, "Landed", "status must be one of merged, open, closed, draft; got 'Landed'"),  # as written
        (parse_status, "opne", "status must be one of merged, open, closed, draft; got 'opne': did you mean 'open'?"),
        (parse_tags, "a; b", "tags are separated by commas, not ';': write ':tags: a, b'"),
        (parse_tags, "a, b;c", "tags are separated by commas, not ';': write ':tags: a, b, c'"),
        (
            lambda v: parse_value(v, "before"),
            "41.2 s",
            "before must be a number such as 0.5 or 1.03e-1, got '41.2 s': write 41.2 and ':unit: s'",
        ),
        (
            lambda v: parse_value(v, "before"),
            "≈1.5GB/s",
            "before must be a number such as 0.5 or 1.03e-1, got '≈1.5GB/s': write ≈1.5 and ':unit: GB/s'",
        ),
        (
            lambda v: parse_value(v, "after"),
            "12_345.5",
            "after must be a number such as 0.5 or 1.03e-1, got '12_345.5': write 12345.5, without thousands "
            "separators",
        ),
        (
            lambda v: parse_value(v, "after"),
            "1,200 ms",
            "after must be a number such as 0.5 or 1.03e-1, got '1,200 ms': write 1200 and ':unit: ms'",
        ),
        (lambda v: parse_value(v, "after"), "1e999", "after must be a number such as 0.5 or 1.03e-1, got '1e999'"),
        (lambda v: parse_value(v, "after"), "12 ab 3", "after must be a number such as 0.5 or 1.03e-1, got '12 ab 3'"),
        (parse_target, "transformers#1", "expected 'owner/repo#N' or '#N', got 'transformers#1'"),
        (parse_target, "owner/repo#0", "expected 'owner/repo#N' or '#N', got 'owner/repo#0'"),
        (parse_target, "owner/repo", "expected 'owner/repo#N' or '#N', got 'owner/repo'"),
        (parse_target, "#x", "expected 'owner/repo#N' or '#N', got '#x'"),
    ],
)
def test_parser_rejects(parse, value, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(OptionError) as caught:
        parse(value)
    assert str(caught.value) == message


# -- the metric in words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [
        (1.03e-1, 1.91e-6, "≈54,000× lower"),
        (2, 16, "≈8× higher"),
        (0.5, 1.23, "≈2.5× higher"),
        (200, 150, "≈25% lower"),
        (200, 205, "≈2.5% higher"),
        (1.0, 1.9, "≈90% higher"),
        (1, 1.996, "≈100% higher"),  # under 2×: a percentage of the right size, not "≈1e+02%"
        (1, 1.5, "≈50% higher"),
        (1000, 999, "≈0.1% lower"),
        (1, 1.0000001, "<0.01% higher"),
        # the "<0.01%" boundary: exactly 0.01% is said as it is; what rounds to 0.01% too; only less is "<"
        (10000, 10001, "≈0.01% higher"),
        (10000, 9999, "≈0.01% lower"),
        (100000, 100009.96, "≈0.01% higher"),
        (100000, 100009.4, "<0.01% higher"),
        (100, 50, "≈2× lower"),
        (0.1, 0.3, "≈3× higher"),
        (1, 1000, "≈1,000× higher"),
        (1, 1_234_567, "≈1,200,000× higher"),
        (1, 12_345_678, "≈1.2×10⁷× higher"),
        (1e-320, 1, "≈1×10³²⁰× higher"),  # was an OverflowError
        (1e308, 1e-320, "≈1×10⁶²⁸× lower"),
        (196, 196, "unchanged"),
        (0, 139, "up from 0"),
        (0, -1, "down from 0"),
        (5, 0, "down to 0"),
        (-5, 0, "up to 0"),
        (-0.0, 0, "unchanged"),
        (-1, -3, "lower by 2"),
        (-3, -1, "higher by 2"),
        (-0.5, -0.25, "higher by 0.25"),
        (-1, 2, "higher by 3, from negative to positive"),
        (-120, 45, "higher by 165, from negative to positive"),
        (45, -120, "lower by 165, from positive to negative"),
        (-1e308, 1e308, "higher by 2×10³⁰⁸, from negative to positive"),  # was an OverflowError
        (-1e308, -1, "higher by 1×10³⁰⁸"),
    ],
)
def test_change_words(before: float, after: float, words: str) -> None:
    assert metric(before, after).change_words() == words


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [
        # no more precise than the values: the largest power of ten that every value within the written
        # precision exceeds ("0.103": 0.1025 to 0.1035, so 53,665× at least), or the direction alone
        (1.03e-1, 1.91e-6, "more than 10⁴× lower"),  # was "≈54,000× lower": two figures from approximate values
        (1e-1, 2e-6, "more than 10⁴× lower"),  # "0.1": 0.05 to 0.15, so 25,000× at least
        (1e-1, 1e-2, "lower"),  # "0.1": 5× at least, under one power of ten: no number
        (200, 150, "lower"),  # "200": one figure, 150 to 250: was "≈30% lower"
        (2, 16, "higher"),  # "2": 1.5 to 2.5, so 6.4× at least: was "≈8× higher"
        (2, 200, "more than 10× higher"),  # 80× at least
        (-120, 45, "higher by 170, from negative to positive"),  # "-120": two figures
        (196, 196, "unchanged"),
    ],
)
def test_change_words_of_approximate_values(before: float, after: float, words: str) -> None:
    assert metric(before, after, approximate=True).change_words() == words


@pytest.mark.parametrize(
    ("before", "after", "better", "words", "verdict"),
    [
        (196, 196, "higher", "held", "held"),
        (196, 197, "higher", "held, ≈0.51% higher", "held"),
        (196, 190, "higher", "not held: ≈3.1% lower", "not-held"),
        (1.5, 1.5, "lower", "held", "held"),
        (1.5, 3, "lower", "not held: ≈2× higher", "not-held"),
    ],
)
def test_a_no_regression_check_reads_held(before: float, after: float, better: str, words: str, verdict: str) -> None:
    m = metric(before, after, better, expect="hold")
    assert (m.change_words(), m.verdict) == (words, verdict)


@pytest.mark.parametrize(
    ("before", "after", "better", "verdict"),
    [(10, 1, "lower", "better"), (10, 1, "higher", "worse"), (3, 3, "lower", "same")],
)
def test_verdict_without_expect(before: float, after: float, better: str, verdict: str) -> None:
    assert metric(before, after, better).verdict == verdict


@pytest.mark.parametrize(
    ("value", "figures", "text"),
    [
        (53926.7, 2, "54,000"),
        (8.0, 2, "8"),
        (2.46, 2, "2.5"),
        (2.5, 1, "3"),  # half up, not to even
        (1.0, 2, "1"),
        (9.96, 2, "10"),
        (99.6, 2, "100"),
        (0.0123, 2, "0.012"),
        (0.5, 2, "0.5"),
        (1.91e-6, 3, "1.91×10⁻⁶"),
        (1234567, 2, "1,200,000"),
        (12345678, 2, "1.2×10⁷"),
        ("1e320", 2, "1×10³²⁰"),  # beyond a double: the ratio 1 / 1e-320
        (-165, 3, "-165"),
        (0, 2, "0"),
    ],
)
def test_format_sig(value: float | str, figures: int, text: str) -> None:
    assert format_sig(Decimal(value) if isinstance(value, str) else value, figures) == text


@pytest.mark.parametrize(
    ("value", "figures", "text"),
    [
        (165, None, "165"),
        (1000000, None, "1,000,000"),
        (0.2, None, "0.2"),
        (1.91e-6, None, "1.91×10⁻⁶"),
        (165, 1, "200"),
        (165, 2, "170"),
        (1e15, None, "1×10¹⁵"),
    ],
)
def test_format_difference(value: float, figures: int | None, text: str) -> None:
    assert format_difference(value, figures) == text


@pytest.mark.parametrize(
    ("before", "after", "english", "german"),
    [
        (1.03e-1, 1.91e-6, "≈54,000× lower", "≈54.000× lower"),
        (0.5, 1.23, "≈2.5× higher", "≈2,5× higher"),
        (200, 205, "≈2.5% higher", "≈2,5% higher"),
        (1, 1.0000001, "<0.01% higher", "<0,01% higher"),
        (1, 1_234_567, "≈1,200,000× higher", "≈1.200.000× higher"),
        (1, 12_345_678, "≈1.2×10⁷× higher", "≈1,2×10⁷× higher"),
        (-0.5, -0.25, "higher by 0.25", "higher by 0,25"),
        (-1_000_000, 234_567, "higher by 1,234,567, from negative to positive",
         "higher by 1.234.567, from negative to positive"),
        (196, 196, "unchanged", "unchanged"),
    ],
)  # fmt: skip
def test_the_change_in_words_takes_the_separators_of_its_locale(
    before: float, after: float, english: str, german: str
) -> None:
    figure = metric(before, after)
    assert figure.change_words() == english
    assert dataclasses.replace(figure, locale="de").change_words() == german
    assert dataclasses.replace(figure, locale="de").as_json()["change"] == english  # the export stays English


@pytest.mark.parametrize(
    ("value", "figures", "locale", "text"),
    [
        (53926.7, 2, None, "54,000"),
        (53926.7, 2, "de", "54.000"),
        (53926.7, 2, "fr", "54\u202f000"),
        (2.46, 2, "de", "2,5"),
        (0.0123, 2, "de", "0,012"),
        (1.91e-6, 3, "de", "1,91×10⁻⁶"),
        (-165, 3, "de", "-165"),
    ],
)
def test_format_sig_in_a_locale(value: float, figures: int, locale: str | None, text: str) -> None:
    assert format_sig(value, figures, locale) == text


@pytest.mark.parametrize(
    ("language", "locale"),
    [("en", None), ("", None), (None, None), ("de", "de"), ("pt_BR", "pt_BR"), ("pt-BR", "pt_BR"), ("xx", None)],
)
def test_number_locale(language: str | None, locale: str | None) -> None:
    assert number_locale(language) == locale


@pytest.mark.parametrize(
    ("before", "after", "chart"),
    [
        (1.03e-1, 1.91e-6, "log"),
        (1, 10, "log"),
        (1, 9.9, "linear"),
        (2, 16, "linear"),
        (0, 139, "linear"),  # zero is a bar of length 0 from the zero baseline
        (196, 196, "linear"),
        (1e-320, 1, "log"),
        (5e-324, 1.7976931348623157e308, "log"),
        (-1, -100, None),  # a negative value: no chart, the words alone
        (-120, 45, None),
        (0, 0, None),
    ],
)
def test_a_chart_only_where_truthful(before: float, after: float, chart: str | None) -> None:
    m = metric(before, after)
    assert m.chart == chart


@pytest.mark.parametrize(
    ("before", "after", "better", "improved"),
    [
        (10, 1, "lower", True),
        (1, 10, "lower", False),
        (1, 10, "higher", True),
        (10, 1, "higher", False),
        (3, 3, "lower", None),
    ],
)
def test_improved_follows_better(before: float, after: float, better: str, improved: bool | None) -> None:
    assert metric(before, after, better).improved is improved


def test_metric_text_equivalent_and_json() -> None:
    m = Metric("Bias tables kept", 2, 16, "2", "16", unit="of 16", better="higher")
    assert m.as_text() == "Bias tables kept: 2 of 16 before, 16 of 16 after (≈8× higher; higher is better)"
    assert m.as_json() == {
        "label": "Bias tables kept",
        "before": 2,
        "after": 16,
        "unit": "of 16",
        "better": "higher",
        "change": "≈8× higher",
        "headline": False,
        "approximate": {"before": False, "after": False},
        "expect": None,
        "evidence": [],
    }
    assert metric(1, 2).as_json()["unit"] is None


def test_both_seeds_approximate_values_give_the_same_words() -> None:
    """Seed 001 writes ~1.03e-1 → ~1.91e-6, seed 000 ~1e-1 → ~2e-6: the change claims no more than both."""
    older = Metric("Drift", 0.103, 1.91e-6, "~1.03e-1", "~1.91e-6", before_approximate=True, after_approximate=True)
    newer = Metric("Drift", 0.1, 2e-6, "~1e-1", "~2e-6", before_approximate=True, after_approximate=True)
    assert older.change_words() == newer.change_words() == "more than 10⁴× lower"
    assert Metric("x", 1, 9, "~1", "~9", better="higher", before_approximate=True).change_words() == "higher"


@pytest.mark.parametrize(
    ("before", "after", "expect", "words", "text"),
    [
        (2, 16, None, "", "Bias tables kept: 2 of 16 before, 16 of 16 after (higher is better)"),
        (196, 196, "hold", "held", ""),
        (196, 190, "hold", "not held", ""),
    ],
)
def test_change_words_off(before: float, after: float, expect: str | None, words: str, text: str) -> None:
    """``:change: off``: no change in words (a check keeps its verdict), in the text and the JSON too."""
    m = Metric(
        "Bias tables kept",
        before,
        after,
        str(before),
        str(after),
        unit="of 16",
        better="higher",
        expect=expect,
        words=False,
    )
    assert (m.change_words(), m.telling_change()) == (words, "")
    assert m.as_json()["change"] == (words or None)
    if expect is None:
        assert m.as_text() == text


def test_parse_change() -> None:
    assert (parse_change(None), parse_change("on"), parse_change(" OFF ")) == (True, True, False)
    with pytest.raises(OptionError) as caught:
        parse_change("none")
    assert str(caught.value) == "change must be 'on' or 'off' (no change in words), got 'none'"


def test_approximate_and_held_in_text_and_json() -> None:
    drift = Metric("Drift", 0.103, 1.91e-6, "~1.03e-1", "~1.91e-6", before_approximate=True, after_approximate=True)
    assert drift.as_text() == "Drift: ~1.03e-1 before, ~1.91e-6 after (more than 10⁴× lower; lower is better)"
    assert drift.as_json()["approximate"] == {"before": True, "after": True}
    tests = Metric("Tests passed", 196, 196, "196", "196", better="higher", expect="hold")
    assert tests.as_text() == "Tests passed: 196 before, 196 after (held; a no-regression check, higher is better)"
    assert (tests.as_json()["change"], tests.as_json()["expect"]) == ("held", "hold")


# -- evidence: the links a figure cites ---------------------------------------------------------------

PAGE_REPO = "OpenNMT/CTranslate2"


@pytest.mark.parametrize(
    ("value", "kind", "text", "url"),
    [
        ("PR 2103", "pr", "PR #2103", "https://github.com/OpenNMT/CTranslate2/pull/2103"),
        ("  pr   2103 ", "pr", "PR #2103", "https://github.com/OpenNMT/CTranslate2/pull/2103"),
        ("issue 2102", "issue", "issue #2102", "https://github.com/OpenNMT/CTranslate2/issues/2102"),
        ("huggingface/transformers#47014", "pr", "PR huggingface/transformers#47014",
         "https://github.com/huggingface/transformers/pull/47014"),
        ("PR huggingface/transformers#47014", "pr", "PR huggingface/transformers#47014",
         "https://github.com/huggingface/transformers/pull/47014"),
        ("Issue OpenNMT/CTranslate2#1478", "issue", "issue OpenNMT/CTranslate2#1478",
         "https://github.com/OpenNMT/CTranslate2/issues/1478"),
        ("commit 0123ABCdef", "commit", "commit 0123abc", "https://github.com/OpenNMT/CTranslate2/commit/0123abcdef"),
        ("a/b@0123abc", "commit", "commit a/b@0123abc", "https://github.com/a/b/commit/0123abc"),
        ("commit a/b@" + "f" * 40, "commit", "commit a/b@fffffff", "https://github.com/a/b/commit/" + "f" * 40),
        ("https://example.org/ci/run/1/", "link", "example.org/ci/run/1", "https://example.org/ci/run/1/"),
        ("the CI run <https://example.org/ci/1>", "link", "the CI run", "https://example.org/ci/1"),
        ("<http://example.org>", "link", "example.org", "http://example.org"),
    ],
)  # fmt: skip
def test_evidence_forms(value: str, kind: str, text: str, url: str) -> None:
    assert parse_evidence_item(value, PAGE_REPO) == Evidence(kind, text, url)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2103", f"evidence must be {EVIDENCE_FORMS}; got '2103'"),
        ("#2103", f"evidence must be {EVIDENCE_FORMS}; got '#2103'"),
        ("PR 0", f"evidence must be {EVIDENCE_FORMS}; got 'PR 0'"),
        ("commit 0123ab", f"evidence must be {EVIDENCE_FORMS}; got 'commit 0123ab'"),  # 6 digits: too short
        ("issue a/b@0123abc", f"evidence must be {EVIDENCE_FORMS}; got 'issue a/b@0123abc'"),
        ("commit a/b#3", f"evidence must be {EVIDENCE_FORMS}; got 'commit a/b#3'"),
        ("ftp://example.org", f"evidence must be {EVIDENCE_FORMS}; got 'ftp://example.org'"),
        ("text <https://example.org", f"evidence must be {EVIDENCE_FORMS}; got 'text <https://example.org'"),
        ("javascript:alert(1)", f"evidence must be {EVIDENCE_FORMS}; got 'javascript:alert(1)'"),
        ("  ", "an item is empty (in directive options ' #' starts a comment: write 'PR 12', not '#12')"),
    ],
)
def test_evidence_rejects(value: str, message: str) -> None:
    with pytest.raises(OptionError) as error:
        parse_evidence_item(value, PAGE_REPO)
    assert str(error.value) == message


@pytest.mark.parametrize("value", ["PR 3", "issue 4", "commit 0123abc"])
def test_evidence_short_forms_need_the_page_repository(value: str) -> None:
    with pytest.raises(OptionError) as error:
        parse_evidence_item(value, None)
    assert str(error.value) == f"{value!r} needs 'owner/repo' outside a contribution page"
    assert parse_evidence_item("a/b#3", None).url == "https://github.com/a/b/pull/3"


def test_metric_json_lists_its_evidence() -> None:
    m = Metric("Drift", 1, 2, "1", "2", evidence=(Evidence("pr", "PR #3", "https://github.com/a/b/pull/3"),))
    assert m.as_json()["evidence"] == [{"kind": "pr", "text": "PR #3", "url": "https://github.com/a/b/pull/3"}]


# -- slugs, keys and the record --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("MLX/Metal", "mlx-metal"),
        ("C++", "c-plus-plus"),
        ("attention correctness", "attention-correctness"),
        ("  SDPA  ", "sdpa"),
        ("seq2seq training", "seq2seq-training"),
        ('<script>alert("x")</script>', "script-alert-x-script"),
        ("Ünïcode", "unicode"),
        ("Übersetzung, café", "ubersetzung-cafe"),
        ("???", "tag-a03b221c"),
        ("", "tag-e3b0c442"),
        ("注意", "tag-4ffef8f3"),
    ],
)
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug


def test_tags_without_latin_letters_stay_apart() -> None:
    assert parse_tags("注意, 性能") == ("注意", "性能")
    assert slugify("注意") != slugify("性能")


def test_key_lookup_ignores_case_and_spaces() -> None:
    assert key_lookup(" Transformers#49135 ") == key_lookup("transformers#49135") == "transformers#49135"


@pytest.mark.parametrize(
    ("target", "key", "section"),
    [
        ("CTranslate2#2103", "CTranslate2#2103", None),
        ("CTranslate2#2103#root-cause", "CTranslate2#2103", "root-cause"),
        (" ctranslate2#2103#Root-Cause ", "ctranslate2#2103", "root-cause"),
        ("CTranslate2#2103#", "CTranslate2#2103", ""),  # an empty section is a missing one
        ("nope", "nope", None),
    ],
)
def test_split_target(target: str, key: str, section: str | None) -> None:
    assert split_target(target) == (key, section)


@pytest.mark.parametrize(
    ("key", "section", "name", "label_", "back"),
    [
        ("CTranslate2#2103", None, "ctranslate2#2103", "ctranslate2-2103", "ctranslate2#2103"),
        ("CTranslate2#2103", "root-cause", "ctranslate2#2103#root-cause", "ctranslate2-2103-root-cause",
         "ctranslate2#2103"),
        ("vllm-metal#1182", "fix", "vllm-metal#1182#fix", "vllm-metal-1182-fix", "vllm-metal#1182"),
        ("fix-2#3", None, "fix-2#3", "fix-2-3", "fix-2#3"),  # a repository named like a section
    ],
)  # fmt: skip
def test_object_names_and_labels(key: str, section: str | None, name: str, label_: str, back: str) -> None:
    assert object_name(key, section) == name
    assert label(key, section) == label_


def test_record_targets() -> None:
    record = Contribution(
        "d", "Fix it", "a/b", 3, "S.", section_titles=(("problem", "Problem"), ("fix", "What changed"))
    )
    assert list(record.targets()) == [
        (None, "contribution", "Fix it"),
        ("problem", "problem", "Fix it — Problem"),
        ("fix", "fix", "Fix it — What changed"),
    ]
    assert record.link_target() == ("contribution", "Fix it")
    assert record.link_target("fix") == ("fix", "Fix it — What changed")
    assert record.link_target("verification") is None


def test_contribution_record_derived_fields() -> None:
    record = Contribution(
        docname="contributions/transformers-49135",
        title="Fix UMT5",
        repo="huggingface/transformers",
        pr=49135,
        summary="S.",
        issues=(49134, 49200),
        tags=("attention correctness", "SDPA"),
    )
    assert record.key == "transformers#49135"
    assert record.repo_name == "transformers"
    assert record.display_project == "transformers"
    assert record.anchor == "contribution"
    assert record.repo_url == "https://github.com/huggingface/transformers"
    assert record.pr_url == "https://github.com/huggingface/transformers/pull/49135"
    assert record.issue_urls == (
        "https://github.com/huggingface/transformers/issues/49134",
        "https://github.com/huggingface/transformers/issues/49200",
    )
    assert record.tag_slugs == ("attention-correctness", "sdpa")
    assert Contribution("d", "t", "OpenNMT/CTranslate2", 2103, "s", project="CTranslate2 runtime").display_project == (
        "CTranslate2 runtime"
    )


# -- did you mean, file names, figures' units, the summary's plain form ----------------------------


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("contributon", "contribution"),
        ("Contributio", "contribution"),  # any case
        ("contribution", None),  # a name of its own
        ("verfication", "verification"),
        ("vrifcaton", "verification"),  # three slips in a long name: still alike (ratio 0.86)
        ("root_cause", "root-cause"),
        ("fxi", "fix"),
        ("fox", "fix"),
        ("foo", None),  # three letters: one edit at most
        ("sidenote", None),
    ],
)
def test_closest_is_a_near_miss_or_nothing(name: str, meant: str | None) -> None:
    names = ("contribution", "contributions", "problem", "root-cause", "fix", "verification")
    assert closest(name, names) == meant


def test_the_names_a_typo_is_checked_against_are_every_name_the_domain_registers() -> None:
    """read/names.py cannot import the domain (a later stage); it lacked ``known-limits`` until this test."""
    from sphinx_contributions.collect.domain import ContributionsDomain
    from sphinx_contributions.read.names import DIRECTIVES, ROLES

    assert sorted(DIRECTIVES) == sorted(ContributionsDomain.directives)
    assert sorted(ROLES) == sorted(ContributionsDomain.roles)


@pytest.mark.parametrize(
    ("docname", "repo", "pr", "slip"),
    [
        ("contributions/numpy-27001", "numpy/numpy", 27010, True),
        ("contributions/NumPy-27001", "numpy/numpy", 27001, False),
        ("contributions/vllm-metal-1182", "vllm-project/vllm-metal", 1182, False),
        ("contributions/vllm-metal-1183", "vllm-project/vllm-metal", 1182, True),
        ("contributions/np-27010", "numpy/numpy", 27001, False),  # an abbreviation: the author's choice
        ("contributions/a-1", "owner/alpha", 1, False),
        ("contributions/notes-2024", "numpy/numpy", 27001, False),
        ("contributions/a-numpy", "numpy/numpy", 27001, False),
    ],
)
def test_names_another_pr(docname: str, repo: str, pr: int, slip: bool) -> None:
    assert names_another_pr(docname, repo, pr) is slip


def test_the_page_named_after_its_key_owns_it_first() -> None:
    def record(docname: str) -> Contribution:
        return Contribution(docname, "t", "numpy/numpy", 27001, "s")

    pages = [record("a-numpy"), record("numpy-27001"), record("b-numpy")]
    assert [r.docname for r in sorted(pages, key=ownership)] == ["numpy-27001", "a-numpy", "b-numpy"]


@pytest.mark.parametrize(
    ("text", "split"),
    [("41.2 s", ("41.2", "s")), ("12%", ("12", "%")), ("1e3 tok/s", ("1e3", "tok/s")), ("1e999", ("1e999", ""))],
)
def test_split_unit(text: str, split: tuple[str, str]) -> None:
    assert split_unit(text) == split


def test_both_values_are_reported_at_once() -> None:
    with pytest.raises(OptionError) as caught:
        parse_values("fast", "1,000")
    assert str(caught.value) == (
        "before must be a number such as 0.5 or 1.03e-1, got 'fast'; after must be a number such as 0.5 or "
        "1.03e-1, got '1,000': write 1000, without thousands separators"
    )
    assert parse_values("~2", "1", "ms") == ((2.0, "~2", True), (1.0, "1", False))


def test_the_plain_form_of_inline_markup() -> None:
    markup = (
        Inline("text", "Keeps "),
        Inline("code", "np.dtype"),
        Inline("text", " for  "),
        Inline("emphasis", children=(Inline("strong", children=(Inline("text", "empty"),)),)),
        Inline("text", " inputs, "),
        Inline("link", url="https://numpy.org/", children=(Inline("text", "as documented"),)),
        Inline("text", "."),
    )
    assert plain_text(markup) == "Keeps np.dtype for empty inputs, as documented."
    record = Contribution("d", "t", "numpy/numpy", 1, plain_text(markup), summary_markup=markup)
    assert record.summary_inline == markup
    assert Contribution("d", "t", "numpy/numpy", 1, "Plain.").summary_inline == (Inline("text", "Plain."),)


def test_record_works_out_slugs_once_and_pickles_fields_only() -> None:
    """A record's key, tag slugs and project page are worked out once (every listing and header asks:
    a tag's slug is slugify's cached answer), equal to the rules' answer, and an environment's pickle
    carries the fields only: a record read back works them out again (never an older version's slugs)."""
    import pickle

    record = Contribution(
        "d", "t", "ml-explore/MLX", 7, "s", tags=("C++", "MLX/Metal", "注意"), folders=("topics", "by-project")
    )
    assert record.key == "MLX#7"
    assert record.tag_slugs == ("c-plus-plus", "mlx-metal", slugify("注意"))
    hits = slugify.cache_info().hits
    assert [record.tag_page(tag) for tag in record.tags] == [f"topics/{slug}" for slug in record.tag_slugs]
    assert slugify.cache_info().hits >= hits + 6
    assert record.tag_page("Not its tag") == "topics/not-its-tag"
    assert record.project_page == "by-project/mlx"
    again = pickle.loads(pickle.dumps(record))
    assert again == record
    assert set(vars(again)) == set(vars(record)) == {f.name for f in dataclasses.fields(Contribution)}
    assert (again.key, again.tag_slugs, again.project_page) == (record.key, record.tag_slugs, record.project_page)


@pytest.mark.parametrize(
    ("before", "after", "unit", "whole", "chart"),
    [
        (0, 139, "of 140", 140, "linear"),
        (2, 16, "of 16", 16, "linear"),
        (1, 16, "/ 16", 16, "linear"),  # 16× apart, but counted out of 16: a linear axis to the whole
        (1, 16, "/16", 16, "linear"),
        (0, 139, "of 100", None, "linear"),  # fewer than the values: not their whole
        (1, 16, "ms", None, "log"),
        (0, 5, "offices", None, "linear"),
    ],
)
def test_a_count_is_out_of_its_whole(before: float, after: float, unit: str, whole: float | None, chart: str) -> None:
    m = Metric("Count", before, after, str(before), str(after), unit=unit)
    assert (m.whole, m.chart) == (whole, chart)


@pytest.mark.parametrize(
    ("before", "after", "expect", "told"),
    [
        (0.0, 139.0, None, ""),  # "up from 0" says what 0 → 139 says
        (5.0, 0.0, None, ""),
        (3.0, 3.0, None, ""),
        (196.0, 196.0, "hold", ""),  # its check mark says it
        (1.03e-1, 1.91e-6, None, "≈54,000× lower"),  # exact values: two figures
    ],
)
def test_the_change_told_only_where_it_adds_to_the_values(
    before: float, after: float, expect: str | None, told: str
) -> None:
    metric = Metric("x", before, after, str(before), str(after), better="lower", expect=expect)
    assert metric.telling_change() == told
