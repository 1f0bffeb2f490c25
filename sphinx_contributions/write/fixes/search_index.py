"""Sphinx's search index keeps a word that disappeared from a changed page as an empty entry: drop
words that no page holds any more, so an incremental build's ``searchindex.js`` equals a clean build's.

The word tables are private (``IndexBuilder._mapping`` and ``_title_mapping``, word → docnames): when a
release of Sphinx no longer has them, a ``[contrib.compat]`` warning says so (:mod:`...compat`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...compat import incompatible
from ..gates import shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx

TABLES = ("_mapping", "_title_mapping")


def prune_search_index(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages`` (runs before the index is dumped): drop words that no page holds."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return []
    indexer = getattr(app.builder, "indexer", None)
    if indexer is None:
        return []
    tables = [getattr(indexer, name, None) for name in TABLES]
    if not all(isinstance(table, dict) for table in tables):
        incompatible(
            "sphinx",
            "IndexBuilder._mapping/_title_mapping (word → pages)",
            "words that left a changed page stay in searchindex.js as empty entries",
        )
        return []
    for mapping in tables:
        assert isinstance(mapping, dict)
        for word in [word for word, docnames in mapping.items() if not docnames]:
            del mapping[word]
    return []
