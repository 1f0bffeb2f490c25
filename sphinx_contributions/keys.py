"""Names and addresses, one place each: keys, labels and ``objects.inv`` names, slugs, generated pages' docnames,
the forges' URLs."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

#: the four sections of a write-up, in page order: (directive name = anchor, default heading)
SECTIONS: tuple[tuple[str, str], ...] = (
    ("problem", "Problem"),
    ("root-cause", "Root cause"),
    ("fix", "Fix"),
    ("verification", "Verification"),
)
SECTION_NAMES = tuple(name for name, _ in SECTIONS)


POSITIVE_INT = re.compile(r"^[1-9][0-9]{0,9}$")


_SLUG_DROP = re.compile(r"[^a-z0-9]+")
#: slugs name files (tags/<slug>.html): a very long tag or project must not exceed a file name's limit
MAX_SLUG = 100


def make_key(repo: str, pr: int | str) -> str:
    """The one way a key is built: the repository's name (without its owner), ``#``, the PR number."""
    return f"{repo.rpartition('/')[2]}#{str(pr).strip().lstrip('#')}"


def split_target(target: str) -> tuple[str, str | None]:
    """A ``{contrib}`` target → (key, section or None): ``a#1#fix`` → (``a#1``, ``fix``)."""
    repo, _, rest = target.strip().partition("#")
    number, sep, section = rest.partition("#")
    return f"{repo}#{number}" if rest else repo, (section.strip().lower() if sep else None)


def object_name(key: str, section: str | None = None) -> str:
    """A write-up's (or section's) name in ``objects.inv``: the key lowercased (``ctranslate2#2103``)."""
    return key_lookup(key) + (f"#{section}" if section else "")


def label(key: str, section: str | None = None) -> str:
    """A write-up's (or section's) ``{ref}`` label, as its file name (``ctranslate2-2103-root-cause``)."""
    return key_lookup(key).replace("#", "-") + (f"-{section}" if section else "")


#: between a write-up's title and a section's heading, in link texts and ``objects.inv``
SECTION_SEPARATOR = " — "


def tag_page(tag: str, folder: str = "tags") -> str:
    """The docname of the generated page of one tag."""
    return f"{folder}/{slugify(tag)}"


def project_page(project: str, folder: str = "projects") -> str:
    """The docname of the generated page of one project."""
    return f"{folder}/{slugify(project)}"


def pr_url(repo: str, number: int) -> str:
    """The page of pull (merge) request ``number`` on the repository's forge (:mod:`.forges`)."""
    from . import forges  # here: the forges' tables cost a guest site's build

    return forges.pr_url(repo, number)


def issue_url(repo: str, number: int) -> str:
    from . import forges

    return forges.issue_url(repo, number)


def commit_url(repo: str, sha: str) -> str:
    from . import forges

    return forges.commit_url(repo, sha)


@lru_cache(maxsize=4096)  # every listing, header and page link asks for the same few tags' slugs
def slugify(text: str) -> str:
    """A URL- and class-safe slug (``C++`` → ``c-plus-plus``); no Latin letter or digit: a digest."""
    return _readable_slug(text) or "tag-" + hashlib.sha256(text.strip().encode()).hexdigest()[:8]


def _readable_slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()  # keep é as e
    slug = _SLUG_DROP.sub("-", ascii_text.lower().replace("+", " plus ")).strip("-")
    return slug[:MAX_SLUG].rstrip("-")


def is_opaque_slug(text: str) -> bool:
    """Whether ``text`` has no Latin letter or digit, so :func:`slugify` gives it an unreadable digest."""
    return not _readable_slug(text)


def key_lookup(key: str) -> str:
    """The form keys are compared in: keys match without regard to case."""
    return key.strip().lower()


_KEY_FILE = re.compile(r"^(?P<name>.+)-(?P<number>[1-9][0-9]{0,9})$")


def file_name_key(docname: str) -> str:
    """A page's file name, lowercased, without folder or suffix: :func:`label` of the key it is named after."""
    return docname.rpartition("/")[2].lower()


def named_after_key(docname: str, key: str) -> bool:
    """Whether the page's file name is its key's, as ``contributions new`` names it."""
    return file_name_key(docname) == label(key)


def names_another_pr(docname: str, repo: str, pr: int) -> bool:
    """Whether the file is named after the repository with another number (``numpy-27001.md``, ``:pr: 27010``)."""
    match = _KEY_FILE.match(file_name_key(docname))
    return match is not None and match["name"] == key_lookup(repo.rpartition("/")[2]) and int(match["number"]) != pr


def repo_of_url(value: str) -> str:
    """A repository's address (or a tab of it) as its spec (``owner/name``); anything else as it is."""
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
