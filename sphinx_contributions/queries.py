"""The listing queries: which records a listing shows and in what order, the generated pages, and which of two
pages declaring one key owns it. Nothing here touches Sphinx."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .keys import key_lookup, named_after_key, slugify

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .records import Contribution, GeneratedPage


def generated_pages(
    records: Iterable[Contribution], tag_min: int = 1, project_min: int = 1
) -> dict[str, GeneratedPage]:
    """pagename → :class:`GeneratedPage` of each project and tag with enough ``records``, sorted."""
    from .records import GeneratedPage  # here: the records' module is the write-ups' (a guest never loads it)

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
    """The generated page of each project of ``records``: those named in ``first`` first, then by name."""
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


def ownership(record: Contribution) -> tuple[bool, str]:
    """The order pages declaring one key claim it: the page named after the key first, then by docname."""
    return not named_after_key(record.docname, record.key), record.docname
