"""Generated pages: one per tag (``tags/<slug>``) and one per upstream project (``projects/<slug>``),
each listing its contributions, written by site builders only, from the template
``contributions/generated.html`` (a site overrides it from its ``templates_path``, as with ablog's
``collection.html``). Their folders are settings, as ablog's ``blog_path``: ``contributions_tags_path``
and ``contributions_projects_path``.

A document of the site where a generated page would go (a hand-written ``tags/sdpa.md``) is kept: the
generated page is not written (Sphinx would let it overwrite the document without a word), and a
``[contrib.config]`` warning says so in every build."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes
from markupsafe import escape
from sphinx import addnodes
from sphinx.util import docname_join
from sphinx.util.docutils import new_document
from sphinx.util.osutil import relative_uri

from ..builders import is_site_builder
from ..collect.domain import get_domain
from ..i18n import _, ngettext
from ..keys import slugify
from ..queries import is_of_project
from ..records import GeneratedPage
from ..render.links import Links
from ..render.listing import listing_context
from ..render.projects import project_intros
from ..settings import canonical_url
from ..warnings import ContribWarning, warn
from .manifest import generated_page_is_current
from .social_cards import page_meta_tags

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx

#: the page template of every tag and project page
GENERATED_TEMPLATE = "contributions/generated.html"


def heading(page: GeneratedPage) -> str:
    """``Tag: <name>`` or ``Project: <name>``, translated."""
    words = _("Tag: %(name)s") if page.kind == "tag" else _("Project: %(name)s")
    return words % {"name": page.name}


@dataclass(frozen=True)
class Intro:
    """A project's intro on the page that holds the ``projects`` overview: its heading, its text as HTML
    and that page's docname (with the intro's id, ``project-<slug>``)."""

    heading: str
    html: str
    docname: str


def intro_html(app: Sphinx, pagename: str, node: nodes.Element) -> str:
    """A ``project`` intro as the project page ``pagename`` shows it: resolved as a page of its own at that
    page's place (its ``{doc}``, ``{ref}`` and ``{contrib}`` links, relative to the project page), its
    images copied and linked from there. The intro is kept unresolved with its overview page's doctree."""
    builder = app.builder
    document = new_document(node.source or pagename, node.document.settings if node.document else None)
    document += nodes.container("", *[child.deepcopy() for child in node.children])
    # each cross-reference resolves from the page it is shown on: a pending_xref keeps the page it was
    # read on as ``refdoc``, and Sphinx's and MyST's resolvers write its link relative to that page
    # (a ``{doc}`` target is relative to that page: made absolute first)
    for xref in document.findall(addnodes.pending_xref):
        read_on = xref.get("refdoc")
        if read_on and xref.get("reftype") == "doc" and not str(xref["reftarget"]).startswith("/"):
            xref["reftarget"] = "/" + docname_join(read_on, xref["reftarget"])
        xref["refdoc"] = pagename
    app.env.resolve_references(document, pagename, builder)
    builder.post_process_images(document)
    imgpath = builder.imgpath
    builder.imgpath = relative_uri(builder.get_target_uri(pagename), "_images")
    try:
        fragment: str = builder.render_partial(document.children[0])["fragment"]  # type: ignore[attr-defined]
    finally:
        builder.imgpath = imgpath
    return fragment


def _intro_for(page: GeneratedPage, intros: dict[str, tuple[str, nodes.Element]]) -> tuple[str, nodes.Element] | None:
    if page.kind != "project":
        return None
    return next((found for name, found in intros.items() if any(is_of_project(r, name) for r in page.records)), None)


def page_context(
    app: Sphinx, pagename: str, page: GeneratedPage, intros: dict[str, tuple[str, nodes.Element]]
) -> dict[str, Any]:
    links = Links(app.builder, pagename)
    records = list(page.records)
    index = app.config.contributions_index
    count = ngettext("%(count)s contribution.", "%(count)s contributions.", len(records))
    title = heading(page)
    counted = count % {"count": len(records)}
    base = canonical_url(app.config)
    metatags = page_meta_tags(
        title,
        f"{title}: {counted}",
        url=base + app.builder.get_target_uri(pagename) if base else "",
        site=app.config.project,
    )
    intro = None
    found = _intro_for(page, intros)
    if found is not None:
        docname, node = found
        intro = Intro(node["heading"] or page.name, intro_html(app, pagename, node), docname)
    repos = sorted({r.repo_url for r in records}) if page.kind == "project" else []
    overview = intro.docname if intro is not None else None
    return {
        "metatags": metatags,
        # a project's page: its intro and repository, then its write-ups as proof rows (their impact and
        # figure); a tag's page, its write-ups as cards
        **listing_context(records, links, "proof" if page.kind == "project" else "cards", filterable=False),
        "contrib_page": {
            "kind": page.kind,
            "name": page.name,
            "slug": slugify(page.name),
            "heading": title,
            "count": counted,
            "records": records,
            "index_url": links.uri(index) if index in app.env.found_docs else None,
            "index_title": app.env.titles[index].astext() if index in app.env.found_docs else "",
            "intro": intro,
            "overview_url": (links.uri(overview) + f"#project-{slugify(page.name)}") if overview else None,
            "overview_title": app.env.titles[overview].astext() if overview else "",
            "repositories": repos,
            "repository_label": _("Repository"),
        },
        "title": escape(title),
        "display_toc": False,
    }


def report_collisions(app: Sphinx) -> None:
    """A document where a tag or project page would go keeps its place, and is reported (every build)."""
    for pagename, page in get_domain(app.env).all_generated_pages().items():
        if pagename in app.env.found_docs:
            warn(
                ContribWarning.CONFIG,
                f"{app.env.doc2path(pagename, False).as_posix()} is where the generated page of {page.kind} "
                f"{page.name!r} would be written: the document is kept and the generated page is not written "
                f"(rename the document, or move the generated pages with contributions_{page.kind}s_path)",
                pagename,
            )


def collect_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """``html-collect-pages``: each tag and project page whose output is not current."""
    if not is_site_builder(app.builder):
        return
    intros = project_intros(app, app.env)
    report_collisions(app)
    for pagename, page in get_domain(app.env).generated_pages().items():
        if not generated_page_is_current(app, pagename):
            yield pagename, page_context(app, pagename, page, intros), GENERATED_TEMPLATE
