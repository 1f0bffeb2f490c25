"""Every warning the extension emits, one member per kind, shown as ``[contrib.<subtype>]``."""

from __future__ import annotations

import difflib
from enum import Enum
from typing import TYPE_CHECKING, Any

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
    #: a listing option that does not parse, or content in a ``projects`` listing that is no ``project`` intro
    BAD_LISTING = "bad_listing"
    #: a ``project`` intro that names no project with a write-up, or that sits outside a ``projects`` listing
    UNKNOWN_PROJECT = "unknown_project"
    #: a setting's value cannot be used (``SOURCE_DATE_EPOCH``), or settings contradict each other
    CONFIG = "config"
    #: a tag or project with no Latin letter or digit, so its page gets an opaque address (``tags/tag-1a2b3c4d``)
    OPAQUE_SLUG = "opaque_slug"
    #: a write-up's parts are not title, header, then the four sections in order, or stand outside them
    STRUCTURE = "structure"
    #: a section never closed, inside another, or closed early by the fence of a directive it holds
    NESTING = "nesting"
    #: another package's private shape the extension relies on is missing (a newer release renamed it)
    COMPAT = "compat"
    #: two elements of one page have the same HTML id (a ``## Problem`` heading beside that section)
    DUPLICATE_ID = "duplicate_id"
    #: the page's ``:status:`` (or title) is not what ``contributions.lock.json`` says the forge said
    FORGE_MISMATCH = "forge_mismatch"
    #: ``contributions.lock.json`` cannot be read or does not follow its schema
    LOCK = "lock"
    #: an unknown directive, option or role name near one of the extension's, or an option it lacks
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
    #: a shallow clone: an undated write-up's feed entry would take the boundary commit's time
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
