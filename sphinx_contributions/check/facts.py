"""The page's claims against the forge's facts in ``contributions.lock.json`` (read onto the domain by
:mod:`..collect.lock_facts`): ``[contrib.forge_mismatch]`` where they disagree, on the page's line, so a
strict build refuses a stale claim."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.config import Config

    from ..model import ForgeFacts


def check_facts(
    config: Config,
    lock_name: str,
    key: str,
    status: str | None,
    status_at: tuple[str, int],
    title: str,
    title_at: object,
    found: ForgeFacts,
) -> None:
    """``[contrib.forge_mismatch]`` where the page disagrees with the lock (called by the domain while the
    page is read; ``lock_name``: the lock as shown)."""
    name = lock_name
    if status in ("merged", "open", "closed") and status != found.state:
        warn(
            ContribWarning.FORGE_MISMATCH,
            f"contribution {key}: the page says ':status: {status}', but {name} says the pull request is "
            f"{found.state} (fetched {found.fetched_at}); correct the page, or run 'contributions sync' if the "
            "forge has changed since",
            status_at,
        )
    if config.contributions_check_titles and " ".join(title.split()) != " ".join(found.title.split()):
        warn(
            ContribWarning.FORGE_MISMATCH,
            f"contribution {key}: the title is not the pull request's title in {name}, {found.title!r} "
            "(contributions_check_titles is on)",
            title_at,
        )
