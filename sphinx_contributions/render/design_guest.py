"""sphinx-design for the extension's cards and badges, on a site whose ``extensions`` do not list it.

The extension's write-up headers, listings and projects overview are made of sphinx-design's cards and
badges (:mod:`.header`, :mod:`.listing`): they need its node visitors (a card is a ``container`` written
as a bare ``<div>``) and its stylesheet. A site that lists ``sphinx_design`` itself has them. Otherwise:

- once the pages are read, a site where a page shows a write-up, a listing or a projects overview
  (:func:`..collect.own_nodes.site_shows_cards`) gets sphinx-design set up by :func:`load_design` when
  writing starts: before any page is resolved, in the main process (a parallel build's writers fork
  later), and after Sphinx saved the environment, whose settings then hold none of sphinx-design's (the
  next build compares its settings with those: set up when the pages were read, its ``sd_*`` settings
  were in the saved ones and not yet in the next build's, and Sphinx read every page again);
- a site that shows none never imports it. sphinx-design's import alone is a cost (its dropdown's options
  read the 1.4 MB octicons file): on ablog's documentation (no write-up, 97 pages) setting it up at
  ``setup()``, as the extension did until 2026-12-04, was half of what the extension cost;
- a site that asks for the extension's files on every page (``contributions_assets_everywhere``, a
  portfolio) gets it at ``setup()``, with its files on every page (:func:`setup_design_guest`).

sphinx-design's own directives and roles (``grid``, ``card``, ``tab-set``, ``bdg``, …) are the site's:
a page that writes them needs ``sphinx_design`` in the site's ``extensions`` (``init``'s ``conf.py`` lists it).

Where sphinx-design is loaded without being listed (at ``setup()`` as above, or by another extension),
each of its per-page steps (its post transforms for dropdowns, tab sets, asides, the ``button-ref`` and
``bdg-ref`` stashes, and its ``doctree-resolved`` handler for links opened in a new tab, each looking
through the whole page) returns at once on a page that held none of its nodes when it was read
(:func:`..collect.own_nodes.is_design_node`, noted in the one look at each page read): the extension's own
cards and badges are made when a page is resolved (``doctree-resolved``), after those transforms ran, and
never need them. A page that did hold one keeps them all, and so does a book (its root document holds
every page) and a tree that is not a page's own (ablog resolves its post excerpts in a new document under
the name of the page listing them) once any page of the site holds sphinx-design's nodes.
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
    from sphinx.builders import Builder

#: sphinx-design's name as an extension
DESIGN = "sphinx_design"


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


def gate_design_steps(app: Sphinx) -> None:
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


def setup_design_guest(app: Sphinx) -> None:
    """At ``setup()``: sphinx-design set up where the site wants the extension's files on every page
    (``contributions_assets_everywhere``; its own files go there too), and, where it is loaded without
    the site listing it, its per-page steps gated (:func:`gate_design_steps`)."""
    if app.config.contributions_assets_everywhere:
        app.setup_extension(DESIGN)
    if DESIGN in app.extensions and design_is_guest(app):
        gate_design_steps(app)


def load_design(app: Sphinx, builder: Builder) -> None:
    """``write-started`` (a page shows the extension's cards, :func:`..write.gates.shows_cards`): sphinx-design
    set up now, for the pages about to be resolved and written, where nothing has loaded it. None of the
    pages read could hold its nodes (its directives were not there), so its per-page steps are gated."""
    if DESIGN in app.extensions:
        return
    app.setup_extension(DESIGN)
    gate_design_steps(app)
