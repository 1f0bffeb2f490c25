"""Write-ups in every book: the outputs that are one document (PDF through LaTeX, ePub, singlehtml,
Texinfo, man) hold each write-up as a chapter of its own, after the pages the root's toctree names.

Write-ups are orphans: the HTML navigation reaches them through listings, never through a toctree, so
Sphinx's single-document builders, which follow toctrees from the root, would leave them out. The
environment (and its pickled doctrees) is shared by every builder run on the same doctree directory
(Read the Docs builds html, then latex and epub, on one ``_build/doctrees``), so nothing is added to it:
a post-transform changes only the tree the book builder is about to write, and only for the root
document. For the builders that inline the root's toctrees (latex, texinfo, man, singlehtml) it inlines
the write-ups after them, as Sphinx does for toctree entries; for ePub, which writes a page per document
and takes its reading order and table of contents from the root's toctrees, it adds a hidden toctree.

Every write-up has the same anchors (``#contribution``, ``#problem`` …). On the site and in the ePub each
is a page of its own; ``singlehtml`` puts them all on one page, so there each write-up's ids take its
page's name as a prefix (``#ctranslate2-2103-problem``), and the links to them follow. LaTeX and Texinfo
qualify every label with its document already.
"""

from __future__ import annotations

import re
from pathlib import Path
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
from ..warnings import ContribWarning, warn
from .manifest import shows_work

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.builders import Builder

    from ..collect.domain import ContributionsDomain


def book_order(records: Iterable[Contribution]) -> list[Contribution]:
    """The write-ups in a book: by project, then by pull-request number."""
    return sorted(records, key=lambda c: (key_lookup(c.display_project), key_lookup(c.repo), c.pr, c.docname))


def is_book(builder: Builder) -> bool:
    return output_of(builder).book


class WriteupChapters(SphinxPostTransform):
    """Adds the write-ups to the root document of a book (see the module's docstring).

    It runs before the references are resolved (priority 10), so links to a write-up become links
    inside the book. A post-transform is handed the environment only, whose ``app`` is deprecated and
    ``_app`` private: :func:`setup_books` registers a class of it per application."""

    default_priority = 5
    #: the application the transform runs in (:func:`setup_books`)
    application: ClassVar[Sphinx]

    def run(self, **kwargs: Any) -> None:
        builder = self.application.builder
        if not is_book(builder) or self.env.current_document.docname != self.config.root_doc:
            return
        domain: ContributionsDomain = self.env.domains["contrib"]  # type: ignore[assignment]
        docnames = [record.docname for record in book_order(domain.published())]
        if not docnames:
            return
        if output_of(builder).inlines:
            self._inline(builder, docnames)
        else:
            reached = _reached(self.env.toctree_includes, self.config.root_doc)
            if missing := [docname for docname in docnames if docname not in reached]:
                self._add_toctree(missing)

    def _inline(self, builder: Builder, docnames: list[str]) -> None:
        """The root's inlined documents and then the write-ups become the last parts of the root's
        first section: chapters after the root page's own sections, not sections of its last one."""
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
        """A hidden toctree after the root's last one: the write-ups follow the profile pages in the
        ePub's reading order and table of contents; the root page itself shows nothing of it."""
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
    """``doctree-resolved`` (``singlehtml``, after every handler that writes links, before
    :mod:`.fixes.singlehtml_anchors`): each write-up's ids get its page's name as a prefix; links to them,
    ``#document-<page>#<id>`` or a reference inside the write-up, follow."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return
    if not writes_one_page(app.builder) or docname != app.config.root_doc:
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
    """``doctree-resolved``, before the listings are rendered: in a book that inlines every page into one
    document, a write-up is listed once. The first listing that shows a write-up shows it in full (the
    home page's proof: each title, linking to its chapter); a later listing (or project section) whose
    write-ups were all shown before is left out, since the chapters themselves follow (the home page,
    each open-source project and the contributions page printed the same titles three times before the
    write-ups began: twice as "Write-up: …" lines)."""
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
    """``builder-inited``: EPUB3 needs a ``version`` (Sphinx's own warning says only that it "should not
    be empty"), which a fresh ``conf.py`` may not set: say where, and what to write. Only on a site whose
    pages hold write-ups: a guest's ePub without one hears Sphinx's warning alone, as without the extension."""
    if not output_of(app.builder).epub or str(app.config.version or "").strip():
        return
    if not uses_colon_fences(app, app.config):
        return
    warn(
        ContribWarning.CONFIG,
        "the ePub needs a 'version' and conf.py sets none, so the strict build stops: add a line such as "
        "version = \"1.0\" to conf.py, beside 'project'",
        _project_line(Path(app.confdir) / "conf.py") if app.confdir else None,
    )


def _project_line(conf: Path) -> str | None:
    """``path:line`` of the ``project = …`` line of ``conf.py`` (where ``version`` goes), else None."""
    try:
        lines = conf.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    found = next((i for i, line in enumerate(lines, start=1) if re.match(r"^project\s*=", line)), None)
    return f"{conf}:{found}" if found else None


def setup_books(app: Sphinx) -> None:
    """The chapters' post transform, of this application."""
    app.add_post_transform(type(WriteupChapters.__name__, (WriteupChapters,), {"application": app}))
