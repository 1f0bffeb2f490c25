"""The build's side of ``contributions.lock.json``: read at ``env-get-outdated`` onto the domain (a page whose
entry changed is read again); entries without a page and pages without an entry are information lines."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from ..files import digest
from ..keys import key_lookup
from ..warnings import ContribWarning, warn
from .domain import get_domain

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..records import Contribution, ForgeFacts

logger = logging.getLogger(__name__)

#: the domain data keys: lookup key → the lock's :class:`~.records.ForgeFacts`; the lock's name (or None)
DATA_KEY = "lock"
NAME_KEY = "lock_name"
#: lookup key → (repository, pr) the entry was fetched for
TARGETS_KEY = "lock_targets"


def lock_path(app: Sphinx) -> Path | None:
    name = app.config.contributions_lock
    return (Path(app.confdir) / name) if name else None


def load_lock(app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]) -> list[str]:
    """``env-get-outdated``: read the lock onto the domain; the pages whose entry changed, to read again."""
    domain = get_domain(env)
    path = lock_path(app)
    entries: dict[str, ForgeFacts] = {}
    targets: dict[str, tuple[str, int]] = {}
    name = None
    if path is not None and path.is_file():
        from ..lock import LockError, facts, read_lock  # here: a site without a lock never loads the forges

        name = app.config.contributions_lock
        try:
            read = read_lock(path)
            entries = {key_lookup(key): facts(entry) for key, entry in read.items()}
            targets = {key_lookup(key): (str(entry["repository"]), int(entry["pr"])) for key, entry in read.items()}
        except LockError as error:
            warn(ContribWarning.LOCK, f"{error}; the build goes on without it", f"{path}:{error.line}")
            name = None
    domain.data[DATA_KEY] = entries
    domain.data[TARGETS_KEY] = targets
    domain.data[NAME_KEY] = name
    return sorted(
        docname
        for docname, record in domain.contributions.items()
        if digest(record.forge) != digest(entries.get(key_lookup(record.key)))
    )


def report_coverage(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-check-consistency``: entries without a page and pages without an entry, as information."""
    domain = get_domain(env)
    name = domain.data.get(NAME_KEY)
    if name is None:
        return
    entries: dict[str, ForgeFacts] = domain.data.get(DATA_KEY) or {}
    published: list[Contribution] = domain.published()
    keys = {key_lookup(record.key) for record in published}
    for key in sorted(set(entries) - keys):
        logger.info(f"{name}: {key} has an entry but no write-up")
    for record in sorted(published, key=lambda r: key_lookup(r.key)):
        if key_lookup(record.key) not in entries:
            logger.info(f"{name}: {record.key} has no entry (run 'contributions sync')")
