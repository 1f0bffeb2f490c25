"""sphinxext-opengraph 0.6 to 0.13: the text it writes, escaped exactly once.

Its ``make_tag`` writes a field into ``<meta … content="…">`` replacing only ``"`` (sphinx-doc/sphinxext-
opengraph#49; its own descriptions are escaped before, #120): a page title with ``&`` or ``<`` reaches
``og:title`` raw, and so would a write-up's summary handed to it as ``og:description``. In that range, at
write time, before opengraph's handler, the ``meta`` of each page that shows the extension's work is
replaced by a copy holding its ``og:title`` (the title as text) and, on a write-up, its ``og:description``
(the impact, else the summary), both HTML-escaped. Other pages are left to opengraph. Nothing escaped is
stored in the environment. Outside the range nothing is handed over: opengraph writes its own fields.
``tests/test_workarounds.py`` fails when the installed release escapes itself.

The same releases end every ``-b json`` and ``-b pickle`` build in ``KeyError: 'pagename'`` (those builders
give a page's context no ``pagename``): :func:`name_the_page` gives it one, where opengraph is loaded.

Workaround ``opengraph_fields``: sphinxext-opengraph ``>=0.6,<0.14``; upstream: https://github.com/sphinx-doc/sphinxext-opengraph/pull/49.
Workaround ``opengraph_json``: sphinxext-opengraph ``>=0.6,<0.14``; upstream: no upstream issue found.
(``compat.WORKAROUNDS``; the fix to send upstream: ``docs/explanation/workarounds.md``)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import escape

from ...collect.domain import get_domain
from ...compat import needed
from ...nodes import USES_ASSETS

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils import nodes
    from sphinx.application import Sphinx

MODULE = "sphinxext.opengraph"


def _escaped(text: str) -> str:
    return str(escape(text))


def opengraph_form() -> Callable[[str], str] | None:
    """How to hand text to the installed opengraph so that it writes it escaped once: HTML-escaped in the
    releases that replace only ``"``; None elsewhere (hand nothing: write the tag yourself)."""
    return _escaped if needed("opengraph_fields") else None


def opengraph_fields(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """``html-page-context``, before opengraph's (500): the page's title and summary escaped once, in a
    copy of its ``meta`` (the environment's own metadata stays as it was read)."""
    if doctree is None or not doctree.get(USES_ASSETS) or MODULE not in app.extensions:
        return  # a page without the extension's work is opengraph's alone
    form = opengraph_form()
    if form is None:
        return
    meta = dict(context.get("meta") or {})
    if "ogp_disable" in meta:
        return
    fields: dict[str, str] = {}
    title = app.env.titles.get(pagename)
    if title is not None and title.astext():
        fields["og:title"] = form(title.astext())
    record = get_domain(app.env).contributions.get(pagename)
    if record is not None:
        fields["og:description"] = form(record.description)
    context["meta"] = fields | meta  # a page's own front matter (``og:title: …``) wins, as in opengraph


def name_the_page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``, before opengraph's: ``json`` and ``pickle`` give a page's context no
    ``pagename`` (only ``current_page_name``), and sphinxext-opengraph reads ``context['pagename']``."""
    if doctree is not None and "pagename" not in context and MODULE in app.extensions and needed("opengraph_json"):
        context["pagename"] = pagename
