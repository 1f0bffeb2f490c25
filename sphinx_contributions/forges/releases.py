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
merge. Each tag's answer is kept in the cache folder (:mod:`.cache`): a tag found not to contain the merge
is not asked again, so a next sync asks no compare, and a new release costs one. A pull request in no
release, whose every later release is on another line, would cost one call per release: one sync makes at
most :data:`MAX_COMPARES` calls per pull request, says so, and the next sync goes on where it stopped.
"""

from __future__ import annotations

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


#: the most compare calls the search for one pull request's first release makes in one sync
MAX_COMPARES = 10


def first_release(
    releases: list[Release],
    merged_at: str | None,
    known: Callable[[str], bool | None],
    compare: Callable[[str], bool],
    *,
    prereleases: bool = False,
    limit: int = MAX_COMPARES,
) -> tuple[Release | None, int]:
    """The first release that contains the merge (the module's rule), and how many releases that may hold
    it were left unasked (0 unless ``limit`` compares were made first). ``known(tag)`` is what an earlier
    sync found (None: not asked), ``compare(tag)`` asks the forge."""
    chosen = candidates(releases, merged_at, prereleases=prereleases)
    asked = 0
    for i, release in enumerate(chosen):
        found = known(release.tag)
        if found is None:
            if asked == limit:
                return None, len(chosen) - i
            found = compare(release.tag)
            asked += 1
        if found:
            return release, 0
    return None, 0
