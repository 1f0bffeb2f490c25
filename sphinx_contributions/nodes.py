"""Doctree nodes of the extension, with plain attributes only, so doctrees pickle and merge across parallel workers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.environment import BuildEnvironment

#: the mark a resolved doctree carries when its page shows the extension's work (a write-up, a listing, a
#: projects overview, a figure): its stylesheet and scripts go on that page (:mod:`.render.assets`)
USES_ASSETS = "contrib_uses_assets"

#: the mark the page being read gets (in ``env.current_document``, which Sphinx makes anew for each page)
#: once one of the extension's directives or roles ran on it, in its text or in a translation of its text
#: (parsed as a document of its own): they are the only makers of its nodes (:mod:`.read.marks`). A page
#: without it holds none, and the looks for them taken at every page read (:mod:`.collect`, :mod:`.check`,
#: the transforms of :mod:`.read` and :mod:`.i18n`) are not taken there, so a site's own pages cost what
#: they cost without the extension
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
