"""Links resolved per builder at write time: to generated pages and exports (text where not written), outbound links
with ``rel="noopener noreferrer"``, and the rendered links handed to linkcheck."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from docutils import nodes
from sphinx.errors import NoUri
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.osutil import relative_uri

from .. import nodes as cn
from ..builders import is_site_builder, links_inside, writes_html, written_exports
from ..collect.domain import get_domain, holds_own_nodes
from ..keys import slugify
from ..read.metric_directive import metric_from_node

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder

EXTERNAL_REL = "noopener noreferrer"


class Links:
    """Relative links from one page of one builder, each target resolved once."""

    def __init__(self, builder: Builder, fromdoc: str) -> None:
        self.builder = builder
        self.fromdoc = fromdoc
        self.linked = is_site_builder(builder)
        self._uris: dict[str, str] = {}

    def uri(self, target: str) -> str:
        uri = self._uris.get(target)
        if uri is None:
            uri = self._uris[target] = self.builder.get_relative_uri(self.fromdoc, target)
        return uri

    def document(self, docname: str) -> str | None:
        """The link to ``docname`` on the site and in books that hold it; ``None`` elsewhere."""
        if self.linked:
            return self.uri(docname)
        if not links_inside(self.builder):
            return None
        try:
            return self.builder.get_relative_uri(self.fromdoc, docname)
        except NoUri:
            return None

    def project_href(self, page: str, project: str) -> str | None:
        """The ``href`` of a project link: its page, else its section of the first overview; ``None`` where unlinked,
        without target, and on the target itself."""
        env = self.builder.env
        listings = sorted(get_domain(env).project_intros)  # every page with a `projects` listing
        if not self.linked:
            return None
        if page in env.found_docs or page in get_domain(env).all_generated_pages():
            docname, anchor = page, ""
        elif listings:
            docname, anchor = listings[0], f"project-{slugify(project)}"
        else:
            return None
        if docname == self.fromdoc and not anchor:
            return None
        return f"{self.uri(docname)}#{anchor}" if anchor else self.href(docname)

    def tag_href(self, page: str, slug: str) -> str | None:
        """A tag's ``href``: its page, else the list filtered (``?tag=<slug>``); ``None`` where neither."""
        if not self.linked:
            return None
        env = self.builder.env
        if page in get_domain(env).generated_pages():
            return self.href(page)
        index = self.builder.config.contributions_index
        if index not in env.found_docs:
            return None
        return f"{self.uri(index)}?tag={quote(slug)}"  # "" on the list itself: "?tag=…", the same page

    def href(self, target: str) -> str:
        """The ``href`` of a link to ``target`` (``#`` on ``target`` itself, as docutils writes it)."""
        return self.uri(target) or "#"


def resolve_page_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: a relative link to a generated page on site builders, its text elsewhere."""
    if not holds_own_nodes(app, docname):  # a page without the extension's nodes: nothing to do
        return
    builder = app.builder
    for node in list(doctree.findall(cn.page_link)):
        uri = None
        if is_site_builder(builder) and node.get("project"):  # a project: its page, else its section
            uri = Links(builder, docname).project_href(node["target"], node["project"])
        elif is_site_builder(builder):
            uri = builder.get_relative_uri(docname, node["target"])
        if uri is not None:
            new: nodes.Element = nodes.reference("", "", *node.children, internal=True, refuri=uri)
        else:
            new = nodes.inline("", "", *node.children)
        new["classes"] = list(node["classes"])
        node.replace_self(new)
    published = get_domain(app.env).has_published()
    for export in list(doctree.findall(cn.export_link)):
        if is_site_builder(builder) and export["target"] in written_exports(app, published):
            uri = relative_uri(builder.get_target_uri(docname), export["target"])
            new = nodes.reference("", "", *export.children, internal=True, refuri=uri)
        else:
            new = nodes.inline("", "", *export.children)
        new["classes"] = ["contrib-export"]
        export.replace_self(new)


def mark_outbound_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Outbound links on every page with ``contributions_external_rel``, else on pages showing the extension's work."""
    if not writes_html(app.builder) or not (app.config.contributions_external_rel or doctree.get(cn.USES_ASSETS)):
        return
    for node in doctree.findall(nodes.reference):
        if not node.get("internal") and urlsplit(node.get("refuri", "")).scheme in {"http", "https"}:
            node["rel"] = EXTERNAL_REL


class LinksToCheck(SphinxPostTransform):
    """linkcheck: the links the header and figures render, as references at their directive's line, before Sphinx's
    ``HyperlinkCollector`` (800)."""

    builders = ("linkcheck",)
    default_priority = 790

    def run(self, **kwargs: Any) -> None:
        domain = get_domain(self.env)
        for header in list(self.document.findall(cn.contribution_header)):
            record = domain.contributions.get(header.get("docname", ""))
            if record is not None:
                _add_beside(header, (record.pr_url, *record.issue_urls, record.repo_url))
        for figure in list(self.document.findall(cn.metric)):
            _add_beside(figure, tuple(item.url for item in metric_from_node(figure).evidence))


def _add_beside(node: nodes.Element, urls: tuple[str, ...]) -> None:
    """A reference to each of ``urls`` after ``node``, at its line."""
    if not urls or node.parent is None:
        return
    holder = nodes.inline(classes=["contrib-linkcheck"])
    holder.source, holder.line = node.source, node.line
    for url in urls:
        reference = nodes.reference(url, url, refuri=url)
        reference.source, reference.line = node.source, node.line
        holder += reference
    node.parent.insert(node.parent.index(node) + 1, holder)


def setup_links(app: Sphinx) -> None:
    app.add_post_transform(LinksToCheck)
