"""One place decides what each builder gets (as ablog's ``builder_support``).

A *site* builder writes one HTML file per page into a folder served as a website (``html``,
``dirhtml``): only it gets the extension's exports (``contributions.json``, the feed), head tags,
generated tag and project pages, static files and the fixes for incremental HTML output. A *book*
builder makes one document of the whole site (``singlehtml``, ``epub``, ``latex``, ``texinfo``,
``man``, ``text``…): it gets the write-ups themselves, with links to site-only pages turned into text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.builders.singlehtml import SingleFileHTMLBuilder

from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder

#: HTML builders that do not write a website of separate pages
_NOT_SITES = frozenset({"singlehtml", "epub", "epub3"})


def is_site_builder(builder: Builder) -> bool:
    """Whether ``builder`` writes a website: one HTML file per page, with the extension's extra pages."""
    return builder.format == "html" and builder.name not in _NOT_SITES


def writes_html(builder: Builder) -> bool:
    """Whether ``builder`` writes HTML (the site builders, ``singlehtml``, ``epub``)."""
    return builder.format == "html"


#: books that hold every write-up (see :mod:`.books`) and write links inside themselves
_LINKING_BOOKS = frozenset({"singlehtml", "epub", "latex", "texinfo"})


def links_inside(builder: Builder) -> bool:
    """Whether a link to a write-up is a link in ``builder``'s output: on the site, and in the books that
    hold every write-up (a reference inside the book); text and man have no links."""
    return is_site_builder(builder) or builder.name in _LINKING_BOOKS


def writes_one_page(builder: Builder) -> bool:
    """Whether ``builder`` writes the whole site as one HTML page (``singlehtml``): every document's ids
    share one page, and it writes no index or search page."""
    return isinstance(builder, SingleFileHTMLBuilder)


#: pages a site builder writes besides the documents, which ``singlehtml`` does not write
_NOT_WRITTEN_BY_ONE_PAGE = frozenset({"genindex", "search"})


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``: on ``singlehtml`` the theme links to no index or search page and shows no
    search box, as the builder writes neither page (themes ask ``hasdoc``; furo's search box is a sidebar)."""
    if not writes_one_page(app.builder):
        return
    hasdoc = context["hasdoc"]
    context["hasdoc"] = lambda name: name not in _NOT_WRITTEN_BY_ONE_PAGE and hasdoc(name)
    context["sidebars"] = [name for name in context.get("sidebars", ()) if "search" not in name]


def check_epub_version(app: Sphinx) -> None:
    """``builder-inited``: EPUB3 needs a ``version`` (Sphinx's own warning says only that it "should not
    be empty"), which a fresh ``conf.py`` may not set: say where, and what to write."""
    if app.builder.name not in _EPUB or str(app.config.version or "").strip():
        return
    warn(
        ContribWarning.CONFIG,
        "the ePub needs a 'version' and conf.py sets none, so the strict build stops: add a line such as "
        "version = \"1.0\" (the edition of the portfolio) to conf.py, beside 'project'",
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


#: the builders of an ePub
_EPUB = frozenset({"epub", "epub3"})


def setup_builders(app: Sphinx) -> None:
    app.connect("html-page-context", page_context, priority=400)  # before the theme's own handler
    app.connect("builder-inited", check_epub_version, priority=400)  # before Sphinx's own check
