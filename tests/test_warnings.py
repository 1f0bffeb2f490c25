"""Bad input: every problem is one Sphinx warning with the file, the line and ``[contrib.<subtype>]``,
it fails the strict build, there is never a traceback, and no page is dropped from the output.

Each case is one row of ``CASES``: the pages written next to ``tests/roots/test-contrib-warnings``
(an index with a glob toctree and ``good.md``, key ``good#1``) and the exact warnings expected, each
located by the text of its source line. Adding a case is adding a row."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zlib
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from sphinx_contributions.cli.new import SCAFFOLD
from sphinx_contributions.collect.domain import get_domain
from sphinx_contributions.options import EVIDENCE_FORMS, is_placeholder

from .conftest import MakeApp

REQUIRED = (":repo: owner/repo", ":pr: 1", ":summary: One sentence.")
SECTIONS = """
:::{problem}
p
:::

:::{root-cause}
r
:::

:::{fix}
f
:::

:::{verification}
v
:::
"""

#: the start of the message for a :repo: that no forge accepts
REPO_MUST = (
    "repo must be 'owner/name' (GitHub), 'gitlab.com/group/name' (subgroups too) or 'codeberg.org/owner/name', got"
)


def page(*options: str, sections: str = SECTIONS, title: str = "# A contribution\n") -> str:
    """A contribution page: ``title``, then the header (line 3 with the default title) with ``options``."""
    return f"{title}\n:::{{contribution}}\n" + "".join(f"{option}\n" for option in options) + ":::\n" + sections


def with_metric(*metric: str, first: bool = False) -> str:
    """The four sections, with a metric (its argument line, then options) inside ``verification``, after a
    paragraph, or as the section's ``first`` line (see ``test_metric_first_in_its_section_line``)."""
    lines = "\n".join(metric)
    before = "" if first else "v\n\n"
    return SECTIONS.replace(
        ":::{verification}\nv\n:::", f"::::{{verification}}\n{before}:::{{metric}}{lines}\n:::\n::::"
    )


@dataclass(frozen=True)
class W:
    """One expected warning: in ``file``, at the ``nth`` line whose text is ``line``."""

    file: str
    line: str | None
    message: str
    kind: str  # "contrib.<subtype>" or MyST's "myst.<subtype>"
    nth: int = 1

    def render(self, srcdir: Path) -> str:
        path = srcdir / self.file
        if self.line is None:
            return f"{path}: WARNING: {self.message} [{self.kind}]"
        lines = path.read_text(encoding="utf-8").splitlines()
        numbers = [i for i, text in enumerate(lines, start=1) if text == self.line]
        assert len(numbers) >= self.nth, f"{self.line!r} is not line {self.nth} times in {self.file}"
        return f"{path}:{numbers[self.nth - 1]}: WARNING: {self.message} [{self.kind}]"


def case(name: str, files: str | dict[str, str], *expected: W) -> Any:
    return pytest.param({"bad.md": files} if isinstance(files, str) else files, expected, id=name)


