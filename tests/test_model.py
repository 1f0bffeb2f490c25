"""Pure unit tests of :mod:`sphinx_contributions.model`: the option parsers, the metric's words and
numbers, slugs and keys. No Sphinx build; each table row is one case."""

from __future__ import annotations

import pytest

from sphinx_contributions.model import (
    EVIDENCE_FORMS,
    Contribution,
    Evidence,
    Metric,
    OptionError,
    format_number,
    format_ratio,
    key_lookup,
    label,
    label_key,
    object_name,
    parse_better,
    parse_date,
    parse_evidence_item,
    parse_int_list,
    parse_number,
    parse_positive_int,
    parse_repo,
    parse_status,
    parse_tags,
    parse_target,
    parse_text,
    slugify,
    split_target,
)


def metric(before: float, after: float, better: str = "lower", unit: str = "") -> Metric:
    return Metric("Drift", before, after, repr(before), repr(after), unit=unit, better=better)


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
        (parse_repo, "transformers", "repo must be a GitHub 'owner/name', got 'transformers'"),
        (parse_repo, "a/b/c", "repo must be a GitHub 'owner/name', got 'a/b/c'"),
        (parse_repo, "owner/..", "repo must be a GitHub 'owner/name', got 'owner/..'"),
        (parse_repo, "-owner/x", "repo must be a GitHub 'owner/name', got '-owner/x'"),
        (parse_repo, None, "repo must be a GitHub 'owner/name', got ''"),
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
        (parse_date, "2025-13-01", "date must be an ISO date YYYY-MM-DD, got '2025-13-01'"),
        (parse_date, "2025-02-30", "date must be an ISO date YYYY-MM-DD, got '2025-02-30'"),
        (parse_date, "20251102", "date must be an ISO date YYYY-MM-DD, got '20251102'"),
        (parse_date, "yesterday", "date must be an ISO date YYYY-MM-DD, got 'yesterday'"),
        (lambda v: parse_text(v, "summary"), "   ", "summary must not be empty"),
        (lambda v: parse_number(v, "before"), "fast", "before must be a number such as 0.5 or 1.03e-1, got 'fast'"),
        (lambda v: parse_number(v, "after"), "1,000", "after must be a number such as 0.5 or 1.03e-1, got '1,000'"),
        (lambda v: parse_number(v, "after"), "1e400", "after must be a number such as 0.5 or 1.03e-1, got '1e400'"),
        (lambda v: parse_number(v, "after"), "nan", "after must be a number such as 0.5 or 1.03e-1, got 'nan'"),
        (lambda v: parse_number(v, "after"), None, "after is missing (a number such as 0.5 or 1.03e-1)"),
        (parse_better, "faster", "better must be 'lower' or 'higher', got 'faster'"),
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
        (100, 50, "≈2× lower"),
        (1, 1000, "≈1,000× higher"),
        (196, 196, "unchanged"),
        (0, 139, "up from 0"),
        (0, -1, "down from 0"),
        (5, 0, "down to 0"),
        (-5, 0, "up to 0"),
        (-1, -3, "lower by 2"),
        (-1, 2, "higher by 3"),
    ],
)
def test_change_words(before: float, after: float, words: str) -> None:
    assert metric(before, after).change_words() == words


@pytest.mark.parametrize(
    ("ratio", "text"),
    [
        (53926.7, "54,000"),
        (8.0, "8"),
        (2.46, "2.5"),
        (1.0, "1"),
        (9.96, "10"),
        (10.0, "10"),
        (14.9, "15"),
        (99.6, "100"),
        (1234567, "1,200,000"),
    ],
)
def test_format_ratio(ratio: float, text: str) -> None:
    assert format_ratio(ratio) == text


@pytest.mark.parametrize(
    ("value", "text"), [(139, "139"), (1000000, "1,000,000"), (0.5, "0.5"), (1.91e-6, "1.91e-06"), (2.0, "2")]
)
def test_format_number(value: float, text: str) -> None:
    assert format_number(value) == text


@pytest.mark.parametrize(
    ("before", "after", "log"),
    [(1.03e-1, 1.91e-6, True), (1, 10, True), (1, 9.9, False), (2, 16, False), (0, 139, False), (-1, -100, False)],
)
def test_log_scale_only_when_positive_values_span_ten_times(before: float, after: float, log: bool) -> None:
    assert metric(before, after).log_scale is log


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
        "evidence": [],
    }
    assert metric(1, 2).as_json()["unit"] is None


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
    assert label_key(label_) == back


def test_label_key_of_other_labels() -> None:
    assert label_key("genindex") is None
    assert label_key("my-notes") is None
    assert label_key("release-2") == "release#2"  # harmless: no write-up has that key


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
