"""Drop the words no page holds, which Sphinx keeps as empty entries, so an incremental ``searchindex.js`` equals a
clean one.

Workaround ``search_index``: sphinx ``>=7.4,<10``; upstream: no upstream issue found."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...compat import needed
from ..manifest import shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def prune_search_index(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages`` (runs before the index is dumped): drop words that no page holds."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return []
    indexer = getattr(app.builder, "indexer", None)
    if indexer is None or not needed("search_index"):
        return []
    for mapping in (indexer._mapping, indexer._title_mapping):
        for word in [word for word, docnames in mapping.items() if not docnames]:
            del mapping[word]
    return []
