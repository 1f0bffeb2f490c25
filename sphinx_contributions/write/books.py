"""Write-ups in every book (PDF, ePub, singlehtml, Texinfo, man), each a chapter after the root's toctree, added by a
post-transform to the root's tree being written: the environment, shared by every builder, is left as it is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.console import darkgreen  # type: ignore[attr-defined]
from sphinx.util.nodes import inline_all_toctrees

from .. import nodes as cn
from ..builders import output_of, writes_one_page
from ..collect.domain import get_domain
from ..keys import key_lookup, slugify
from ..queries import projects, select
from ..read.myst_settings import uses_colon_fences
from ..records import Contribution
from ..render.listing import Renderer
from ..render.projects import render_projects
from ..settings import conf_location
from ..warnings import ContribWarning, warn
from .manifest import shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder

    from ..collect.domain import ContributionsDomain


class WriteupChapters(SphinxPostTransform):
    """Adds the write-ups to a book's root document before references are resolved, so links to them stay inside the
    book."""

    default_priority = 5
    #: the application the transform runs in (:func:`setup_books`)
    application: ClassVar[Sphinx]

    def run(self, **kwargs: Any) -> None:
        builder = self.application.builder
        if not output_of(builder).book or self.env.current_document.docname != self.config.root_doc:
            return
        domain: ContributionsDomain = self.env.domains["contrib"]  # type: ignore[assignment]
        published = domain.published()  # by project, then by pull-request number
        order = sorted(published, key=lambda c: (key_lookup(c.display_project), key_lookup(c.repo), c.pr, c.docname))
        docnames = [record.docname for record in order]
        if not docnames:
            return
        if output_of(builder).inlines:
            self._inline(builder, docnames)
        else:
            reached = _reached(self.env.toctree_includes, self.config.root_doc)
            if missing := [docname for docname in docnames if docname not in reached]:
                self._add_toctree(missing)

    def _inline(self, builder: Builder, docnames: list[str]) -> None:
        """The inlined documents, then the write-ups, as the last parts of the root's first section."""
        document = self.document
        root = next((node for node in document.children if isinstance(node, nodes.section)), document)
        inlined = [node for node in document.findall(addnodes.start_of_file) if node.parent is not None]
        top = [node for node in inlined if not _inside_start_of_file(node)]
        # the book builders record the documents they hold: links to any other become plain text
        held: set[str] = getattr(builder, "docnames", None) or set()
        traversed = [self.config.root_doc, *(node["docname"] for node in inlined)]
        for node in top:
            node.parent.remove(node)
        chapters: list[nodes.Node] = list(top)
        for docname in docnames:
            if docname in traversed:
                continue
            traversed.append(docname)
            subtree = inline_all_toctrees(
                builder, held, docname, self.env.get_doctree(docname), darkgreen, traversed, indent=" "
            )
            held.add(docname)
            chapter = addnodes.start_of_file(docname=docname)
            chapter.children = subtree.children
            for child in chapter.children:
                child.parent = chapter
            for section in chapter.findall(nodes.section):
                section.setdefault("docname", docname)
            chapters.append(chapter)
        root.extend(chapters)

    def _add_toctree(self, docnames: list[str]) -> None:
        """A hidden toctree after the root's last: the write-ups in the ePub's reading order."""
        toctree = addnodes.toctree(
            parent=self.config.root_doc,
            entries=[(None, docname) for docname in docnames],
            includefiles=list(docnames),
            maxdepth=-1,
            caption=None,
            glob=False,
            hidden=True,
            includehidden=False,
            numbered=0,
            titlesonly=False,
        )
        existing = list(self.document.findall(addnodes.toctree))
        if existing:
            last = existing[-1]
            last.parent.insert(last.parent.index(last) + 1, toctree)
        else:
            root = next((node for node in self.document.children if isinstance(node, nodes.section)), self.document)
            root.append(toctree)


