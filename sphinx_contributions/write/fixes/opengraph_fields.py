"""The text this extension hands sphinxext-opengraph, in the form it writes escaped exactly once.

sphinxext-opengraph writes a page's ``og:*`` fields (``env.metadata``, which the page's context holds as
``meta``) into ``<meta … content="…">`` through its public ``make_tag``, which (0.13) replaces only ``"``:
text with ``&`` or ``<`` must reach it escaped already. A release that escapes everything would show
such text escaped twice (``&amp;amp;``), and its own ``og:title`` (the page title as text) is written with
a raw ``&`` and ``<`` today.

So nothing escaped is stored in the environment (the doctrees of one release are read by the next).
At write time, before opengraph's handler, each page's ``meta`` is replaced by a copy holding its
``og:title`` (the title as text), and, on a write-up, its ``og:description`` (the impact, else the summary) in the form
:func:`opengraph_form` gives: the form found by rendering a probe through the installed ``make_tag``.
When ``make_tag`` is missing or does something else, a ``[contrib.compat]`` warning names
sphinxext-opengraph and its version, and no field is handed over: opengraph writes its own.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from ...builders import writes_html
from ...collect.domain import get_domain
from ...compat import incompatible

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils import nodes
    from sphinx.application import Sphinx

MODULE = "sphinxext.opengraph"
PACKAGE = "sphinxext-opengraph"
#: what the probe renders: every character an attribute value must not hold raw
PROBE = "&<>\"'"
_CONTENT = re.compile(r'\bcontent="([^"]*)"')
#: a value with no raw markup character: every ``&`` starts a character reference
_ESCAPED = re.compile(r"(?:[^&<>\"]|&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);)*")


def _make_tag() -> Callable[[str, str], str] | None:
    module = sys.modules.get(MODULE)
    make_tag = getattr(module, "make_tag", None)
    return make_tag if callable(make_tag) else None


def opengraph_form() -> Callable[[str], str] | None:
    """How to give text to the installed opengraph so that it writes it escaped exactly once, as
    found by a probe through its ``make_tag``: ``str`` (it escapes), quote-less HTML escaping (it
    replaces only ``"``), or None (unknown: nothing is handed over)."""
    make_tag = _make_tag()
    if make_tag is None:
        return None
    try:
        found = _CONTENT.search(str(make_tag("og:title", PROBE)))
    except Exception:  # another signature: an unknown shape
        return None
    if found is None:
        return None
    content = found[1]
    if Markup(content).unescape() == PROBE and _ESCAPED.fullmatch(content):
        return str
    if content == PROBE.replace('"', "&quot;"):
        return _escaped
    return None


def _escaped(text: str) -> str:
    return str(escape(text))


def check_opengraph(app: Sphinx) -> None:
    """``builder-inited``: the probe, once a build, so that an unknown shape is reported once."""
    if MODULE in app.extensions and writes_html(app.builder) and opengraph_form() is None:
        incompatible(
            PACKAGE,
            "make_tag(property, content) that writes text escaped (or replaces only '\"')",
            "og:title and the write-ups' og:description are left to it, as it writes them",
        )


def opengraph_fields(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """``html-page-context``, before opengraph's (500): the page's title and summary as opengraph
    needs them, in a copy of its ``meta`` (the environment's own metadata stays as it was read)."""
    if doctree is None or MODULE not in app.extensions:
        return
    meta = dict(context.get("meta") or {})
    if "ogp_disable" in meta:
        return
    form = opengraph_form()
    if form is None:
        return  # reported at builder-inited
    fields: dict[str, str] = {}
    title = app.env.titles.get(pagename)
    if title is not None and title.astext():
        fields["og:title"] = form(title.astext())
    record = get_domain(app.env).contributions.get(pagename)
    if record is not None:
        fields["og:description"] = form(record.description)
    context["meta"] = fields | meta  # a page's own front matter (``og:title: …``) wins, as in opengraph


def name_the_page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``, before opengraph's: the ``json`` and ``pickle`` builders give a page's context
    no ``pagename`` (only ``current_page_name``), and sphinxext-opengraph reads ``context['pagename']``:
    every ``-b json`` build of a site with opengraph ended in ``KeyError: 'pagename'``."""
    if doctree is not None and "pagename" not in context:
        context["pagename"] = pagename
