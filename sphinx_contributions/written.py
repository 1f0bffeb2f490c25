"""What each output was written from: digests kept per builder and output folder, so a page is rewritten
when what it shows changed since *that* output was written (``html`` and ``dirhtml`` built on one
doctree folder, as sphinx-quickstart lays a project out, each keep their own memory).

The digests live in the domain's data, so they are pickled with the environment; nothing is kept
between builds outside it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .domain import get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def shown(app: Sphinx) -> dict[str, Any]:
    """The digests of what this builder last wrote into this output folder (filled in by the callers)."""
    outputs: dict[str, dict[str, Any]] = get_domain(app.env).data.setdefault("shown", {})
    return outputs.setdefault(f"{app.builder.name}:{app.outdir}", {})


def changed_keys(old: dict[str, str], new: dict[str, str]) -> set[str]:
    """The keys added, removed or with another digest."""
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}
