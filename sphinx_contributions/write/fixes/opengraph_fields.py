"""sphinxext-opengraph escapes only ``"``: on pages showing the extension's work its ``og:title`` and ``og:description``
are handed over escaped; and json/pickle builds, which would end in ``KeyError: 'pagename'``, get one.

Workaround ``opengraph_fields``: sphinxext-opengraph ``>=0.6,<0.14``; upstream: https://github.com/sphinx-doc/sphinxext-opengraph/pull/49.
Workaround ``opengraph_json``: sphinxext-opengraph ``>=0.6,<0.14``; upstream: no upstream issue found."""

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
    """How to hand text to the installed opengraph so it is escaped once; None: hand nothing."""
    return _escaped if needed("opengraph_fields") else None


def opengraph_fields(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """``html-page-context``, before opengraph's: title and summary escaped once, in a copy of ``meta``."""
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
    """``html-page-context``, before opengraph's: ``pagename`` for ``json`` and ``pickle``, which omit it."""
    if doctree is not None and "pagename" not in context and MODULE in app.extensions and needed("opengraph_json"):
        context["pagename"] = pagename
