"""Sphinx's search index keeps a word that disappeared from a changed page as an empty entry: drop
words that no page holds any more, so an incremental build's ``searchindex.js`` equals a clean build's."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def prune_search_index(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages`` (runs before the index is dumped): drop words that no page holds."""
    indexer = getattr(app.builder, "indexer", None)
    if indexer is not None:
        for mapping in (indexer._mapping, indexer._title_mapping):
            for word in [word for word, docnames in mapping.items() if not docnames]:
                del mapping[word]
    return []


def setup_search_index(app: Sphinx) -> None:
    app.connect("html-collect-pages", prune_search_index)
