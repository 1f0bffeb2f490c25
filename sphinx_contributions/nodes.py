"""Doctree nodes of the extension.

Every node keeps plain attributes (strings, numbers, tuples), so doctrees pickle and merge across
parallel workers like docutils' own nodes.
"""

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
    """The ``contribution`` directive: its validated options as attributes; the rendered header block
    as children (filled in by the domain once the whole page is read)."""


class metric(nodes.General, nodes.Element):  # noqa: N801
    """One before/after figure; attributes mirror :class:`~sphinx_contributions.records.Metric`."""


class contribution_list(nodes.General, nodes.Element):  # noqa: N801
    """A ``contributions`` listing; replaced by a table or cards when the page is written."""


class page_link(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A link to a generated page (``tags/…``, ``projects/…``), resolved per builder at write time."""


class export_link(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A link to one of the extension's exports (attribute ``target``: ``contributions.json`` …): a link
    on site builders, which write the file, its text elsewhere."""


class contribution_projects(nodes.General, nodes.Element):  # noqa: N801
    """A ``projects`` listing: one section per project with a write-up; its children are the
    ``project`` intros written for some of them. Replaced when the page is written."""


class project_intro(nodes.General, nodes.Element):  # noqa: N801
    """A ``project`` intro (attribute ``name``, optional ``heading``): the text shown above one
    project's write-ups in a ``projects`` listing."""


class pending_github_link(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A ``{pr}`` or ``{issue}`` link to ``#N``, in the repository of the page's own header: resolved once
    the whole page is read (a role in the page's title is read before the header), never written."""


class option_text(nodes.TextElement):  # noqa: N801
    """An author's words from a directive option (attribute ``option``: a write-up's ``summary``, a
    figure's ``label`` or ``unit``), as translatable text with its source and line: Sphinx's gettext
    builder extracts it and its Locale transform translates it; :class:`~.i18n.TranslatedOptions` writes the
    translation back to its directive's node, then drops it (only the gettext builder keeps it)."""


def walk(tree: nodes.Node) -> Iterator[nodes.Node]:
    """``tree`` and every node under it, in document order, as ``tree.findall()`` gives them, for the
    looks taken at every page read (:mod:`.collect.own_nodes`, :mod:`.collect.domain`,
    :mod:`.check.structure`): docutils' ``findall`` nests one generator per level, so a node deep in a
    page costs a step at each level above it; here each node is one step (on sphinx-design's pages,
    about a third of the calls)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        children = getattr(node, "children", None)
        if children:
            stack.extend(reversed(children))
