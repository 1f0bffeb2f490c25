"""Doctree nodes of the extension, with plain attributes only, so doctrees pickle and merge across parallel workers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.environment import BuildEnvironment

#: the mark of a resolved doctree whose page shows the extension's work: it gets the stylesheet and scripts
USES_ASSETS = "contrib_uses_assets"

#: the mark of the page being read once one of the extension's directives or roles ran on it: a page
#: without it holds none of its nodes, and the looks for them are not taken there
MADE_HERE = "contrib_made_here"


def made_here(env: BuildEnvironment) -> bool:
    """Whether one of the extension's directives or roles ran on the page being read."""
    return bool(env.current_document.get(MADE_HERE))


class contribution_header(nodes.General, nodes.Element):  # noqa: N801
    """The ``contribution`` directive: its options as attributes; the header, rendered at write time."""


class metric(nodes.General, nodes.Element):  # noqa: N801
    """One before/after figure; attributes mirror :class:`~sphinx_contributions.records.Metric`."""


class contribution_list(nodes.General, nodes.Element):  # noqa: N801
    """A ``contributions`` listing; replaced by a table or cards when the page is written."""


class page_link(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A link to a generated page (``tags/…``, ``projects/…``), resolved per builder at write time."""


class export_link(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A link to an export (``target``): a link on site builders, its text elsewhere."""


class contribution_projects(nodes.General, nodes.Element):  # noqa: N801
    """A ``projects`` listing; its children are ``project`` intros. Replaced when written."""


class project_intro(nodes.General, nodes.Element):  # noqa: N801
    """A ``project`` intro (``name``, optional ``heading``): text above a project's write-ups."""


class pending_github_link(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A ``{pr}``/``{issue}`` link to ``#N`` in the page's own repository, resolved once the page is read."""


class option_text(nodes.TextElement):  # noqa: N801
    """An author's words from a directive option, translatable; :class:`~.i18n.TranslatedOptions` takes them."""


def walk(tree: nodes.Node) -> Iterator[nodes.Node]:
    """``tree`` and every node under it in document order, one step a node (``findall`` nests generators)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        children = getattr(node, "children", None)
        if children:
            stack.extend(reversed(children))
