"""The first release that shipped a merge, by one rule (stated once in AUTHORING's "Facts from the forge").

**The first release** of a merged pull request is the earliest-published release (not a draft; not a
pre-release unless asked) whose tag contains the merge commit, as the forge's compare says. Releases are not
a line: a maintenance branch publishes 1.0.x between 2.x releases, and a release can be published long after
its tag was made (a backfill), so "a later release contains what an earlier one did" is false and no search
may skip a release on that assumption. The search therefore asks, for each release published at or after
the merge (none published before it can contain it: its tag was made before the commit existed), in the
order they were published, whether its tag contains the commit, and stops at the first that does.

**Its bound**: one compare call per release published between the merge and the first release that
contains it, inclusive; on a history where each release is tagged from the branch the pull request was
merged into, that is one call (the next release ships it), and none when no release was published since the
merge. Each compare is asked once per run, and the result is kept in the cache folder with the list of
releases it was found in: a next sync with no new release asks no compare at all.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from .base import Release


def candidates(releases: list[Release], merged_at: str | None, *, prereleases: bool = False) -> list[Release]:
    """The releases that can hold a merge of ``merged_at`` (UTC), in the order they were published."""
    chosen = [r for r in releases if prereleases or not r.prerelease]
    if merged_at:
        chosen = [r for r in chosen if r.published_at >= merged_at]  # both UTC, one format: text order is time order
    return sorted(chosen, key=lambda release: (release.published_at, release.tag))


def first_release(
    releases: list[Release], merged_at: str | None, contains: Callable[[str], bool], *, prereleases: bool = False
) -> Release | None:
    """The first release that contains the merge (the module's rule): ``contains(tag)`` asks the forge."""
    for release in candidates(releases, merged_at, prereleases=prereleases):
        if contains(release.tag):
            return release
    return None


def digest(releases: list[Release]) -> str:
    """A short digest of a release list, to know whether a remembered answer was found in the same list."""
    text = "\n".join(f"{r.tag}\t{r.published_at}\t{int(r.prerelease)}" for r in releases)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
