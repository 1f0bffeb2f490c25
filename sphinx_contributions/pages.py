"""Generated pages: one per tag (``tags/<slug>``) and one per upstream project (``projects/<slug>``),
each listing its contributions; and the resolution of links to them."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from docutils import nodes

from . import nodes as cn
from .header import project_page, tag_page
from .links import mark_external_links
from .listing import Renderer, sort_records
from .model import Contribution, slugify

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder

    from .domain import ContributionsDomain


def resolve_page_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: HTML builders get a relative link to the generated page; others the text."""
    builder = app.builder
    for node in list(doctree.findall(cn.page_link)):
        if builder.format == "html":
            uri = builder.get_relative_uri(docname, node["target"])
            new: nodes.Element = nodes.reference("", "", *node.children, internal=True, refuri=uri)
        else:
            new = nodes.inline("", "", *node.children)
        new["classes"] = list(node["classes"])
        node.replace_self(new)


def generated_pages(domain: ContributionsDomain) -> dict[str, tuple[str, str, list[Contribution]]]:
    """pagename → (kind, name, contributions) for every tag and project page."""
    pages: dict[str, tuple[str, str, list[Contribution]]] = {}
    for record in domain.published():
        pages.setdefault(project_page(record), ("Project", record.display_project, []))[2].append(record)
        for tag in record.tags:
            pages.setdefault(tag_page(tag), ("Tag", tag, []))[2].append(record)
    return dict(sorted(pages.items()))


def collect_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, object], str]]:
    """``html-collect-pages``: render each tag and project page with the theme's page template."""
    builder: StandaloneHTMLBuilder = app.builder  # type: ignore[assignment]
    domain: ContributionsDomain = app.env.domains["contrib"]  # type: ignore[assignment]
    from .incremental import generated_page_is_current  # here: .incremental imports this module

    for pagename, (kind, name, records) in generated_pages(domain).items():
        if generated_page_is_current(app, pagename):
            continue
        renderer = Renderer(builder, pagename)
        records = sort_records(records, "date")
        title = f"{kind}: {name}"
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
    app.add_node(cn.page_link)
    app.connect("doctree-resolved", resolve_page_links)
    app.connect("html-collect-pages", collect_pages)
