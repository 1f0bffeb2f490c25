"""Every warning the extension emits, one member per kind, shown as ``[contrib.<subtype>]``."""

from __future__ import annotations

import difflib
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple

from sphinx.util import logging

if TYPE_CHECKING:
    from collections.abc import Iterable

logger = logging.getLogger(__name__)

WARNING_TYPE = "contrib"


class ContribWarning(Enum):
    """The kinds of problem the extension reports."""

    #: a required ``contribution`` option is missing
    MISSING_OPTION = "missing_option"
    #: an option value does not parse (``repo``, ``pr``, ``issue``, ``date``, ``tags`` …)
    BAD_OPTION = "bad_option"
    #: a title or summary is still the scaffold's placeholder (``TODO`` alone, ``TODO: …`` or ``TODO …``)
    PLACEHOLDER = "placeholder"
    #: a contribution page has no heading to take its title from
    MISSING_TITLE = "missing_title"
    #: ``status`` is not one of merged, open, closed, draft
    BAD_STATUS = "bad_status"
    #: a ``metric`` has a missing or non-numeric value, or an unknown ``better``
    BAD_METRIC = "bad_metric"
    #: a ``metric``'s ``:evidence:`` item is not a pull request, issue, commit or URL
    BAD_EVIDENCE = "bad_evidence"
    #: a contribution page lacks one of the four sections
    MISSING_SECTION = "missing_section"
    #: a section directive appears twice on one page
    DUPLICATE_SECTION = "duplicate_section"
    #: a section directive appears on a page without a ``contribution`` header
    SECTION_OUTSIDE = "section_outside"
    #: a section has no written content (only the scaffold's prompt comments)
    UNWRITTEN_SECTION = "unwritten_section"
    #: a second ``contribution`` directive on one page
    DUPLICATE_HEADER = "duplicate_header"
    #: two pages declare the same key
    DUPLICATE_KEY = "duplicate_key"
    #: ``{contrib}`` names a key that no page declares
    UNKNOWN_KEY = "unknown_key"
    #: ``{contrib}`` names a section that the write-up does not have (``key#section``)
    UNKNOWN_SECTION = "unknown_section"
    #: a write-up's ``{ref}`` label (``<repository name>-<pr>[-<section>]``) is already defined elsewhere
    DUPLICATE_LABEL = "duplicate_label"
    #: two write-ups spell tags differently that share one tag page (``C#`` and ``C``: ``tags/c.html``)
    TAG_CLASH = "tag_clash"
    #: ``{contrib}`` names a draft, which the published build leaves out
    DRAFT_LINK = "draft_link"
    #: a page with ``status: draft`` that the draft scan did not leave out, so it would be published
    DRAFT_NOT_EXCLUDED = "draft_not_excluded"
    #: ``{pr}`` / ``{issue}`` target that is not ``owner/repo#N`` or ``#N``
    BAD_TARGET = "bad_target"
    #: ``{export}`` names a file that is not one of the extension's exports
    UNKNOWN_EXPORT = "unknown_export"
    #: a ``contributions`` listing option that does not parse, or content in a ``projects`` listing
    #: that is not a ``project`` intro
    BAD_LISTING = "bad_listing"
    #: a ``project`` intro that names no project with a write-up, or that sits outside a ``projects`` listing
    UNKNOWN_PROJECT = "unknown_project"
    #: a setting the extension reads has a value it cannot use (``SOURCE_DATE_EPOCH`` that is not a Unix
    #: time), or settings that contradict each other (sphinx-sitemap's ``site_url`` is not ``html_baseurl``)
    CONFIG = "config"
    #: a tag or project with no Latin letter or digit, so its page gets an opaque address (``tags/tag-1a2b3c4d``)
    OPAQUE_SLUG = "opaque_slug"
    #: a write-up's layout is not its title, the header, then the four sections in order: sections out of
    #: order, or text, figures or headings outside the sections
    STRUCTURE = "structure"
    #: a section's fence mistake: a section never closed, a section inside another, or a section closed
    #: early by the fence of a directive it holds (three colons around a nested ``metric``)
    NESTING = "nesting"
    #: another package's private shape the extension relies on is missing (a newer release renamed it):
    #: the warning names the package, its version and what the build loses
    COMPAT = "compat"
    #: two elements of one page have the same HTML id (a ``## Problem`` heading or a ``(fix)=`` label beside
    #: the section of that name)
    DUPLICATE_ID = "duplicate_id"
    #: the page's ``:status:`` (or title, with ``contributions_check_titles``) is not what
    #: ``contributions.lock.json`` says the forge said
    FORGE_MISMATCH = "forge_mismatch"
    #: ``contributions.lock.json`` cannot be read or does not follow its schema
    LOCK = "lock"
    #: a directive, option or role name that is not known and is a near miss (:func:`.warnings.closest`) of one of
    #: the extension's: "did you mean"; any option its directives do not have (the one warning for it)
    UNKNOWN_NAME = "unknown_name"
    #: a write-up uses a short name (``{pr}``, ``:::{fix}``) that another extension holds on this site
    SHORT_NAME = "short_name"
    #: a write-up named after a key (``numpy-27001.md``) whose header declares another number or repository
    FILE_NAME = "file_name"
    #: a page in the write-ups' folder with nothing in it
    EMPTY_PAGE = "empty_page"
    #: a write-up's title is longer than listings, cards and the browser's tab show
    LONG_TITLE = "long_title"
    #: ``html_theme`` names a theme that is not installed (the build goes on with alabaster)
    MISSING_THEME = "missing_theme"
    #: the git history is shallow and an undated write-up's feed entry would take the time of the clone's
    #: boundary commit (on that write-up's header)
    SHALLOW_HISTORY = "shallow_history"


