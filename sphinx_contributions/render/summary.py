"""A write-up's summary as it is shown: its inline markup (code, emphasis, links; see
:class:`~sphinx_contributions.records.Inline`) as docutils nodes for any builder, or as HTML for the
templates of site builders. What shows text only (the meta description, the JSON, the feed, card
images) takes the record's ``summary``, the plain form (:func:`~sphinx_contributions.records.plain_text`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from docutils import nodes
from markupsafe import Markup, escape

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..records import Contribution, Inline


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


def unlinked(markup: Iterable[Inline]) -> list[Inline]:
    """Inline markup with every link replaced by its text: for markup that is itself a link's text."""
    found: list[Inline] = []
    for item in markup:
        if item.kind == "link":
            found.extend(unlinked(item.children))
        elif item.children:
            found.append(replace(item, children=tuple(unlinked(item.children))))
        else:
            found.append(item)
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


def summary_nodes(record: Contribution) -> list[nodes.Node]:
    """The summary of ``record`` as nodes."""
    return inline_nodes(record.summary_inline)


def summary_html(record: Contribution) -> Markup:
    """The summary of ``record`` as HTML."""
    return inline_html(record.summary_inline)
