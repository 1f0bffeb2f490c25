"""No empty ``genindex.html`` (``contributions_hide_empty_index``): where no page holds an index entry, the builder's
``use_index`` (never the setting) is turned off, templates hear there is no such page, and an earlier one is removed.

Workaround ``empty_index``: sphinx ``>=7.4,<10``; upstream: no upstream issue found."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...builders import is_site_builder
from ...compat import needed

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

GENINDEX = "genindex"


def has_index_entries(env: BuildEnvironment) -> bool:
    """Whether any page of the build holds an index entry."""
    entries = env.domains.index_domain.entries
    return any(entries.get(docname) for docname in env.found_docs)


def drop_empty_index(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated`` (every page read, none written): no entries, no general index page or link."""
    builder = app.builder
    if not app.config.contributions_hide_empty_index or not needed("empty_index"):  # a guest's index stays
        return
    if not is_site_builder(builder) or not getattr(builder, "use_index", False) or has_index_entries(env):
        return
    builder.use_index = False  # type: ignore[attr-defined]  # the builder writes genindex.html by this
    Path(app.outdir, builder.get_outfilename(GENINDEX)).unlink(missing_ok=True)  # type: ignore[attr-defined]


def no_index_link(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``: without the index, ``hasdoc('genindex')`` says no."""
    if getattr(app.builder, "use_index", True) or not callable(context.get("hasdoc")):
        return
    hasdoc = context["hasdoc"]
    context["hasdoc"] = lambda name: name != GENINDEX and hasdoc(name)