HEADER = ":::{contribution}"
#: the conf.py of tests/roots/test-contrib-warnings
CONF = (Path(__file__).parent / "roots/test-contrib-warnings/conf.py").read_text(encoding="utf-8")
CASES = [
    # -- required options: missing or malformed; the page is not listed (and its sections do not cascade)
    case(
        "missing-repo",
        page(":pr: 1", ":summary: S."),
        W(
            "bad.md",
            HEADER,
            "contribution is missing required option(s): repo; the page is not listed",
            "contrib.missing_option",
        ),
    ),
    case(
        "missing-pr",
        page(":repo: owner/repo", ":summary: S."),
        W(
            "bad.md",
            HEADER,
            "contribution is missing required option(s): pr; the page is not listed",
            "contrib.missing_option",
        ),
    ),
    case(
        "missing-summary",
        page(":repo: owner/repo", ":pr: 1"),
        W(
            "bad.md",
            HEADER,
            "contribution is missing required option(s): summary; the page is not listed",
            "contrib.missing_option",
        ),
    ),
    case(  # issue 33: before, MyST's "Has content, but none permitted" and "missing ... summary"
        "blank-line-in-the-header",
        page(":repo: owner/repo", ":pr: 1", "", ":summary: S.", ":status: merged"),
        W(
            "bad.md",
            ":summary: S.",
            "contribution not listed: a blank line ends its options, so ':summary:' and the lines after it are "
            "read as text; remove the blank line above it",
            "contrib.bad_option",
        ),
    ),
    case(
        "text-in-the-header",
        page(":repo: owner/repo", ":pr: 1", ":summary: S.", "", "Some words."),
        W(
            "bad.md",
            HEADER,
            "the contribution header holds options only (':name: value' lines); the text in it is ignored",
            "contrib.bad_option",
        ),
    ),
    case(
        "empty-summary",
        page(":repo: owner/repo", ":pr: 1", ":summary:"),
        W(
            "bad.md",
            HEADER,
            "contribution is missing required option(s): summary; the page is not listed",
            "contrib.missing_option",
        ),
    ),
    case(
        "missing-all",
        page(),
        W(
            "bad.md",
            HEADER,
            "contribution is missing required option(s): repo, pr, summary; the page is not listed",
            "contrib.missing_option",
        ),
    ),
    case(
        "repo-without-owner",
        page(":repo: transformers", ":pr: 1", ":summary: S."),
        W(
            "bad.md",
            ":repo: transformers",
            f"contribution not listed: {REPO_MUST} 'transformers'",
            "contrib.bad_option",
        ),
    ),
    case(  # the address of no forge the extension knows (a repository's address is read: see below)
        "repo-url-elsewhere",
        page(":repo: https://example.org/a/b", ":pr: 1", ":summary: S."),
        W(
            "bad.md",
            ":repo: https://example.org/a/b",
            f"contribution not listed: {REPO_MUST} 'https://example.org/a/b'",
            "contrib.bad_option",
        ),
    ),
    case(
        "pr-not-a-number",
        page(":repo: owner/repo", ":pr: abc", ":summary: S."),
        W(
            "bad.md",
            ":pr: abc",
            "contribution not listed: pr must be a positive integer, got 'abc'",
            "contrib.bad_option",
        ),
    ),
    case(
        "pr-zero",
        page(":repo: owner/repo", ":pr: 0", ":summary: S."),
        W("bad.md", ":pr: 0", "contribution not listed: pr must be a positive integer, got '0'", "contrib.bad_option"),
    ),
    case(
        "short-pr-role-on-a-rejected-page-is-not-reported-again",
        page(":repo: owner/repo", ":pr: x", ":summary: S.", sections=SECTIONS.replace("\np\n", "\n{pr}`#3`\n")),
        W("bad.md", ":pr: x", "contribution not listed: pr must be a positive integer, got 'x'", "contrib.bad_option"),
    ),
    # -- optional options: a bad value is reported and left out; the page stays listed
    case(
        "issue-not-a-number",
        page(*REQUIRED, ":issue: 12, x"),
        W(
            "bad.md",
            ":issue: 12, x",
            "option ignored: issue must be one or more comma-separated positive integers, got '12, x'",
            "contrib.bad_option",
        ),
    ),
    case(
        "issue-empty-item",
        page(*REQUIRED, ":issue: 12,,13"),
        W(
            "bad.md",
            ":issue: 12,,13",
            "option ignored: issue must be one or more comma-separated positive integers, got '12,,13'",
            "contrib.bad_option",
        ),
    ),
    case(
        "status-unknown",
        page(*REQUIRED, ":status: landed"),
        W(
            "bad.md",
            ":status: landed",
            "option ignored: status must be one of merged, open, closed, draft; got 'landed'",
            "contrib.bad_status",
        ),
    ),
    case(
        "status-quoted-as-written",  # lowercased before
        page(*REQUIRED, ":status: Landed"),
        W(
            "bad.md",
            ":status: Landed",
            "option ignored: status must be one of merged, open, closed, draft; got 'Landed'",
            "contrib.bad_status",
        ),
    ),
    case(
        "status-near-miss",
        page(*REQUIRED, ":status: Mergd"),
        W(
            "bad.md",
            ":status: Mergd",
            "option ignored: status must be one of merged, open, closed, draft; got 'Mergd': did you mean 'merged'?",
            "contrib.bad_status",
        ),
    ),
    case(
        "status-empty",
        page(*REQUIRED, ":status:"),
        W(
            "bad.md",
            ":status:",
            "option ignored: status must be one of merged, open, closed, draft; got ''",
            "contrib.bad_status",
        ),
    ),
    case(
        "status-unknown-in-a-yaml-header",
        "# A contribution\n\n```{contribution}\n---\nrepo: owner/repo\npr: 1\nsummary: S.\nstatus: landed\n---\n```\n"
        + SECTIONS,
        W(
            "bad.md",
            "status: landed",
            "option ignored: status must be one of merged, open, closed, draft; got 'landed'",
            "contrib.bad_status",
        ),
    ),
    case(
        "tags-empty-item",
        page(*REQUIRED, ":tags: a,,b"),
        W(
            "bad.md",
            ":tags: a,,b",
            "option ignored: tags must be a comma-separated list without empty items, got 'a,,b'",
            "contrib.bad_option",
        ),
    ),
    case(
        "tags-with-semicolons",  # one tag "a; b" before
        page(*REQUIRED, ":tags: SDPA; attention ;seq2seq"),
        W(
            "bad.md",
            ":tags: SDPA; attention ;seq2seq",
            "option ignored: tags are separated by commas, not ';': write ':tags: SDPA, attention, seq2seq'",
            "contrib.bad_option",
        ),
    ),
    case(  # before: tags '#a' lost to a comment, "got ''"
        "tags-as-hashtags",
        page(*REQUIRED, ":tags: #caching #gpu"),
        W(
            "bad.md",
            ":tags: #caching #gpu",
            "option ignored: '#' starts a comment in directive options: write ':tags: caching, gpu'",
            "contrib.bad_option",
        ),
    ),
    case(  # before: one tag 'caching', the rest lost without a word of ours
        "tags-with-a-hashtag",
        page(*REQUIRED, ":tags: attention correctness, #SDPA"),
        W(
            "bad.md",
            ":tags: attention correctness, #SDPA",
            "option ignored: '#' starts a comment in directive options: write ':tags: attention correctness, SDPA'",
            "contrib.bad_option",
        ),
    ),
    case(  # before: one tag, 'caching memory gpu', and no warning
        "tags-with-spaces",
        page(*REQUIRED, ":tags: caching memory gpu"),
        W(
            "bad.md",
            ":tags: caching memory gpu",
            "tags are separated by commas: ':tags: caching memory gpu' is one tag; write ':tags: caching, memory, "
            "gpu' for 3 tags, or ':tags: \"caching memory gpu\"' for one",
            "contrib.bad_option",
        ),
    ),
    case(  # before: no word; the write-up's tags are its header's
        "tags-in-front-matter",
        "---\ntags: [caching, gpu]\n---\n" + page(*REQUIRED),
        W(
            "bad.md",
            "tags: [caching, gpu]",
            "front matter 'tags' is not read: a write-up's tags are its header's ':tags:' option; write "
            "':tags: caching, gpu' in the 'contribution' directive and remove 'tags' from the front matter",
            "contrib.bad_option",
        ),
    ),
    case(
        "key-malformed",
        page(*REQUIRED, ":key: rocm sglang"),
        W(
            "bad.md",
            ":key: rocm sglang",
            "option ignored: key must be NAME#1 (letters, digits, '.', '_' and '-', then '#' and the pull request's "
            "number, such as 'owner-name#1'), got 'rocm sglang'",
            "contrib.bad_option",
        ),
    ),
    case(
        "key-of-another-number",
        page(*REQUIRED, ":key: rocm-repo#2"),
        W(
            "bad.md",
            ":key: rocm-repo#2",
            "option ignored: key must end in the pull request's number, #1: write ':key: rocm-repo#1'",
            "contrib.bad_option",
        ),
    ),
    case(  # a :key: is unique like any key
        "key-taken",
        {"zz.md": page(":repo: other/good", ":pr: 1", ":key: good#1", ":summary: S.")},
        W(
            "zz.md",
            HEADER,
            "contribution good#1 is already declared in good.md; this page is not listed",
            "contrib.duplicate_key",
        ),
    ),
    case(
        "tags-repeated",
        page(*REQUIRED, ":tags: SDPA, sdpa"),
        W("bad.md", ":tags: SDPA, sdpa", "option ignored: tag 'sdpa' repeats 'SDPA'", "contrib.bad_option"),
    ),
    case(
        "project-empty",
        page(*REQUIRED, ":project:"),
        W("bad.md", ":project:", "option ignored: project must not be empty", "contrib.bad_option"),
    ),
    case(
        "date-not-iso",
        page(*REQUIRED, ":date: 02/11/2025"),
        W(
            "bad.md",
            ":date: 02/11/2025",
            "option ignored: date must be an ISO date YYYY-MM-DD, got '02/11/2025'",
            "contrib.bad_option",
        ),
    ),
    case(
        "date-impossible",
        page(*REQUIRED, ":date: 2025-02-30"),
        W(
            "bad.md",
            ":date: 2025-02-30",
            "option ignored: date '2025-02-30' does not exist (day is out of range for month)",
            "contrib.bad_option",
        ),
    ),
    # -- unknown options: one warning, the extension's (MyST's own is not given), at the option's line
    case(
        "unknown-contribution-option",
        page(*REQUIRED, ":state: merged"),
        W(
            "bad.md",
            ":state: merged",
            "'contribution' has no option 'state': did you mean 'status'? Write ':status:'",
            "contrib.unknown_name",
        ),
    ),
    case(
        "unknown-option-near-no-other",  # no option is a likely meaning: the options there are
        page(*REQUIRED, ":colour: red"),
        W(
            "bad.md",
            ":colour: red",
            "'contribution' has no option 'colour'; its options are date, impact, issue, key, pr, project, repo, "
            "status, summary, tags. The option is ignored",
            "contrib.unknown_name",
        ),
    ),
    case(
        "another-directives-unknown-option",  # MyST's warning stays for every directive not the extension's
        page(
            *REQUIRED,
            sections=SECTIONS.replace(
                ":::{problem}\np\n:::", "::::{problem}\np\n\n:::{topic} T\n:clas: x\nN.\n:::\n::::"
            ),
        ),
        W(
            "bad.md",
            ":clas: x",
            "'topic': Unknown option key: 'clas' (allowed: ['class', 'name'])",
            "myst.directive_option",
        ),
    ),
    case(
        "misspelt-required-option",  # the typo explains the missing summary: no "missing option" as well
        page(":repo: owner/repo", ":pr: 1", ":sumary: S."),
        W(
            "bad.md",
            ":sumary: S.",
            "'contribution' has no option 'sumary': did you mean 'summary'? Write ':summary:'; the page is not listed",
            "contrib.unknown_name",
        ),
    ),
    case(
        "pr-with-a-comment-sign",  # MyST reads ' #' as a comment: the value is lost, the hint says why (issue
        # 45: ours alone; before, MyST's "Directive options has # comments" as well)
        page(":repo: owner/repo", ":pr: #27001", ":summary: S."),
        W(
            "bad.md",
            ":pr: #27001",
            "contribution not listed: '#' starts a comment in directive options: write ':pr: 27001'",
            "contrib.bad_option",
        ),
    ),
    case(  # issue 45: a '#' that cuts a value that still parses (before: MyST's warning alone, not ours)
        "a-value-cut-by-a-comment-sign",
        page(":repo: owner/repo", ":pr: 1 #2", ":summary: S."),
        W(
            "bad.md",
            ":pr: 1 #2",
            "'#' starts a comment in directive options, so ':pr:' is read as '1' and the rest is lost: remove "
            "the '#' (or quote the value)",
            "contrib.bad_option",
        ),
    ),
    case(
        "issue-with-a-comment-sign",
        page(*REQUIRED, ":issue: 12, #13"),
        W(
            "bad.md",
            ":issue: 12, #13",
            "option ignored: '#' starts a comment in directive options: write ':issue: 12, 13'",
            "contrib.bad_option",
        ),
    ),
    case(
        "unknown-metric-option",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 2", ":after: 1", ":units: ms")),
        W(
            "bad.md",
            ":units: ms",
            "'metric' has no option 'units': did you mean 'unit'? Write ':unit:'",
            "contrib.unknown_name",
        ),
    ),
    # -- the page's title
    case(
        "no-heading",
        page(*REQUIRED, title=""),
        W("bad.md", HEADER, "contribution repo#1 has no heading; its key is used as title", "contrib.missing_title"),
    ),
    case(
        "title-too-long",
        page(*REQUIRED, title="# " + "A very long title, " * 7 + "ending here\n"),
        W(
            "bad.md",
            "# " + "A very long title, " * 7 + "ending here",
            "contribution repo#1: the title is 144 characters long; listings, cards and the browser's tab show about "
            "120: shorten it and say the rest in the summary or the sections",
            "contrib.long_title",
        ),
    ),
    case(
        "placeholder-title",
        page(*REQUIRED, title="# TODO: the title of repo#1\n"),
        W(
            "bad.md",
            "# TODO: the title of repo#1",
            "contribution repo#1: the title is not written yet (it is still a 'TODO' placeholder)",
            "contrib.placeholder",
        ),
    ),
    case(
        "placeholder-summary",
        page(":repo: owner/repo", ":pr: 1", ":summary: TODO: one sentence."),
        W(
            "bad.md",
            ":summary: TODO: one sentence.",
            "contribution repo#1: the summary is not written yet (it is still a 'TODO' placeholder)",
            "contrib.placeholder",
        ),
    ),
    case(  # on main the links were shown as plain text, without a word
        "summary-links-within-the-site",
        page(
            ":repo: owner/repo",
            ":pr: 1",
            ":summary: Like [the good one](good.md), see [the problem](#problem) and {contrib}`good#1`.",
        ),
        W(
            "bad.md",
            ":summary: Like [the good one](good.md), see [the problem](#problem) and {contrib}`good#1`.",
            "the summary links within the site ('the good one', 'the problem', 'good#1'): the summary is also "
            "shown on other pages, in the feed and in contributions.json, where such a link cannot go, so each is "
            "shown as its text; link a full address (https://…), or put the link in a section",
            "contrib.bad_option",
        ),
    ),
    case(
        "impact-links-within-the-site",
        page(*REQUIRED, ":impact: Unblocks [the fix](#fix) for every user."),
        W(
            "bad.md",
            ":impact: Unblocks [the fix](#fix) for every user.",
            "the impact links within the site ('the fix'): the impact is also shown on other pages, in the feed "
            "and in contributions.json, where such a link cannot go, so each is shown as its text; link a full "
            "address (https://…), or put the link in a section",
            "contrib.bad_option",
        ),
    ),
    # -- sections
    case(
        "missing-sections",
        page(*REQUIRED, sections=SECTIONS.split(":::{fix}")[0]),
        W("bad.md", HEADER, "contribution repo#1 is missing section(s): fix, verification", "contrib.missing_section"),
    ),
    case(
        "no-sections",
        page(*REQUIRED, sections=""),
        W(
            "bad.md",
            HEADER,
            "contribution repo#1 is missing section(s): problem, root-cause, fix, verification",
            "contrib.missing_section",
        ),
    ),
    case(
        "section-twice",
        page(*REQUIRED, sections=SECTIONS + "\n:::{problem}\nagain\n:::\n"),
        W(
            "bad.md",
            ":::{problem}",
            "section 'problem' is given twice on this page; only the first has the anchor '#problem'",
            "contrib.duplicate_section",
            nth=2,
        ),
    ),
    case(
        "section-outside-a-contribution-page",
        "# Plain page\n\n:::{fix}\nf\n:::\n",
        W(
            "bad.md",
            ":::{fix}",
            "'fix' belongs on a contribution page, after the 'contribution' directive",
            "contrib.section_outside",
        ),
    ),
    case(
        "section-before-the-header",
        "# Title\n\n:::{problem}\np\n:::\n" + page(*REQUIRED, title="").replace(":::{problem}\np\n:::\n", ""),
        W(
            "bad.md",
            ":::{problem}",
            "'problem' belongs on a contribution page, after the 'contribution' directive",
            "contrib.section_outside",
        ),
    ),
    case(
        "section-unwritten",
        page(*REQUIRED, sections=SECTIONS.replace(":::{fix}\nf\n:::", ":::{fix}\n<!-- what changed -->\n:::")),
        W(
            "bad.md",
            ":::{fix}",
            "section 'fix' is not written yet (it holds only comments or nothing)",
            "contrib.unwritten_section",
        ),
    ),
    case(
        "section-only-myst-comments",
        page(*REQUIRED, sections=SECTIONS.replace(":::{fix}\nf\n:::", ":::{fix}\n% What did the PR change?\n:::")),
        W(
            "bad.md",
            ":::{fix}",
            "section 'fix' is not written yet (it holds only comments or nothing)",
            "contrib.unwritten_section",
        ),
    ),
    case(
        "section-empty",
        page(*REQUIRED, sections=SECTIONS.replace(":::{fix}\nf\n:::", ":::{fix}\n:::")),
        W(
            "bad.md",
            ":::{fix}",
            "section 'fix' is not written yet (it holds only comments or nothing)",
            "contrib.unwritten_section",
        ),
    ),
    # -- the page's structure: title, header, the four sections once each and in order, all text inside them
    # (with the default title and REQUIRED, the sections open at lines 9, 13, 17 and 21)
    case(
        "section-never-closed-holds-the-next",
        page(*REQUIRED, sections=SECTIONS.replace(":::{fix}\nf\n:::", ":::{fix}\nf\n")),
        W(
            "bad.md",
            ":::{fix}",
            "the 'fix' section opened at line 17 is not closed before the 'verification' section (line 21), so "
            "'verification' is inside it: close 'fix' with ':::' on a line before ':::{verification}'",
            "contrib.nesting",
        ),
    ),
    case(
        "section-inside-a-section",
        page(
            *REQUIRED, sections=SECTIONS.replace(":::{fix}\nf\n:::", "::::{fix}\nf\n").replace("v\n:::", "v\n:::\n::::")
        ),
        W(
            "bad.md",
            "::::{fix}",
            "the 'fix' section opened at line 17 is not closed before the 'verification' section (line 21), so "
            "'verification' is inside it: close 'fix' with '::::' on a line before ':::{verification}'",
            "contrib.nesting",
        ),
    ),
    case(
        "last-section-never-closed",
        page(*REQUIRED, sections=SECTIONS.removesuffix(":::\n")),
        W(
            "bad.md",
            ":::{verification}",
            "the 'verification' section opened at line 21 is never closed, so it runs to the end of the page: "
            "close it with ':::' after its last line",
            "contrib.nesting",
        ),
    ),
    case(  # a section in a note's body, never closed: the note's closing line ends it (not told from the text)
        "section-inside-a-note",
        page(*REQUIRED, sections=SECTIONS.replace(":::{fix}\nf\n:::", "::::{note}\n\n:::{fix}\nf\n::::")),
        W(
            "bad.md",
            "::::{note}",
            "content at line 17 is outside the sections, between the 'root-cause' and 'verification' sections: a "
            "write-up's text goes inside its four sections; move it into one of them",
            "contrib.structure",
        ),
    ),
    case(  # an indented fence: its text is not the page's line for line, so the page is parsed
        "indented-last-section-never-closed",
        page(*REQUIRED, sections=SECTIONS.replace(":::{verification}\nv\n:::", "  :::{verification}\n  v")),
        W(
            "bad.md",
            "  :::{verification}",
            "the 'verification' section opened at line 21 is never closed, so it runs to the end of the page: "
            "close it with ':::' after its last line",
            "contrib.nesting",
        ),
    ),
    case(
        "indented-metric-fenced-like-its-section",
        page(
            *REQUIRED,
            sections=SECTIONS.replace(
                ":::{verification}\nv\n:::",
                "  :::{verification}\n  v\n\n  :::{metric} Drift\n  :before: 2\n  :after: 1\n  :::\n\n"
                "  Measured.\n  :::",
            ),
        ),
        W(
            "bad.md",
            "  :::{verification}",
            "the 'verification' section (line 21) holds ':::{metric} Drift' (line 24), so the ':::' at line 27 "
            "closes the section, not the metric, and what follows is outside the sections: give the section's "
            "fences one more colon than the metric's, '::::{verification}' and '::::'",
            "contrib.nesting",
        ),
    ),
    case(
        "metric-fenced-like-its-section",
        page(
            *REQUIRED,
            sections=SECTIONS.replace(
                ":::{verification}\nv\n:::",
                ":::{verification}\nv\n\n:::{metric} Drift\n:before: 2\n:after: 1\n:::\n\nMeasured twice.\n:::",
            ),
        ),
        W(
            "bad.md",
            ":::{verification}",
            "the 'verification' section (line 21) holds ':::{metric} Drift' (line 24), so the ':::' at line 27 "
            "closes the section, not the metric, and what follows is outside the sections: give the section's "
            "fences one more colon than the metric's, '::::{verification}' and '::::'",
            "contrib.nesting",
        ),
    ),
    case(
        "sections-out-of-order",
        page(
            *REQUIRED,
            sections="\n:::{problem}\np\n:::\n\n:::{fix}\nf\n:::\n\n:::{root-cause}\nr\n:::\n\n"
            ":::{verification}\nv\n:::\n",
        ),
        W(
            "bad.md",
            ":::{root-cause}",
            "the 'root-cause' section (line 17) is out of order: the sections go problem, root-cause, fix, "
            "verification; move it before 'fix' (line 13)",
            "contrib.structure",
        ),
    ),
    case(
        "first-section-last",
        page(*REQUIRED, sections="\n:::{verification}\nv\n:::\n" + SECTIONS.split(":::{verification}")[0]),
        W(
            "bad.md",
            ":::{verification}",
            "the 'verification' section (line 9) is out of order: the sections go problem, root-cause, fix, "
            "verification; move it after 'fix' (line 21)",
            "contrib.structure",
        ),
    ),
    case(
        "metric-outside-the-sections",
        page(
            *REQUIRED,
            sections=SECTIONS.replace(
                ":::{verification}", ":::{metric} Drift\n:before: 2\n:after: 1\n:::\n\n:::{verification}"
            ),
        ),
        W(
            "bad.md",
            ":::{metric} Drift",
            "the metric 'Drift' (line 21) is outside the sections, between the 'fix' and 'verification' sections: "
            "figures go inside a section, usually 'verification'",
            "contrib.structure",
        ),
    ),
    case(
        "text-after-the-last-section",
        page(*REQUIRED, sections=SECTIONS + "\nA last word.\n"),
        W(
            "bad.md",
            "A last word.",
            "content at line 25 is outside the sections, after the last section, 'verification': a write-up's text "
            "goes inside its four sections; move it into one of them",
            "contrib.structure",
        ),
    ),
    case(
        "heading-outside-the-sections",
        page(*REQUIRED, sections="\n## Background\n\nWords." + SECTIONS),
        W(
            "bad.md",
            "## Background",
            "the heading 'Background' (line 9) is outside the sections, between the 'contribution' header and the "
            "first section: a write-up's text goes inside its four sections; move the heading and its text into "
            "one of them",
            "contrib.structure",
        ),
    ),
    case(
        "stray-fence-after-the-last-section",
        page(*REQUIRED, sections=SECTIONS + ":::\n"),
        W(
            "bad.md",
            ":::",
            "a stray ':::' at line 24, after the last section, 'verification', is outside the sections: remove it, "
            "or check the colons of the fences before it",
            "contrib.structure",
            nth=6,
        ),
    ),
    case(
        "header-inside-another-directive",
        "# A contribution\n\n::::{note}\n"
        + page(*REQUIRED, title="").strip().split(SECTIONS.strip())[0]
        + "::::\n"
        + SECTIONS,
        W(
            "bad.md",
            ":::{contribution}",
            "the 'contribution' header (line 4) is inside a note (line 3): put it at the top level of the page, "
            "right after the title",
            "contrib.structure",
        ),
    ),
    case(
        "heading-beside-its-section",
        page(*REQUIRED, sections=SECTIONS.replace(":::{problem}", "## Problem\n\n:::{problem}")),
        W(
            "bad.md",
            "## Problem",
            "the id 'problem' is given twice on this page, to the heading 'Problem' (line 9) and the 'problem' "
            "section (line 11): ids must be unique; rename or remove the heading",
            "contrib.duplicate_id",
        ),
    ),
    case(
        "label-beside-its-section",
        page(*REQUIRED, sections=SECTIONS.replace(":::{fix}", "(fix)=\n:::{fix}")),
        W(
            "bad.md",
            "(fix)=",
            "the id 'fix' is given twice on this page, to the label '(fix)=' (line 17) and the 'fix' section "
            "(line 18): ids must be unique; rename or remove the label",
            "contrib.duplicate_id",
        ),
    ),
    case(
        "duplicate-id-on-any-page",
        "# Notes\n\n## Fix\n\nText.\n\n:::{fix}\nf\n:::\n",
        W(
            "bad.md",
            ":::{fix}",
            "'fix' belongs on a contribution page, after the 'contribution' directive",
            "contrib.section_outside",
        ),
        W(
            "bad.md",
            "## Fix",
            "the id 'fix' is given twice on this page, to the heading 'Fix' (line 3) and the 'fix' section (line 7): "
            "ids must be unique; rename or remove the heading",
            "contrib.duplicate_id",
        ),
    ),
    # -- tags and projects with no Latin letter or digit: kept, with a warning (their pages' addresses are opaque)
    case(
        "tag-without-latin-letters",
        page(*REQUIRED, ":tags: 注意, SDPA"),
        W(
            "bad.md",
            ":tags: 注意, SDPA",
            "tag '注意' has no Latin letter or digit, so its page gets an opaque address, tags/tag-4ffef8f3: add "
            "Latin letters or digits to the tag (a transliteration, say) for a readable one",
            "contrib.opaque_slug",
        ),
    ),
    case(
        "project-without-latin-letters",
        page(*REQUIRED, ":project: 日本語"),
        W(
            "bad.md",
            ":project: 日本語",
            "project '日本語' has no Latin letter or digit, so its page gets an opaque address, projects/tag-77710aed: "
            "add Latin letters or digits to the project (a transliteration, say) for a readable one",
            "contrib.opaque_slug",
        ),
    ),
    # -- listings: every bad option at once (one at a time before), a misspelt option or value
    case(
        "listing-every-bad-option-at-once",
        "# Listing\n\n:::{contributions}\n:layout: card\n:sort: newest\n:limit: 0\n:status: shipped\n:::\n",
        W(
            "bad.md",
            ":::{contributions}",
            "contributions listing: layout must be one of table, cards, proof, got 'card': did you mean 'cards'?; "
            "sort must be one of date, project, title, got 'newest'; limit must be a positive integer, got '0'; status "
            "must be one of merged, open, closed, draft; got 'shipped'; showing the full table",
            "contrib.bad_listing",
        ),
    ),
    case(
        "listing-misspelt-option",
        "# Listing\n\n:::{contributions}\n:filtr:\n:::\n",
        W(
            "bad.md",
            ":filtr:",
            "'contributions' has no option 'filtr': did you mean 'filter'? Write ':filter:'",
            "contrib.unknown_name",
        ),
    ),
    case(
        "project-intro-misspelt-option",
        "# Projects\n\n::::{projects}\n\n:::{project} good\n:headng: Good things\nText.\n:::\n::::\n",
        W(
            "bad.md",
            ":headng: Good things",
            "'project' has no option 'headng': did you mean 'heading'? Write ':heading:'",
            "contrib.unknown_name",
        ),
    ),
    # -- two headers on a page, two pages with one key
    case(
        "two-contribution-directives",
        page(*REQUIRED) + "\n:::{contribution}\n:repo: owner/other\n:pr: 2\n:summary: S.\n:::\n",
        W(
            "bad.md",
            HEADER,
            "a page holds one contribution; this second 'contribution' directive is ignored",
            "contrib.duplicate_header",
            nth=2,
        ),
    ),
    case(
        "duplicate-key",
        {"zz.md": page(":repo: someone-else/good", ":pr: 1", ":summary: S.")},
        W(
            "zz.md",
            HEADER,
            "contribution good#1 is already declared in good.md; this page is not listed",
            "contrib.duplicate_key",
        ),
    ),
    case(
        "duplicate-key-in-another-case",
        {"zz.md": page(":repo: owner/GOOD", ":pr: 1", ":summary: S.")},
        W(
            "zz.md",
            HEADER,
            "contribution GOOD#1 is already declared in good.md; this page is not listed",
            "contrib.duplicate_key",
        ),
    ),
    case(
        "duplicate-key-the-page-named-after-it-wins",  # not the page whose name sorts first
        {
            "a-numpy.md": page(":repo: numpy/numpy", ":pr: 27001", ":summary: S."),
            "numpy-27001.md": page(":repo: numpy/numpy", ":pr: 27001", ":summary: S."),
        },
        W(
            "a-numpy.md",
            HEADER,
            "contribution numpy#27001 is also declared in numpy-27001.md, which is named after the key and keeps it; "
            "this page is not listed: give it its own key or delete it",
            "contrib.duplicate_key",
        ),
    ),
    case(
        "duplicate-key-the-page-named-after-it-comes-first",  # the first in name order: it keeps it, plainly
        {
            "numpy-27001.md": page(":repo: numpy/numpy", ":pr: 27001", ":summary: S."),
            "z-numpy.md": page(":repo: numpy/numpy", ":pr: 27001", ":summary: S."),
        },
        W(
            "z-numpy.md",
            HEADER,
            "contribution numpy#27001 is already declared in numpy-27001.md; this page is not listed",
            "contrib.duplicate_key",
        ),
    ),
    # -- a write-up's file name and its key
    case(
        "file-name-gives-another-number",
        {"numpy-27001.md": page(":repo: numpy/numpy", ":pr: 27010", ":summary: S.")},
        W(
            "numpy-27001.md",
            ":pr: 27010",
            "the file name numpy-27001.md gives another number than ':pr:', so the page is published as numpy#27010: "
            "correct ':pr:', or rename the file to numpy-27010.md",
            "contrib.file_name",
        ),
    ),
    # -- empty pages
    case(
        "empty-page-in-the-write-ups-folder",  # only Sphinx's "not included in any toctree" before
        {"contributions/numpy-27001.md": "\n"},
        W(
            "contributions/numpy-27001.md",
            None,
            "the page is empty: write the contribution here ('contributions new' starts one from its pull request) "
            "or delete the file",
            "contrib.empty_page",
        ),
    ),
    # -- did you mean: a typo of a directive or a role; a misspelt header is the one warning of its page;
    # MyST's "Unknown directive type" is not given as well (issue 45: one mistake, one warning)
    case(
        "misspelt-header",  # ours alone (issue 45: before, MyST's as well); not one per section, figure and link
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 2", ":after: 1", ":evidence: PR 12"))
        .replace("{contribution}", "{contributon}")
        .replace("\np\n", "\np {pr}`#3`\n"),
        W(
            "bad.md",
            ":::{contributon}",
            "unknown directive 'contributon': did you mean 'contribution'? Write ':::{contribution}'; until then "
            "the page is not a write-up and is not listed",
            "contrib.unknown_name",
        ),
    ),
    case(
        "misspelt-namespaced-header",  # the contrib: form of a shared site: the same one warning of ours
        page(*REQUIRED, sections=SECTIONS)
        .replace("{contribution}", "{contrib:contributon}")
        .replace(":::{fix}", ":::{contrib:fix}"),
        W(
            "bad.md",
            ":::{contrib:contributon}",
            "unknown directive 'contrib:contributon': did you mean 'contrib:contribution'? Write "
            "':::{contrib:contribution}'; until then the page is not a write-up and is not listed",
            "contrib.unknown_name",
        ),
    ),
    case(
        "misspelt-section",  # the typo, not a missing section as well
        page(*REQUIRED, sections=SECTIONS.replace(":::{fix}", ":::{fxi}")),
        W(
            "bad.md",
            ":::{fxi}",
            "unknown directive 'fxi': did you mean 'fix'? Write ':::{fix}'",
            "contrib.unknown_name",
        ),
    ),
    case(
        "misspelt-metric",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 2", ":after: 1").replace("{metric}", "{metrc}")),
        W(
            "bad.md",
            ":::{metrc} Drift",
            "unknown directive 'metrc': did you mean 'metric'? Write ':::{metric} Drift'",
            "contrib.unknown_name",
        ),
    ),
    case(
        "misspelt-role",
        "# Links\n\nSee {contirb}`good#1`.\n",
        W(
            "bad.md",
            "See {contirb}`good#1`.",
            "unknown role 'contirb': did you mean 'contrib'? Write '{contrib}'; MyST leaves the text of an unknown "
            "role out of the page",
            "contrib.unknown_name",
        ),
    ),
    case(
        "misspelt-role-beside-code",  # a name in a code span is code: `:::{contributions}` is no role 'contributions'
        "# Links\n\nList them with `:::{contributions}` or ``{contrib}`key` ``; see {contirb}`good#1`.\n",
        W(
            "bad.md",
            "List them with `:::{contributions}` or ``{contrib}`key` ``; see {contirb}`good#1`.",
            "unknown role 'contirb': did you mean 'contrib'? Write '{contrib}'; MyST leaves the text of an unknown "
            "role out of the page",
            "contrib.unknown_name",
        ),
    ),
    case(
        "unknown-directive-near-no-other",  # MyST's warning alone
        "# Notes\n\n:::{sidenote}\nText.\n:::\n",
        W("bad.md", ":::{sidenote}", "Unknown directive type: 'sidenote'", "myst.directive_unknown"),
    ),
    # -- metrics
    case(
        "metric-value-not-a-number",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: fast", ":after: 1")),
        W(
            "bad.md",
            ":before: fast",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: before must be a number such as 0.5 or 1.03e-1, got 'fast'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-with-separator",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 1", ":after: 1,000")),
        W(
            "bad.md",
            ":after: 1,000",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: after must be a number such as 0.5 or 1.03e-1, got '1,000': write 1000, "
            "without thousands separators",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-values-with-their-unit",  # both values at once, each with what to write
        page(*REQUIRED, sections=with_metric(" Time", ":before: 41.2 s", ":after: ~30s")),
        W(
            "bad.md",
            ":before: 41.2 s",  # the option's line (before: the directive's)
            "metric 'Time' not shown: before must be a number such as 0.5 or 1.03e-1, got '41.2 s': write 41.2 and "
            "':unit: s'; after must be a number such as 0.5 or 1.03e-1, got '~30s': write ~30 and ':unit: s'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-as-a-percentage",
        page(*REQUIRED, sections=with_metric(" Share", ":before: 12%", ":after: 8")),
        W(
            "bad.md",
            ":before: 12%",  # the option's line (before: the directive's)
            "metric 'Share' not shown: before must be a number such as 0.5 or 1.03e-1, got '12%': write 12 and "
            "':unit: %'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-with-a-decimal-comma",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 0,5", ":after: 1")),
        W(
            "bad.md",
            ":before: 0,5",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: before must be a number such as 0.5 or 1.03e-1, got '0,5': write 0.5, with a "
            "point before the decimals",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-with-the-unit-given",
        page(*REQUIRED, sections=with_metric(" Time", ":before: 41.2 ms", ":after: 30", ":unit: ms")),
        W(
            "bad.md",
            ":before: 41.2 ms",  # the option's line (before: the directive's)
            "metric 'Time' not shown: before must be a number such as 0.5 or 1.03e-1, got '41.2 ms': write 41.2 "
            "alone: the unit is given as ':unit: ms'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-in-another-unit-than-given",
        page(*REQUIRED, sections=with_metric(" Time", ":before: 2 s", ":after: 900", ":unit: ms")),
        W(
            "bad.md",
            ":before: 2 s",  # the option's line (before: the directive's)
            "metric 'Time' not shown: before must be a number such as 0.5 or 1.03e-1, got '2 s': write it in ms "
            "(its ':unit:') as a number alone",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-values-in-two-units",  # a figure has one unit: refused, with what to do
        page(*REQUIRED, sections=with_metric(" Time", ":before: 2 s", ":after: 900 ms")),
        W(
            "bad.md",
            ":before: 2 s",  # the option's line (before: the directive's)
            "metric 'Time' not shown: before must be a number such as 0.5 or 1.03e-1, got '2 s'; after must be a "
            "number such as 0.5 or 1.03e-1, got '900 ms'; before and after are in different units, 's' and 'ms': "
            "write both in one unit, as numbers, and that unit once as ':unit:'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-every-mistake-at-once",
        page(*REQUIRED, sections=with_metric("", ":before: fast", ":after: 1", ":better: Faster")),
        W(
            "bad.md",
            ":::{metric}",
            "metric not shown: a label is required, the text after '{metric}'; before must be a number such as 0.5 "
            "or 1.03e-1, got 'fast'; better must be 'lower' or 'higher', got 'Faster'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-misspelt-value-option",  # the typo, not "before is missing" as well
        page(*REQUIRED, sections=with_metric(" Drift", ":befor: 2", ":after: 1")),
        W(
            "bad.md",
            ":befor: 2",
            "'metric' has no option 'befor': did you mean 'before'? Write ':before:'; the figure is not shown",
            "contrib.unknown_name",
        ),
    ),
    case(
        "metric-better-near-miss",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 2", ":after: 1", ":better: Lowr")),
        W(
            "bad.md",
            ":better: Lowr",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: better must be 'lower' or 'higher', got 'Lowr': did you mean 'lower'?",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-infinite",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 1e999", ":after: 1")),
        W(
            "bad.md",
            ":before: 1e999",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: before must be a number such as 0.5 or 1.03e-1, got '1e999'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-missing",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 1")),
        W(
            "bad.md",
            ":::{metric} Drift",
            "metric 'Drift' not shown: after is missing (a number such as 0.5 or 1.03e-1)",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-better-unknown",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 2", ":after: 1", ":better: faster")),
        W(
            "bad.md",
            ":better: faster",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: better must be 'lower' or 'higher', got 'faster'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-value-too-close-to-zero",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 1e-400", ":after: 1")),
        W(
            "bad.md",
            ":before: 1e-400",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: before is too close to zero to keep the digits written, got '1e-400'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-approximate-mark-alone",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: ~", ":after: 1")),
        W(
            "bad.md",
            ":before: ~",  # the option's line (before: the directive's)
            "metric 'Drift' not shown: before must be a number such as 0.5 or 1.03e-1, got '~'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-expect-unknown",
        page(*REQUIRED, sections=with_metric(" Tests passed", ":before: 196", ":after: 196", ":expect: same")),
        W(
            "bad.md",
            ":expect: same",  # the option's line (before: the directive's)
            "metric 'Tests passed' not shown: expect must be 'hold' (a no-regression check), got 'same'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-change-unknown",
        page(*REQUIRED, sections=with_metric(" Bias tables", ":before: 2", ":after: 16", ":change: none")),
        W(
            "bad.md",
            ":change: none",  # the option's line
            "metric 'Bias tables' not shown: change must be 'on' or 'off' (no change in words), got 'none'",
            "contrib.bad_metric",
        ),
    ),
    case(
        "metric-without-label",
        page(*REQUIRED, sections=with_metric("", ":before: 2", ":after: 1")),
        W(
            "bad.md",
            ":::{metric}",
            "metric not shown: a label is required, the text after '{metric}'",
            "contrib.bad_metric",
        ),
    ),
    # -- evidence: the bad item is left out, the figure and the other items stay
    case(
        "evidence-item-malformed",
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 2", ":after: 1", ":evidence: PR 12, see the PR")),
        W(
            "bad.md",
            ":evidence: PR 12, see the PR",  # the option's line (before: the directive's)
            f"metric 'Drift': evidence left out: evidence must be {EVIDENCE_FORMS}; got 'see the PR'",
            "contrib.bad_evidence",
        ),
    ),
    case(
        "evidence-with-a-comment-sign",  # MyST cuts the option at ' #': its warning, then ours for what is left
        page(*REQUIRED, sections=with_metric(" Drift", ":before: 2", ":after: 1", ":evidence: #12")),
        W(
            "bad.md",
            ":evidence: #12",  # the option's line (before: the directive's)
            "metric 'Drift': evidence left out: an item is empty "
            "(in directive options ' #' starts a comment: write 'PR 12', not '#12')",
            "contrib.bad_evidence",
        ),
    ),
    case(
        "evidence-short-form-outside-a-contribution-page",
        "# Figures\n\n:::{metric} Drift\n:before: 2\n:after: 1\n:evidence: PR 12, a/b#3\n:::\n",
        W(
            "bad.md",
            ":evidence: PR 12, a/b#3",  # the option's line (before: the directive's)
            "metric 'Drift': evidence left out: 'PR 12' needs 'owner/repo' outside a contribution page",
            "contrib.bad_evidence",
        ),
    ),
    # -- roles and section links
    case(
        "contrib-unknown-section",
        "# Links\n\nSee {contrib}`good#1#causes`.\n",
        W(
            "bad.md",
            "See {contrib}`good#1#causes`.",
            "{contrib} target not found: 'good#1#causes': good#1 has no section 'causes' "
            "(its sections: problem, root-cause, fix, verification)",
            "contrib.unknown_section",
        ),
    ),
    case(
        "contrib-section-the-page-lacks",
        {
            "bad.md": "# Links\n\nSee {contrib}`the check <short#2#verification>`.\n",
            "short.md": page(
                ":repo: owner/short", ":pr: 2", ":summary: S.", sections=SECTIONS.split(":::{verification}")[0]
            ),
        },
        W(
            "short.md",
            HEADER,
            "contribution short#2 is missing section(s): verification",
            "contrib.missing_section",
        ),
        W(
            "bad.md",
            "See {contrib}`the check <short#2#verification>`.",
            "{contrib} target not found: 'short#2#verification': short#2 has no section 'verification' "
            "(its sections: problem, root-cause, fix)",
            "contrib.unknown_section",
        ),
    ),
    case(
        "myst-link-to-a-missing-section",  # MyST's own warning: the strict build fails as well
        "# Links\n\nSee [the cause](good.md#causes).\n",
        W(
            "bad.md",
            "See [the cause](good.md#causes).",
            "local id not found in doc 'good': 'causes'",
            "myst.xref_missing",
        ),
    ),
    case(
        "ref-to-a-missing-section-label",  # Sphinx's own warning
        "# Links\n\nSee {ref}`good-1-causes`.\n",
        W("bad.md", "See {ref}`good-1-causes`.", "undefined label: 'good-1-causes'", "ref.ref"),
    ),
    case(
        "label-already-taken",
        "# Notes\n\n(good-1-fix)=\n## My own fix notes\n\nText.\n",
        W(
            "good.md",
            HEADER,
            "contribution good#1: the label 'good-1-fix' is already defined in bad.md; {ref} links to that one",
            "contrib.duplicate_label",
        ),
    ),
    case(
        "contrib-unknown-key",
        "# Links\n\nSee {contrib}`nope#3`.\n",
        W("bad.md", "See {contrib}`nope#3`.", "{contrib} target not found: 'nope#3'", "contrib.unknown_key"),
    ),
    case(  # before: no suggestion
        "contrib-misspelt-key",
        "# Links\n\nSee {contrib}`god#1` and {contrib}`the fix <GOD#1#fix>`.\n",
        W(
            "bad.md",
            "See {contrib}`god#1` and {contrib}`the fix <GOD#1#fix>`.",
            "{contrib} target not found: 'god#1'; did you mean 'good#1'?",
            "contrib.unknown_key",
        ),
        W(
            "bad.md",
            "See {contrib}`god#1` and {contrib}`the fix <GOD#1#fix>`.",
            "{contrib} target not found: 'GOD#1#fix'; did you mean 'good#1#fix'?",
            "contrib.unknown_key",
        ),
    ),
    case(  # issue 33: the key written as the repository with its owner, as the file name, or as the name alone
        "contrib-key-written-another-way",
        "# Links\n\n{contrib}`example/good#1`, {contrib}`good-1`, {contrib}`Good`.\n",
        *(
            W(
                "bad.md",
                "{contrib}`example/good#1`, {contrib}`good-1`, {contrib}`Good`.",
                f"{{contrib}} target not found: {written!r}; did you mean 'good#1'?",
                "contrib.unknown_key",
            )
            for written in ("example/good#1", "good-1", "Good")
        ),
    ),
    case(  # issue 45: before, only "target not found", as if the key did not exist
        "contrib-to-a-page-not-listed",
        {
            "bad.md": page(":repo: owner/repo", ":pr: 2", ":sumary: S."),
            "links.md": "# Links\n\nSee {contrib}`repo#2`.\n",
        },
        W(
            "bad.md",
            ":sumary: S.",
            "'contribution' has no option 'sumary': did you mean 'summary'? Write ':summary:'; the page is not listed",
            "contrib.unknown_name",
        ),
        W(
            "links.md",
            "See {contrib}`repo#2`.",
            "{contrib} target not found: 'repo#2': bad.md declares it, but that page is not listed: 'contribution' "
            "has no option 'sumary': did you mean 'summary'? Write ':summary:'; the page is not listed",
            "contrib.unknown_key",
        ),
    ),
    case(  # issue 45: a name near an existing one, of another number: the closest keys (before: none)
        "contrib-key-near-no-number",
        "# Links\n\nSee {contrib}`godo#9`.\n",
        W(
            "bad.md",
            "See {contrib}`godo#9`.",
            "{contrib} target not found: 'godo#9'; the closest existing keys: 'good#1'",
            "contrib.unknown_key",
        ),
    ),
    case(
        "contrib-unknown-key-explicit-title",
        "# Links\n\nSee {contrib}`this one <good#2>`.\n",
        W(  # issue 45: before, no key was named
            "bad.md",
            "See {contrib}`this one <good#2>`.",
            "{contrib} target not found: 'good#2'; the closest existing keys: 'good#1'",
            "contrib.unknown_key",
        ),
    ),
    case(
        "contrib-to-a-draft",
        {
            "bad.md": "# Links\n\nSee {contrib}`draft#4`.\n",
            "draft.md": page(":repo: owner/draft", ":pr: 4", ":summary: S.", ":status: draft"),
        },
        W(
            "bad.md",
            "See {contrib}`draft#4`.",
            "{contrib} links to draft#4, a draft (draft) that the published site leaves out",
            "contrib.draft_link",
        ),
    ),
    case(
        "pr-target-malformed",
        "# Links\n\nSee {pr}`transformers#1`.\n",
        W(
            "bad.md",
            "See {pr}`transformers#1`.",
            "{pr} target not linked: expected 'owner/repo#N' or '#N', got 'transformers#1'",
            "contrib.bad_target",
        ),
    ),
    case(
        "issue-target-malformed",
        "# Links\n\nSee {issue}`owner/repo#0`.\n",
        W(
            "bad.md",
            "See {issue}`owner/repo#0`.",
            "{issue} target not linked: expected 'owner/repo#N' or '#N', got 'owner/repo#0'",
            "contrib.bad_target",
        ),
    ),
    case(
        "pr-explicit-target-malformed",
        "# Links\n\nSee {pr}`the change <owner/repo>`.\n",
        W(
            "bad.md",
            "See {pr}`the change <owner/repo>`.",
            "{pr} target not linked: expected 'owner/repo#N' or '#N', got 'owner/repo'",
            "contrib.bad_target",
        ),
    ),
    case(
        "short-target-outside-a-contribution-page",
        "# Links\n\nSee {issue}`#5`.\n",
        W(
            "bad.md",
            "See {issue}`#5`.",
            "{issue} '#5' needs 'owner/repo#5' outside a contribution page",
            "contrib.bad_target",
        ),
    ),
]


def build(make_app: MakeApp, rootdir: Path, tmp_path: Path, files: dict[str, str], **kwargs: Any) -> SphinxTestApp:
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-warnings", srcdir)
    for name, text in files.items():
        (srcdir / name).parent.mkdir(parents=True, exist_ok=True)
        (srcdir / name).write_text(text, encoding="utf-8")
    app = make_app(
        "html", srcdir=srcdir, freshenv=True, warningiserror=True, status=StringIO(), warning=StringIO(), **kwargs
    )
    app.build(force_all=True)  # never a traceback: an exception fails the test here
    return app


def warnings(app: SphinxTestApp) -> list[str]:
    return strip_colors(app.warning.getvalue()).splitlines()


@pytest.mark.sphinx("html", testroot="contrib-warnings", freshenv=True, warningiserror=True)
def test_the_root_itself_builds_strictly(app: SphinxTestApp) -> None:
    app.build(force_all=True)
    assert warnings(app) == []
    assert app.statuscode == 0


@pytest.mark.parametrize(("files", "expected"), CASES)
def test_bad_input_warns(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, files: dict[str, str], expected: tuple[W, ...]
) -> None:
    app = build(make_app, rootdir, tmp_path, files)
    # exactly these warnings: file, line, message and [type.subtype]; no cascade of follow-up warnings
    assert warnings(app) == [w.render(Path(app.srcdir)) for w in expected]
    assert app.statuscode == 1, "the strict build fails"
    for name in files:  # nothing is dropped: every page is still written (drafts are left out by design)
        if "status: draft" not in files[name]:
            assert (Path(app.outdir) / name.replace(".md", ".html")).is_file(), name


#: the option warnings of the header and of a figure, each at its option's line
OPTION_CASES = [
    param
    for param in CASES
    if param.id in ("status-unknown", "tags-empty-item", "tags-as-hashtags", "metric-misspelt-value-option")
]


@pytest.mark.parametrize(("files", "expected"), OPTION_CASES)
def test_option_warnings_point_at_the_option_whatever_block_text_holds(
    make_app: MakeApp,
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    expected: tuple[W, ...],
) -> None:
    """MyST-Parser 5.0 and 5.1 give a directive ``block_text`` without its option lines (the body only):
    the options are read in the page at the directive's line, so each warning still points at its option.
    On main, with MyST 5.0, every one pointed at the directive's line."""
    from sphinx_contributions.read.directives import OptionsDirective

    made = OptionsDirective.__init__

    def body_only(self: OptionsDirective, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self.block_text = "\n".join(self.content)  # as MyST-Parser 5.0 and 5.1 give it

    monkeypatch.setattr(OptionsDirective, "__init__", body_only)
    app = build(make_app, rootdir, tmp_path, files)
    assert warnings(app) == [w.render(Path(app.srcdir)) for w in expected]


def test_a_line_separator_in_the_text_shifts_no_line(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """A U+2028 (or a form feed) pasted into a paragraph stands inside its line for MyST, not between two:
    the checks number lines as MyST does. Before, every section after it was "never closed"."""
    sections = SECTIONS.replace(
        ":::{verification}\nv\n:::",
        ":::{verification}\nv\n\n:::{metric} Drift\n:before: 2\n:after: 1\n:::\n\nMore.\n:::",
    )
    text = page(*REQUIRED, sections="\nA line\u2028with a separator\x0cand a form feed.\n" + sections)
    app = build(make_app, rootdir, tmp_path, {"bad.md": text})
    path = Path(app.srcdir) / "bad.md"
    assert warnings(app) == [
        f"{path}:23: WARNING: the 'verification' section (line 23) holds ':::{{metric}} Drift' (line 26), so the "
        "':::' at line 29 closes the section, not the metric, and what follows is outside the sections: give the "
        "section's fences one more colon than the metric's, '::::{verification}' and '::::' [contrib.nesting]",
        f"{path}:9: WARNING: content at line 9 is outside the sections, between the 'contribution' header and the "
        "first section: a write-up's text goes inside its four sections; move it into one of them "
        "[contrib.structure]",
    ]


def test_a_kind_can_be_silenced(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    app = build(
        make_app,
        rootdir,
        tmp_path,
        {"bad.md": page(*REQUIRED, ":status: landed")},
        confoverrides={"suppress_warnings": ["contrib.bad_status"]},
    )
    assert warnings(app) == []
    assert app.statuscode == 0


def test_a_bad_optional_option_keeps_the_page_listed(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(*REQUIRED, ":status: landed", ":tags: a,,b")})
    assert len(warnings(app)) == 2
    record = get_domain(app.env).contributions["bad"]
    assert (record.key, record.status, record.tags) == ("repo#1", None, ())


@pytest.mark.parametrize(
    ("written", "tags"),
    [
        ("[caching, memory, gpu]", ("caching", "memory", "gpu")),  # before: '[caching', 'memory', 'gpu]'
        ('["seq2seq training", SDPA]', ("seq2seq training", "SDPA")),
        ('"seq2seq training loop"', ("seq2seq training loop",)),  # quoted: one tag of three words, no warning
        ("attention correctness", ("attention correctness",)),  # two words: one tag
        ("a b, c", ("a b", "c")),
    ],
)
def test_tags_as_people_write_them(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, written: str, tags: tuple[str, ...]
) -> None:
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(*REQUIRED, f":tags: {written}")})
    assert (warnings(app), app.statuscode) == ([], 0)
    assert get_domain(app.env).contributions["bad"].tags == tags


def test_a_key_of_its_own_for_one_name_under_two_owners(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """``:key:``: two repositories named ``good`` publish side by side (before: "already declared")."""
    files = {"rocm-good-1.md": page(":repo: rocm/good", ":pr: 1", ":key: rocm-good#1", ":summary: S.")}
    app = build(make_app, rootdir, tmp_path, files)
    assert (warnings(app), app.statuscode) == ([], 0)
    domain = get_domain(app.env)
    owners = [domain.by_key(key) for key in ("good#1", "ROCM-good#1")]
    assert [owner.docname if owner else None for owner in owners] == ["good", "rocm-good-1"]
    assert domain.contributions["rocm-good-1"].key == "rocm-good#1"


@pytest.mark.parametrize(
    ("written", "repo"),
    [
        ("https://github.com/a/b", "a/b"),  # before: "repo must be 'owner/name' …, got 'https://github.com/a/b'"
        ("https://github.com/a/b/pull/7/files", "a/b"),
        ("github.com/a/b.git", "a/b"),
        ("https://gitlab.com/group/sub/b/-/tree/main", "gitlab.com/group/sub/b"),
        ("https://codeberg.org/a/b/", "codeberg.org/a/b"),
    ],
)
def test_a_repository_given_as_its_address_is_read(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, written: str, repo: str
) -> None:
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(f":repo: {written}", ":pr: 1", ":summary: S.")})
    assert (warnings(app), app.statuscode) == ([], 0)
    record = get_domain(app.env).contributions["bad"]
    assert (record.repo, record.key) == (repo, "b#1")


def test_a_rejected_header_leaves_the_page_unlisted(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(":repo: owner/repo", ":pr: abc", ":summary: S.")})
    assert "bad" not in get_domain(app.env).contributions
    assert [obj[0] for obj in get_domain(app.env).get_objects() if obj[2] == "contribution"] == ["good#1"]


def test_duplicate_key_keeps_the_first_page(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    app = build(make_app, rootdir, tmp_path, {"zz.md": page(":repo: other/good", ":pr: 1", ":summary: S.")})
    objects = get_domain(app.env).get_objects()
    assert [(obj[0], obj[3]) for obj in objects if obj[2] == "contribution"] == [("good#1", "good")]
    # its labels too: {ref} links go to the page that owns the key
    labels = app.env.domains.standard_domain.labels
    assert {name: labels[name][0] for name in ("good-1", "good-1-fix")} == {"good-1": "good", "good-1-fix": "good"}


#: two pages with one key: the one named after it sorts last, and owns the key
NAMED_AFTER_THE_KEY = {
    "a-numpy.md": page(":repo: numpy/numpy", ":pr: 27001", ":summary: The page that sorts first."),
    "numpy-27001.md": page(":repo: numpy/numpy", ":pr: 27001", ":summary: The page named after the key."),
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_page_named_after_a_key_owns_it(rootdir: Path, tmp_path: Path, jobs: str) -> None:
    """Its links, labels and objects go to it, the report says only it is published, and ``contributions
    check`` lists only it: before, the page whose name sorts first won, and ``check`` listed both."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-warnings", srcdir)
    for name, text in NAMED_AFTER_THE_KEY.items():
        (srcdir / name).write_text(text, encoding="utf-8")
    (srcdir / "links.md").write_text("# Links\n\n{contrib}`numpy#27001` and {ref}`numpy-27001-fix`.\n")
    done = sphinx_build(srcdir, "-j", jobs)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "doctrees" / "contributions-report.html.json").read_text(encoding="utf-8"))
    owners = [(r["docname"], r["published"]) for r in report["records"] if r["key"] == "numpy#27001"]
    assert owners == [("a-numpy", False), ("numpy-27001", True)]
    links = (tmp_path / "html" / "links.html").read_text(encoding="utf-8")
    hrefs = re.findall(r'href="([^"]*numpy[^"]*#[^"]*)"', links)
    assert hrefs == ["numpy-27001.html#contribution", "numpy-27001.html#fix"]
    inventory = zlib.decompress((tmp_path / "html" / "objects.inv").read_bytes().split(b"\n", 4)[4]).decode()
    # the losing page is a document, not the write-up or one of its sections
    assert [line for line in inventory.splitlines() if "a-numpy.html" in line] == [
        "a-numpy std:doc -1 a-numpy.html A contribution"
    ]
    check = subprocess.run(
        [sys.executable, "-m", "sphinx_contributions", "check"], cwd=srcdir, capture_output=True, text=True, check=False
    )
    table = check.stdout.split("\n\n")[0].splitlines()
    assert table[0] == "Contributions in the published site (2):"
    assert [line.split()[0] for line in table[2:]] == ["good#1", "numpy#27001"]
    assert [line.split()[-1] for line in table[2:]] == ["good", "numpy-27001"]


def test_a_file_not_named_after_its_repository_is_the_authors_choice(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """An abbreviation (``np-27010.md`` for numpy#27001) is not a slip: no warning."""
    app = build(make_app, rootdir, tmp_path, {"np-27010.md": page(":repo: numpy/numpy", ":pr: 27001", ":summary: S.")})
    assert warnings(app) == []
    assert get_domain(app.env).contributions["np-27010"].key == "numpy#27001"


def test_a_bad_metric_is_left_out_of_the_record(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    sections = with_metric(" Drift", ":before: fast", ":after: 1")
    sections = sections.replace(":::\n::::", ":::\n\n:::{metric} Kept\n:before: 1\n:after: 2\n:::\n::::")
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(*REQUIRED, sections=sections)})
    assert len(warnings(app)) == 1
    record = get_domain(app.env).contributions["bad"]
    assert [m.label for m in record.metrics] == ["Kept"]


def test_without_html_baseurl_the_feed_is_skipped_with_an_info_line(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """A site without a canonical URL is valid and builds strictly: the feed, which needs absolute URLs,
    is not written, and the build log says so in an information line, not a warning."""
    app = build(make_app, rootdir, tmp_path, {}, confoverrides={"html_baseurl": ""})
    assert warnings(app) == []
    assert app.statuscode == 0
    status = strip_colors(app.status.getvalue()).splitlines()
    assert (
        "html_baseurl is not set (no canonical URL), so no absolute URL to the site is written; left out: "
        "canonical links, absolute URLs in contributions.json, the Atom feed contributions.atom; set html_baseurl "
        "(on Read the Docs: READTHEDOCS_CANONICAL_URL) to write them"
    ) in status
    outdir = Path(app.outdir)
    assert not (outdir / "contributions.atom").exists()
    assert (outdir / "contributions.json").is_file()
    assert "application/atom+xml" not in (outdir / "index.html").read_text(encoding="utf-8")


def test_a_sitemap_setting_without_sphinx_sitemap_says_once_it_does_nothing(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """issue 45: ``contributions_sitemap = True`` (what init writes) without sphinx-sitemap: one information
    line at its conf.py line, not a warning (before: nothing said it does nothing)."""
    app = build(make_app, rootdir, tmp_path, {"conf.py": CONF + "contributions_sitemap = True\n"})
    assert (warnings(app), app.statuscode) == ([], 0)
    line = (
        f"{Path(app.srcdir) / 'conf.py'}:5: contributions_sitemap = True has no effect: sphinx-sitemap is not "
        'loaded; for a sitemap.xml, add "sphinx_sitemap" to extensions (pip install sphinx-sitemap)'
    )
    assert strip_colors(app.status.getvalue()).splitlines().count(line) == 1


def test_metric_first_in_its_section_line(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """A metric that is the first line of its section's body: its warning on the option at fault (before:
    one line late, as MyST 5.2 reads such a body; :func:`.directives.fence_content_offset` corrects it).
    A section that holds only a figure is not written yet."""
    files = {"bad.md": page(*REQUIRED, sections=with_metric(" Drift", ":before: fast", ":after: 1", first=True))}
    app = build(make_app, rootdir, tmp_path, files)
    expected = W(
        "bad.md",
        ":before: fast",
        "metric 'Drift' not shown: before must be a number such as 0.5 or 1.03e-1, got 'fast'",
        "contrib.bad_metric",
    )
    unwritten = W(
        "bad.md",
        "::::{verification}",
        "section 'verification' is not written yet (it holds only comments or nothing)",
        "contrib.unwritten_section",
    )
    assert warnings(app) == [expected.render(Path(app.srcdir)), unwritten.render(Path(app.srcdir))]


EPUB_VERSION = (
    "the ePub needs a 'version' and conf.py sets none, so the strict build stops: add a line such as "
    "version = \"1.0\" to conf.py, beside 'project'"
)


@pytest.mark.parametrize("version", ["", "1.0"])
def test_an_epub_without_a_version_says_where_to_set_it(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, version: str
) -> None:
    """A fresh conf.py sets no ``version``: Sphinx's own EPUB3 check fails the strict build without saying
    where; this warning names conf.py and the line to add."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-warnings", srcdir)
    conf = srcdir / "conf.py"
    conf.write_text(f'author = "A. Author"\nproject = "Portfolio"\nversion = "{version}"\n' + conf.read_text())
    app = make_app("epub", srcdir=srcdir, freshenv=True, status=StringIO(), warning=StringIO())
    app.build()
    ours = [line for line in warnings(app) if "[contrib." in line]
    assert ours == ([f"{conf}:2: WARNING: {EPUB_VERSION} [contrib.config]"] if not version else [])


# -- small holes: each of these built wrongly, or warned wrongly, before ----------------------------------


@pytest.mark.parametrize(
    ("text", "placeholder"),
    [
        ("TODO", True),
        ("TODO:", True),
        ("  TODO: the title of repo#1", True),
        ("TODO … later", True),
        ("TODO...", True),
        ("TODOs considered harmful: a linter for stale comments", False),
        ("TODO lists, compared", False),
        ("Fix a TODO in the scheduler", False),
    ],
)
def test_a_placeholder_is_the_scaffolds_form(text: str, placeholder: bool) -> None:
    assert is_placeholder(text) is placeholder


def test_the_scaffolds_title_and_summary_are_placeholders() -> None:
    scaffold = SCAFFOLD.format(key="repo#1", repo="owner/repo", pr=1)
    title = scaffold.splitlines()[0].removeprefix("# ")
    summary = re.search(r"^:summary: (.*)$", scaffold, re.M)
    assert summary is not None
    assert is_placeholder(title) and is_placeholder(summary[1])


def test_a_title_that_starts_with_the_word_todo_is_written(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    title = "TODOs considered harmful: a linter for stale comments"
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(*REQUIRED, title=f"# {title}\n")})
    assert warnings(app) == []
    assert get_domain(app.env).contributions["bad"].title == title


def test_tags_without_latin_letters_keep_distinct_pages(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    overrides = {"contributions_tag_page_min": 1}  # each tag is this one write-up's: a page for each
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(*REQUIRED, ":tags: 注意, 警告")}, confoverrides=overrides)
    assert [line.rsplit(" ", 1)[-1] for line in warnings(app)] == ["[contrib.opaque_slug]"] * 2
    record = get_domain(app.env).contributions["bad"]
    assert record.tags == ("注意", "警告")
    assert len(set(record.tag_slugs)) == 2
    for slug in record.tag_slugs:
        assert (Path(app.outdir) / "tags" / f"{slug}.html").is_file()


def test_a_short_issue_link_in_the_title(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """A role in the title is read before the page's header: it still takes the header's repository."""
    files = {"bad.md": page(*REQUIRED, title="# Fix {issue}`#5` for good\n")}
    app = build(make_app, rootdir, tmp_path, files)
    assert warnings(app) == []
    html = (Path(app.outdir) / "bad.html").read_text(encoding="utf-8")
    h1 = re.search(r"<h1>(.*?)</h1>", html, re.S)
    assert h1 is not None
    assert 'href="https://github.com/owner/repo/issues/5"' in h1[1]
    assert get_domain(app.env).contributions["bad"].title == "Fix #5 for good"


def test_a_rejected_header_adds_no_toctree_warning(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """A page outside every toctree (the index's glob takes the top folder only) whose header is rejected:
    the one warning says why; Sphinx's "isn't included in any toctree" would send the author elsewhere."""
    files = {"sub/bad.md": page(":repo: owner/repo", ":pr: abc", ":summary: S.")}
    app = build(make_app, rootdir, tmp_path, files)
    message = "contribution not listed: pr must be a positive integer, got 'abc'"
    assert warnings(app) == [W("sub/bad.md", ":pr: abc", message, "contrib.bad_option").render(Path(app.srcdir))]


def test_footnotes_gathered_at_the_end_are_inside_their_section(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """MyST moves footnote definitions to the end of the page, after the last section: not the author's text
    outside the sections."""
    sections = SECTIONS.replace("\np\n", "\np, with a note[^1].\n\n[^1]: The note.\n")
    sections = sections.replace("\nv\n", "\nv, and another[^2].\n") + "\n[^2]: Defined after the last section.\n"
    app = build(make_app, rootdir, tmp_path, {"bad.md": page(*REQUIRED, sections=sections)})
    assert warnings(app) == []


# -- warnings that stay until fixed ----------------------------------------------------------------


def sphinx_build(srcdir: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``python -m sphinx`` as ``make html`` runs it (``options``: ``-W --keep-going``, ``-j 2`` …), on
    one output and doctree folder beside ``srcdir``, so each call is the next build of the same site."""
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "--no-color", *options]
    command += ["-d", str(srcdir.parent / "doctrees"), str(srcdir), str(srcdir.parent / "html")]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def shown(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in done.stderr.splitlines() if ": WARNING: " in line or ": ERROR: " in line]


#: a page with a warning of each phase: read (a bad status), cross-page check (a duplicate key, on its own
#: page) and link resolution at write time (an unknown key)
STAYING = {
    "bad.md": page(*REQUIRED, ":status: landed", sections=SECTIONS.replace("\np\n", "\nSee {contrib}`nope#3`.\n")),
    "zz.md": page(":repo: someone-else/good", ":pr: 1", ":summary: S."),
}
STAYING_WARNINGS = (
    W(
        "bad.md",
        ":status: landed",  # the option's own line
        "option ignored: status must be one of merged, open, closed, draft; got 'landed'",
        "contrib.bad_status",
    ),
    W("bad.md", "See {contrib}`nope#3`.", "{contrib} target not found: 'nope#3'", "contrib.unknown_key"),
    W(
        "zz.md",
        HEADER,
        "contribution good#1 is already declared in good.md; this page is not listed",
        "contrib.duplicate_key",
    ),
)


def staying_site(rootdir: Path, tmp_path: Path) -> Path:
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-warnings", srcdir)
    for name, text in STAYING.items():
        (srcdir / name).write_text(text, encoding="utf-8")
    return srcdir


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_warnings_stay_until_fixed(rootdir: Path, tmp_path: Path, jobs: str) -> None:
    """The strict build fails; the same build again, nothing changed, fails the same way, with the same
    lines (serial and parallel alike); each warning goes when its cause is fixed, and not before."""
    srcdir = staying_site(rootdir, tmp_path)
    expected = sorted(w.render(srcdir) for w in STAYING_WARNINGS)
    strict = ("-W", "--keep-going", "-j", jobs)
    for _ in range(2):
        done = sphinx_build(srcdir, *strict)
        assert (done.returncode, sorted(shown(done))) == (1, expected), done.stderr
    # the status fixed: the link and the duplicate key still fail the build
    bad = srcdir / "bad.md"
    bad.write_text(bad.read_text(encoding="utf-8").replace(":status: landed\n", ""), encoding="utf-8")
    expected = sorted(w.render(srcdir) for w in STAYING_WARNINGS[1:])
    for _ in range(2):
        done = sphinx_build(srcdir, *strict)
        assert (done.returncode, sorted(shown(done))) == (1, expected), done.stderr
    # a page with the linked key added: the link resolves, the page that links is unchanged
    (srcdir / "nope.md").write_text(page(":repo: owner/nope", ":pr: 3", ":summary: S."), encoding="utf-8")
    (srcdir / "zz.md").unlink()
    for _ in range(2):
        done = sphinx_build(srcdir, *strict)
        assert (done.returncode, shown(done)) == (0, []), done.stderr


def test_warnings_stay_in_the_preview(rootdir: Path, tmp_path: Path) -> None:
    """``make serve`` is not strict: every rebuild still shows the warnings, and exits 0."""
    srcdir = staying_site(rootdir, tmp_path)
    expected = sorted(w.render(srcdir) for w in STAYING_WARNINGS)
    for _ in range(3):
        done = sphinx_build(srcdir, "-D", "contributions_include_drafts=1")
        assert (done.returncode, sorted(shown(done))) == (0, expected), done.stderr


def test_a_suppressed_warning_does_not_stay(rootdir: Path, tmp_path: Path) -> None:
    srcdir = staying_site(rootdir, tmp_path)
    (srcdir / "zz.md").unlink()
    options = ("-W", "--keep-going", "-D", "suppress_warnings=contrib.bad_status,contrib.unknown_key")
    for _ in range(2):
        done = sphinx_build(srcdir, *options)
        assert (done.returncode, shown(done)) == (0, []), done.stderr


# -- the build's report ------------------------------------------------------------------------------


def test_the_report_holds_records_and_warnings(rootdir: Path, tmp_path: Path) -> None:
    srcdir = staying_site(rootdir, tmp_path)
    assert sphinx_build(srcdir, "-W", "--keep-going").returncode == 1
    path = tmp_path / "doctrees" / "contributions-report.html.json"
    report = json.loads(path.read_text(encoding="utf-8"))
    assert (report["version"], report["builder"], report["drafts"]) == (1, "html", [])
    assert [(r["key"], r["docname"], r["path"], r["published"]) for r in report["records"]] == [
        ("repo#1", "bad", "bad.md", True),
        ("good#1", "good", "good.md", True),
        ("good#1", "zz", "zz.md", False),
    ]
    assert report["records"][0]["sections"] == ["problem", "root-cause", "fix", "verification"]
    assert report["warnings"] == [
        {
            "page": "bad",
            "path": "bad.md",
            "line": 7,  # the option's line
            "level": "WARNING",
            "type": "contrib.bad_status",
            "message": "option ignored: status must be one of merged, open, closed, draft; got 'landed'",
        },
        {
            "page": "bad",
            "path": "bad.md",
            "line": 11,
            "level": "WARNING",
            "type": "contrib.unknown_key",
            "message": "{contrib} target not found: 'nope#3'",
        },
        {
            "page": "zz",
            "path": "zz.md",
            "line": 3,
            "level": "WARNING",
            "type": "contrib.duplicate_key",
            "message": "contribution good#1 is already declared in good.md; this page is not listed",
        },
    ]
    first, written = path.read_bytes(), path.stat()
    assert sphinx_build(srcdir, "-W", "--keep-going").returncode == 1  # the next build: the same report
    assert path.read_bytes() == first
    # not written again: a watcher (sphinx-autobuild) sees no change (tests/test_autobuild.py)
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    parallel = staying_site(rootdir, tmp_path / "parallel")  # another folder, in parallel: the same bytes
    assert sphinx_build(parallel, "-W", "--keep-going", "-j", "2").returncode == 1
    assert (tmp_path / "parallel" / "doctrees" / "contributions-report.html.json").read_bytes() == first


@pytest.mark.parametrize("builder", ["text", "singlehtml", "latex"])
def test_every_builder_writes_a_report(rootdir: Path, tmp_path: Path, builder: str) -> None:
    srcdir = staying_site(rootdir, tmp_path)
    command = [sys.executable, "-m", "sphinx", "-b", builder, "-q", "-d", str(tmp_path / "dt"), str(srcdir)]
    subprocess.run([*command, str(tmp_path / "out")], capture_output=True, text=True, check=False)
    report = json.loads((tmp_path / "dt" / f"contributions-report.{builder}.json").read_text(encoding="utf-8"))
    assert report["builder"] == builder
    assert [w["type"] for w in report["warnings"]][:1] == ["contrib.bad_status"]
    assert {"contrib.bad_status", "contrib.duplicate_key"} <= {w["type"] for w in report["warnings"]}


def test_tags_spelt_apart_on_two_pages_that_share_a_tag_page_warn(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    page = (rootdir / "test-contrib-warnings" / "good.md").read_text(encoding="utf-8")
    files = {
        "csharp.md": page.replace(":repo: owner/good", ":repo: owner/csharp").replace(":pr: 1", ":pr: 1\n:tags: C#"),
        "plainc.md": page.replace(":repo: owner/good", ":repo: owner/plainc").replace(":pr: 1", ":pr: 1\n:tags: C"),
    }
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-contrib-warnings", srcdir)
    for name, text in files.items():
        (srcdir / name).write_text(text, encoding="utf-8")
    for _ in range(2):  # and again on a build with nothing to do: a warning stays until fixed
        app = make_app("html", srcdir=srcdir, status=StringIO(), warning=StringIO())
        app.build()
        assert [line for line in warnings(app) if "[contrib." in line] == [
            f"{srcdir / 'plainc.md'}:3: WARNING: contribution plainc#1: the tag 'C' and 'C#' of csharp.md share one "
            "tag page (c); spell them the same, or tell them apart [contrib.tag_clash]"
        ]


def test_the_directives_that_report_comments_are_those_with_options() -> None:
    """MyST's "# comments" warning is dropped for exactly the directives that report each '#' themselves."""
    import sys as _sys

    from sphinx_contributions.read import names
    from sphinx_contributions.read.directives import OptionsDirective

    _sys.path.insert(0, str(Path(__file__).parent.parent / "docs" / "_ext"))
    try:
        from contrib_reference import extension_names
    finally:
        _sys.path.pop(0)
    reporting = {name for name, cls in extension_names()[0].items() if issubclass(cls, OptionsDirective)}
    assert set(names._REPORTING) == reporting
