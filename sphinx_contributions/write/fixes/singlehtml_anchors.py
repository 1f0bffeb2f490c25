"""Since Sphinx 8.2, ``singlehtml`` links ``#document-about/index#education``: one fragment is kept, in the body, the
table of contents and the navigation.

Workaround ``singlehtml_anchors``: sphinx ``>=8.2,<10``; upstream: https://github.com/sphinx-doc/sphinx/issues/14221."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes

from ...builders import book_fixes_apply, writes_one_page
from ...compat import needed

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

_DOUBLE = re.compile(r'href="#document-[^"#]*#')


def single_anchor(uri: str) -> str:
    """``#document-about/index#education`` → ``#education``; any other link as it is."""
    if uri.startswith("#document-") and uri.count("#") > 1:
        return uri[uri.rindex("#") :]
    return uri


def fix_double_anchors(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``, after every handler that writes links: the body's links."""
    if not writes_one_page(app.builder) or not needed("singlehtml_anchors") or not book_fixes_apply(app, doctree):
        return
    for node in doctree.findall(nodes.reference):
        if "refuri" in node:
            node["refuri"] = single_anchor(node["refuri"])


def fix_navigation(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``, before the theme's: the table of contents and the ``toctree`` function."""
    if not writes_one_page(app.builder) or not needed("singlehtml_anchors") or not book_fixes_apply(app, doctree):
        return
    if isinstance(context.get("toc"), str):
        context["toc"] = _DOUBLE.sub('href="#', context["toc"])
    if "toctree" in context:
        toctree: Callable[..., str] = context["toctree"]
        context["toctree"] = lambda **kwargs: _DOUBLE.sub('href="#', toctree(**kwargs))
