"""sphinx-design's per-page work, only where a page holds its nodes, on a site that did not ask for it.

The extension loads sphinx-design for its cards and badges (:func:`..extension.setup`). On a site whose
own ``extensions`` do not list ``sphinx_design``, every page was still walked by sphinx-design's post
transforms (dropdowns, tab sets, asides, the ``button-ref`` and ``bdg-ref`` stashes) and its
``doctree-resolved`` handler for links opened in a new tab, each looking through the whole page, on every
page resolved: on ablog's documentation (no write-up, 98 pages resolved 563 times) about half of what the
extension cost. Where the site lists ``sphinx_design``, nothing here changes anything.

Otherwise, each of those steps returns at once on a page that held none of sphinx-design's nodes when it
was read (:func:`..collect.own_nodes.is_design_node`, noted in the one look at each page read): the
extension's own cards and badges are made when a page is resolved (``doctree-resolved``), after those
transforms ran, and never need them. A page that did hold one (a site using sphinx-design's directives
through the extension's loading of it) keeps them all, and so does a book (its root document holds every
page) and a tree that is not a page's own (ablog resolves its post excerpts in a new document under the
name of the page listing them) once any page of the site holds sphinx-design's nodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.transforms.post_transforms import SphinxPostTransform

from ..builders import output_of
from ..collect.own_nodes import design_is_guest, holds_design_nodes, site_holds_design_nodes

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils import nodes
    from sphinx.application import Sphinx


def design_work_needed(app: Sphinx, document: nodes.document, docname: str) -> bool:
    """Whether sphinx-design's per-page steps may find anything in ``document``, resolved as ``docname``."""
    if not design_is_guest(app) or output_of(app.builder).inlines:
        return True
    if holds_design_nodes(app, docname):
        return True
    if not site_holds_design_nodes(app):
        return False  # no page of the site holds one: neither this page nor anything copied from another
    source = document.get("source")
    return bool(source != str(app.env.doc2path(docname)))  # not this page's own tree


def _gated_post_transform(app: Sphinx, transform: type[SphinxPostTransform]) -> type[SphinxPostTransform]:
    def run(self: SphinxPostTransform, **kwargs: Any) -> None:
        if design_work_needed(app, self.document, self.env.current_document.docname):
            transform.run(self, **kwargs)

    return type(transform.__name__, (transform,), {"run": run, "__module__": transform.__module__})


def _gated_handler(handler: Callable[..., None]) -> Callable[..., None]:
    def resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
        if design_work_needed(app, doctree, docname):
            handler(app, doctree, docname)

    resolved.__wrapped__ = handler  # type: ignore[attr-defined]
    return resolved


def setup_design_guest(app: Sphinx) -> None:
    """Put each of sphinx-design's per-page steps (those of the version known here; any other is left as
    it is) behind :func:`design_work_needed`, in its place (same priority, same order)."""
    try:
        from sphinx_design import aside, badges_buttons, dropdown, extension, tabs
    except ImportError:  # another sphinx-design: it keeps its own way
        return
    known = {
        getattr(module, name, None)
        for module, name in (
            (aside, "AsideHtmlTransform"),
            (dropdown, "DropdownHtmlTransform"),
            (tabs, "TabSetHtmlTransform"),
            (badges_buttons, "ButtonRefContentStash"),
            (badges_buttons, "ButtonRefContentGraft"),
            (badges_buttons, "BadgeRefTooltipStash"),
            (badges_buttons, "BadgeRefTooltipGraft"),
        )
    } - {None}
    transforms = app.registry.post_transforms
    for index, transform in enumerate(transforms):
        if transform in known and issubclass(transform, SphinxPostTransform):
            transforms[index] = _gated_post_transform(app, transform)
    new_tab = getattr(extension, "_resolve_new_tab_refs", None)
    listeners = getattr(app.events, "listeners", {}).get("doctree-resolved", [])
    for index, listener in enumerate(listeners):
        if new_tab is not None and listener.handler is new_tab:
            listeners[index] = listener._replace(handler=_gated_handler(new_tab))
