"""Generated pages: one per tag (``tags/<slug>``) and one per upstream project (``projects/<slug>``),
each listing its contributions, written by site builders only."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from docutils import nodes

from ..builders import is_site_builder
from ..domain import get_domain
from ..incremental import generated_page_is_current
from ..model import generated_pages, slugify
from .links import mark_external_links
from .listing import Renderer

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder


#: the heading word of each kind of generated page
KIND_LABELS = {"tag": "Tag", "project": "Project"}


def collect_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, object], str]]:
    """``html-collect-pages``: render each tag and project page with the theme's page template."""
    if not is_site_builder(app.builder):
        return
    builder: StandaloneHTMLBuilder = app.builder  # type: ignore[assignment]
    for pagename, page in generated_pages(get_domain(app.env).published()).items():
        if generated_page_is_current(app, pagename):
            continue
        renderer = Renderer(builder, pagename)
        records = list(page.records)
        name = page.name
        title = f"{KIND_LABELS[page.kind]}: {name}"
        body = nodes.container(classes=["contrib-generated"])
        count = f"{len(records)} contribution" + ("" if len(records) == 1 else "s")
        body += nodes.paragraph(text=count + ".", classes=["contrib-count"])
        body += renderer.render(records, {"layout": "cards"})
        if app.config.contributions_index in app.env.found_docs:
            back = nodes.paragraph()
            back += renderer.link(app.config.contributions_index, nodes.Text("All contributions"))
            body += back
        mark_external_links(body)
        # the heading is written here: a docutils title outside a document needs figure numbers that
        # the builder only has while writing a document, and a build may write none
        fragment = builder.render_partial(body)["fragment"]
        html = f'<section id="{slugify(name)}">\n<h1>{escape(title)}</h1>\n{fragment}</section>\n'
        context = {"title": escape(title), "body": html, "display_toc": False}
        yield pagename, context, "page.html"


def setup_pages(app: Sphinx) -> None:
    app.connect("html-collect-pages", collect_pages)