def warn(kind: ContribWarning, message: str, location: Any, once: bool = False) -> None:
    """Log a warning of ``kind`` at ``location``; ``once``: not again in this build if logged with ``once``."""
    logger.warning(message, type=WARNING_TYPE, subtype=kind.value, location=location, once=once)


#: how alike a name and a candidate must be to suggest it (:func:`difflib.get_close_matches`' ratio): one
#: slip in a three-letter name ("fxi", "fox" for "fix") is 0.67, two letters of three wrong ("foo") 0.33
CLOSE_ENOUGH = 0.6


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``name`` is most likely a typo of (any case); None when ``name`` is one or none is near."""
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


class WarningDoc(NamedTuple):
    """One warning kind, as the manual's reference shows it beside its cause (the member's comment)."""

    #: the message as a build shows it, for one case (the part before ``[contrib.KIND]``)
    example: str
    #: how to fix it
    fix: str


#: each kind: a message as a user sees it, and the fix (the manual's reference, docs/_ext/contrib_reference.py)
WARNING_DOCS: dict[ContribWarning, WarningDoc] = {
    ContribWarning.MISSING_OPTION: WarningDoc(
        "contribution is missing required option(s): repo; the page is not listed",
        "Add the option named to the `contribution` header: `:repo:`, `:pr:` and `:summary:` are required.",
    ),
    ContribWarning.BAD_OPTION: WarningDoc(
        "option ignored: date '2023-02-30' does not exist (day is out of range for month)",
        "Write the value in the form the message gives; a required option's bad value leaves the page unlisted.",
    ),
    ContribWarning.PLACEHOLDER: WarningDoc(
        "contribution repo#1: the title is not written yet (it is still a 'TODO' placeholder)",
        "Replace the `TODO: …` title or summary that `contributions new` wrote with your own words.",
    ),
    ContribWarning.MISSING_TITLE: WarningDoc(
        "contribution repo#1 has no heading; its key is used as title",
        "Give the page a `# Title` line above the header.",
    ),
    ContribWarning.BAD_STATUS: WarningDoc(
        "option ignored: status must be one of merged, open, closed, draft; got 'landed'",
        "Write one of `merged`, `open`, `closed` or `draft`, or remove `:status:`.",
    ),
    ContribWarning.BAD_METRIC: WarningDoc(
        "metric not shown: before must be a number such as 0.5 or 1.03e-1, got 'fast'",
        "Give the figure a label and two numbers (`:before:`, `:after:`); `:better:` is `lower` or `higher`.",
    ),
    ContribWarning.BAD_EVIDENCE: WarningDoc(
        "metric 'Latency': evidence left out: 'PR #12' is not a pull request, issue, commit or URL",
        "Write each item as `PR 12`, `issue 3`, `commit 0123abc`, `owner/repo#N`, `owner/repo@SHA` or an address.",
    ),
    ContribWarning.MISSING_SECTION: WarningDoc(
        "contribution repo#1 is missing section(s): fix, verification",
        "Add the sections named: a write-up has `problem`, `root-cause`, `fix` and `verification`, in order.",
    ),
    ContribWarning.DUPLICATE_SECTION: WarningDoc(
        "section 'problem' is given twice on this page; only the first has the anchor '#problem'",
        "Merge the two sections into one.",
    ),
    ContribWarning.SECTION_OUTSIDE: WarningDoc(
        "'fix' belongs on a contribution page, after the 'contribution' directive",
        "Add a `contribution` header above the sections, or use an ordinary heading on this page.",
    ),
    ContribWarning.UNWRITTEN_SECTION: WarningDoc(
        "section 'fix' is not written yet (it holds only comments or nothing)",
        "Replace the section's `%` prompt lines with the write-up, or mark it `:unknown:`.",
    ),
    ContribWarning.DUPLICATE_HEADER: WarningDoc(
        "a page holds one contribution; this second 'contribution' directive is ignored",
        "Move the second write-up to a page of its own (`contributions new` starts one).",
    ),
    ContribWarning.DUPLICATE_KEY: WarningDoc(
        "contribution good#1 is already declared in good.md; this page is not listed",
        "Delete one of the two pages, or give this one a key of its own (`:key:`).",
    ),
    ContribWarning.UNKNOWN_KEY: WarningDoc(
        "{contrib} target not found: 'godo#9'; the closest existing keys: 'good#1'",
        "Write an existing key (`<repository name>#<pr>`); where the message names a page that is not listed, "
        "fix that page's own warning first.",
    ),
    ContribWarning.UNKNOWN_SECTION: WarningDoc(
        "{contrib} target not found: 'good#1#causes': good#1 has no section 'causes' (its sections: problem, "
        "root-cause, fix, verification)",
        "Write one of the sections the message lists after the key.",
    ),
    ContribWarning.DUPLICATE_LABEL: WarningDoc(
        "contribution good#1: the label 'good-1-fix' is already defined in bad.md; {ref} links to that one",
        "Rename the other label: the write-up's labels are `<repository name>-<pr>` and `…-<section>`.",
    ),
    ContribWarning.TAG_CLASH: WarningDoc(
        "contribution b#2: the tag 'C#' and 'C' of a.md share one tag page (c); spell them the same, or tell "
        "them apart",
        "Spell the tag one way on every page, or rename one so their addresses differ.",
    ),
    ContribWarning.DRAFT_LINK: WarningDoc(
        "{contrib} links to draft#4, a draft (draft) that the published site leaves out",
        "Publish the draft (set its `:status:`), or link to it once it is published.",
    ),
    ContribWarning.DRAFT_NOT_EXCLUDED: WarningDoc(
        "contribution a#1 is a draft but its header was not found before the build (is it nested in another "
        "directive?), so it would be published; put the 'contribution' directive at the top level of the page",
        "Put the `contribution` header at the top level of the page, not inside another directive.",
    ),
    ContribWarning.BAD_TARGET: WarningDoc(
        "{pr} target not linked: expected 'owner/repo#N' or '#N', got 'transformers#1'",
        "Write `owner/repo#N`, or `#N` on a write-up for its own repository.",
    ),
    ContribWarning.UNKNOWN_EXPORT: WarningDoc(
        "{export} 'feed.xml' is not one of the exports (contributions.json, contributions.schema.json, "
        "contributions.atom); shown as text",
        "Name one of the exports the message lists.",
    ),
    ContribWarning.BAD_LISTING: WarningDoc(
        "contributions listing: layout must be one of table, cards, proof, got 'card': did you mean 'cards'?",
        "Write the option's value as the message says; a `projects` listing holds `project` intros only.",
    ),
    ContribWarning.UNKNOWN_PROJECT: WarningDoc(
        "project intro 'numpy' names no project with a write-up; it is not shown",
        "Name a project that has a write-up (its display name or repository name), inside a `projects` listing.",
    ),
    ContribWarning.CONFIG: WarningDoc(
        'myst_enable_extensions has no "colon_fence": write-ups\' ":::" directives would be read as plain text; '
        'add "colon_fence" to myst_enable_extensions in conf.py',
        "Change the setting of `conf.py` the message names, at the line it gives.",
    ),
    ContribWarning.OPAQUE_SLUG: WarningDoc(
        "tag '注意' has no Latin letter or digit, so its page gets an opaque address, tags/tag-4ffef8f3: add Latin "
        "letters or digits to the tag (a transliteration, say) for a readable one",
        "Add Latin letters or digits to the tag or project name.",
    ),
    ContribWarning.STRUCTURE: WarningDoc(
        "content at line 17 is outside the sections, between the 'root-cause' and 'verification' sections: a "
        "write-up's text goes inside its four sections; move it into one of them",
        "Keep the page to its title, the header, then the four sections in order, everything inside them.",
    ),
    ContribWarning.NESTING: WarningDoc(
        "the 'fix' section opened at line 17 is not closed before the 'verification' section (line 21), so "
        "'verification' is inside it: close 'fix' with ':::' on a line before ':::{verification}'",
        "Close each section with its own fence; a section that holds a `metric` takes four colons.",
    ),
    ContribWarning.COMPAT: WarningDoc(
        "sphinx 9.1 has no EventManager.listeners: …",
        "Install the versions the extension supports, or update the extension; the message says what the build "
        "loses meanwhile.",
    ),
    ContribWarning.DUPLICATE_ID: WarningDoc(
        "the id 'problem' is given twice on this page, to the heading 'Problem' (line 9) and the 'problem' "
        "section (line 11): ids must be unique; rename or remove the heading",
        "Rename or remove the heading or label that repeats a section's name.",
    ),
    ContribWarning.FORGE_MISMATCH: WarningDoc(
        "contribution demo#1: the status 'open' is not what contributions.lock.json says: merged",
        "Correct the page, or run `contributions sync` to fetch the forge's facts again.",
    ),
    ContribWarning.LOCK: WarningDoc(
        "contributions.lock.json cannot be read: …",
        "Run `contributions sync` to write the lock again, or delete it.",
    ),
    ContribWarning.UNKNOWN_NAME: WarningDoc(
        "'contribution' has no option 'state': did you mean 'status'? Write ':status:'",
        "Write the name the message suggests.",
    ),
    ContribWarning.SHORT_NAME: WarningDoc(
        "{pr} is another extension's role on this site (extlinks or sphinx-issues, say, holds the short name "
        "'pr'), so this is not a link of sphinx-contributions: write {contrib:pr}",
        "Write the namespaced form the message names; the site's own role stays as it is.",
    ),
    ContribWarning.FILE_NAME: WarningDoc(
        "the file name numpy-27001.md gives another number than ':pr:', so the page is published as "
        "numpy#27010: correct ':pr:', or rename the file to numpy-27010.md",
        "Correct `:pr:`, or rename the file as the message says.",
    ),
    ContribWarning.EMPTY_PAGE: WarningDoc(
        "the page is empty: write the contribution here ('contributions new' starts one from its pull request) "
        "or delete the file",
        "Write the page, or delete the file.",
    ),
    ContribWarning.LONG_TITLE: WarningDoc(
        "contribution demo#1: the title is 142 characters long; listings, cards and the browser's tab show "
        "about 120: shorten it and say the rest in the summary or the sections",
        "Shorten the title; say the rest in the summary.",
    ),
    ContribWarning.MISSING_THEME: WarningDoc(
        "html_theme 'no_such_theme' is not installed; install it with: pip install no-such-theme (this build "
        "uses alabaster instead)",
        "Install the theme (add it to `requirements.txt`), or correct `html_theme`.",
    ),
    ContribWarning.SHALLOW_HISTORY: WarningDoc(
        "the git history is shallow: this write-up's feed entry (no 'date') would take the time of the clone's "
        "boundary commit, not of its last commit; fetch the whole history ('git fetch --unshallow') or give the "
        "page a ':date:'",
        "Fetch the whole history (`git fetch --unshallow`), or give the write-up a `:date:`.",
    ),
}
