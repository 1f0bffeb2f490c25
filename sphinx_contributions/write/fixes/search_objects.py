"""Sphinx's search finds an object by its display name (a write-up's title) and indexes no digits: each write-up gets
its key as its searchable name, so ``49135`` finds it.

Workaround ``search_objects``: sphinx ``>=7.4,<10``; upstream: no upstream issue found."""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import escape

from ...collect.domain import get_domain
from ...compat import needed
from ..manifest import shows_work

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

#: what ``IndexBuilder.get_objects`` returns: prefix → (page index, type index, priority, anchor, name)
Objects = dict[str, list[tuple[int, int, int, str, str]]]


def index_keys(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """``html-collect-pages`` (runs before the index is dumped): wrap this build's indexer's objects."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return []
    indexer = getattr(app.builder, "indexer", None)
    if indexer is None or not needed("search_objects"):
        return []
    original: Callable[[dict[str, int]], Objects] = indexer.get_objects
    domain = get_domain(app.env)

    def get_objects(fn2index: dict[str, int]) -> Objects:
        objects = original(fn2index)
        kind = indexer._objtypes.get(("contrib", "contribution"))
        if kind is None:
            return objects
        for prefix in list(objects):
            objects[prefix] = [entry for entry in objects[prefix] if entry[1] != kind]
            if not objects[prefix]:
                del objects[prefix]
        for record in sorted(domain.published(), key=lambda record: record.key):
            if record.docname in fn2index:
                entry = (fn2index[record.docname], kind, 0, record.anchor, str(escape(record.key)))
                objects.setdefault("", []).append(entry)
        return objects

    indexer.get_objects = get_objects
    return []
