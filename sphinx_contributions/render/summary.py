"""Inline markup (:class:`~sphinx_contributions.records.Inline`) as docutils nodes or as HTML."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from markupsafe import Markup, escape

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..records import Inline


def inline_nodes(markup: Iterable[Inline]) -> list[nodes.Node]:
    """Inline markup as docutils nodes."""
    found: list[nodes.Node] = []
    for item in markup:
        if item.kind == "text":
            found.append(nodes.Text(item.text))
        elif item.kind == "code":
            found.append(nodes.literal(item.text, item.text))
        elif item.kind == "link":
            found.append(nodes.reference("", "", *inline_nodes(item.children), refuri=item.url))
        else:
            element = nodes.strong if item.kind == "strong" else nodes.emphasis
            found.append(element("", "", *inline_nodes(item.children)))
    return found


def inline_html(markup: Iterable[Inline]) -> Markup:
    """Inline markup as HTML, as Sphinx's HTML writer writes the same nodes; every text escaped."""
    parts: list[str] = []
    for item in markup:
        if item.kind == "text":
            parts.append(escape(item.text))
        elif item.kind == "code":
            code = escape(item.text)
            parts.append(f'<code class="docutils literal notranslate"><span class="pre">{code}</span></code>')
        elif item.kind == "link":
            parts.append(
                f'<a class="reference external" href="{escape(item.url)}" rel="noopener noreferrer">'
                f"{inline_html(item.children)}</a>"
            )
        else:
            tag = "strong" if item.kind == "strong" else "em"
            parts.append(f"<{tag}>{inline_html(item.children)}</{tag}>")
    return Markup("".join(parts))  # built from escaped text only