def _reached(includes: dict[str, list[str]], root: str) -> set[str]:
    """The documents the root's toctrees reach, directly or through other documents' toctrees."""
    reached, todo = {root}, [root]
    while todo:
        for docname in includes.get(todo.pop(), ()):
            if docname not in reached:
                reached.add(docname)
                todo.append(docname)
    return reached


def _inside_start_of_file(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.start_of_file):
            return True
        parent = parent.parent
    return False


def unique_writeup_ids(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` (``singlehtml``): each write-up's ids, and links to them, prefixed by its page."""
    if not shows_work(app) or not writes_one_page(app.builder) or docname != app.config.root_doc:
        return
    writeups = {record.docname for record in get_domain(app.env).published()}
    renamed: dict[str, dict[str, str]] = {}
    for part in doctree.findall(addnodes.start_of_file):
        if part["docname"] not in writeups:
            continue
        prefix = slugify(part["docname"].rsplit("/", 1)[-1])
        ids = renamed.setdefault(part["docname"], {})
        elements = list(part.findall(nodes.Element))
        for node in elements:
            if node["ids"]:
                ids.update((old, f"{prefix}-{old}") for old in node["ids"])
                node["ids"] = [ids[old] for old in node["ids"]]
        for node in elements:
            if node.get("refid") in ids:
                node["refid"] = ids[node["refid"]]
            if node.get("backrefs"):
                node["backrefs"] = [ids.get(old, old) for old in node["backrefs"]]
    for node in doctree.findall(nodes.reference):
        document, hash_, anchor = node.get("refuri", "").removeprefix("#document-").partition("#")
        if node.get("refuri", "").startswith("#document-") and hash_ and anchor in renamed.get(document, {}):
            node["refuri"] = f"#document-{document}#{renamed[document][anchor]}"


#: the options of a listing node that choose its records
_LISTING_OPTIONS = ("project", "tag", "status", "sort", "limit")


def listings_once(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: in a book of one document a listing whose write-ups were all listed before is left out."""
    if not output_of(app.builder).inlines or docname != app.config.root_doc:
        return
    records = get_domain(app.env).published()
    renderer = Renderer(app.builder, docname)
    shown: set[str] = set()

    def seen_before(chosen: list[Contribution]) -> bool:
        before = bool(chosen) and {record.docname for record in chosen} <= shown
        shown.update(record.docname for record in chosen)
        return before

    listings = doctree.findall(lambda n: isinstance(n, (cn.contribution_list, cn.contribution_projects)))
    for node in list(listings):
        if isinstance(node, cn.contribution_list):
            chosen = select(records, {name: node[name] for name in _LISTING_OPTIONS if name in node.attributes})
            if seen_before(chosen):
                node.parent.remove(node)
            continue
        if not isinstance(node, cn.contribution_projects):
            continue
        # a projects listing: its sections as the site renders them, each project's cards or one line
        names = [child["name"] for child in node.children if isinstance(child, cn.project_intro)]
        sections = render_projects(renderer, node, records)
        for section, project in zip(sections, projects(records, names), strict=True):
            listed = list(project.records)
            cards = section.children[-1] if isinstance(section, nodes.Element) else None
            if seen_before(listed) and isinstance(cards, nodes.Element):
                cards.parent.remove(cards)
        node.replace_self(sections)


def check_epub_version(app: Sphinx) -> None:
    """``builder-inited``: EPUB3 needs a ``version``: where a site with write-ups lacks one, say what to write."""
    epub = output_of(app.builder).epub
    if not epub or str(app.config.version or "").strip() or not uses_colon_fences(app, app.config):
        return
    warn(
        ContribWarning.CONFIG,
        "the ePub needs a 'version' and conf.py sets none, so the strict build stops: add a line such as "
        "version = \"1.0\" to conf.py, beside 'project'",
        conf_location(app, "project"),
    )


def setup_books(app: Sphinx) -> None:
    """The chapters' post transform, of this application."""
    app.add_post_transform(type(WriteupChapters.__name__, (WriteupChapters,), {"application": app}))
