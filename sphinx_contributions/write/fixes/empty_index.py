"""Sphinx's HTML builders write ``genindex.html`` whatever the site holds: on a site without a single
index entry (no ``index`` directive, no object that makes one) it is an "Index" page with nothing on
it, which the theme still links from every page (``<link rel="index">``, furo's sidebar). This turns the
general index off for a build whose pages hold no index entry (the builder's own switch, never the
setting: a setting changed by a build makes the next build find its configuration changed), answers "no"
when a template asks whether the page exists, and removes the empty page an earlier build left; a site with
entries keeps its index as ``html_use_index`` says. Only where the site asks for it
(``contributions_hide_empty_index``, on in what ``contributions init`` writes): a guest's index stays; and
only in the Sphinx releases :data:`...compat.WORKAROUNDS` names, where the builder's ``use_index`` decides
whether ``genindex.html`` is written (``tests/test_workarounds.py`` checks it).

Workaround ``empty_index``: sphinx ``>=7.4,<10``; upstream: no upstream issue found.
(``compat.WORKAROUNDS``; the fix to send upstream: ``docs/explanation/workarounds.md``)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...builders import is_site_builder
from ...compat import needed

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: the general index's page name
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
    """``html-page-context``: without the general index, ``hasdoc('genindex')`` (the templates' test for
    the sidebar's link and ``<link rel="index">``, which reads the setting) says no."""
    if getattr(app.builder, "use_index", True) or not callable(context.get("hasdoc")):
        return
    hasdoc = context["hasdoc"]
    context["hasdoc"] = lambda name: name != GENINDEX and hasdoc(name)
