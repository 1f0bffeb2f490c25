"""furo puts the whole navigation (and prev/next links) on every page, but after a title in the
toctree changes Sphinx rewrites only that page and its toctree parents: the other pages keep the old
title in their sidebars. When anything in the navigation changes, every page is rewritten; and so is
every page of an output that holds no memory of what it showed (a first build writes them all anyway; an
output whose memory file is gone or from another version cannot say which of its pages are current)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx import addnodes

from ...files import digest
from ..gates import shows_work
from ..manifest import remember

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def nav_digest(env: BuildEnvironment) -> str:
    """A digest of everything in the site's navigation: which page includes which (in order), each
    toctree's options and caption, and the title of every page in the navigation."""
    parts: list[object] = [env.config.root_doc]
    in_nav = {env.config.root_doc}
    for docname in sorted(env.toctree_includes):
        parts.append((docname, env.toctree_includes[docname]))
        in_nav.update(env.toctree_includes[docname])
        toc = env.tocs.get(docname)
        if toc is not None:
            for node in toc.findall(addnodes.toctree):
                parts.append(
                    sorted((k, repr(v)) for k, v in node.attributes.items() if k not in {"parent", "rawentries"})
                )
    parts.extend((docname, env.titles[docname].astext()) for docname in sorted(in_nav) if docname in env.titles)
    return digest(parts)


def navigation_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: every page, when the navigation differs from what this output last showed, or
    this output holds no memory of it."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return []
    new = {"nav": nav_digest(env)}
    old = remember(app, "nav", new)
    return sorted(env.found_docs) if old != new else []
