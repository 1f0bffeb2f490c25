"""Inline markup as a write-up keeps it: parsed docutils nodes → :class:`~.records.Inline` (for a summary,
an impact line, a translated message), shared by the directives that read it and the translations."""

from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes

from . import nodes as cn
from .keys import issue_url, pr_url
from .records import Inline


def inline_markup(parsed: list[nodes.Node], repo: str, site_links: list[str] | None = None) -> tuple[Inline, ...]:
    """Parsed inline nodes → the :class:`~.records.Inline` markup a summary keeps: text, code, emphasis,
    strong, and links to web pages (``{pr}`#N``` and ``{issue}`#N``` in ``repo``); anything else (raw
    HTML, a link within the site, math) as its text. Adjacent texts are joined. The text of each link
    within the site (a page, an anchor, ``{contrib}``), which the markup keeps as text, is added to
    ``site_links``."""
    found: list[Inline] = []
    for node in parsed:
        item: Inline | None
        if isinstance(node, nodes.system_message):
            continue
        if isinstance(node, nodes.Text):
            item = Inline("text", str(node))
        elif isinstance(node, nodes.literal):
            item = Inline("code", node.astext())
        elif isinstance(node, (nodes.emphasis, nodes.strong)):
            item = Inline(node.tagname, children=inline_markup(node.children, repo))
        elif isinstance(node, cn.pending_github_link):
            url = pr_url(repo, node["number"]) if node["kind"] == "pr" else issue_url(repo, node["number"])
            item = Inline("link", url=url, children=(Inline("text", node.astext()),))
        elif isinstance(node, nodes.reference) and re.match(r"^(?:https?:|mailto:)", node.get("refuri", "")):
            item = Inline("link", url=node["refuri"], children=inline_markup(node.children, repo))
        elif isinstance(node, nodes.Element) and not isinstance(node, (nodes.raw, nodes.math)):
            if site_links is not None and isinstance(node, (nodes.reference, addnodes.pending_xref)):
                site_links.append(node.astext())
            found.extend(inline_markup(node.children, repo))  # a reference within the site: its text
            continue
        else:
            item = Inline("text", node.astext())
        if item.kind == "text" and found and found[-1].kind == "text":
            item = Inline("text", found.pop().text + item.text)
        found.append(item)
    return tuple(found)
