"""Sphinx extension for an engineering portfolio of upstream contributions.

Each pull request is a MyST page with a ``contribution`` header, the sections ``problem``,
``root-cause``, ``fix`` and ``verification``, and ``metric`` figures; ``contributions`` listings, tag
and project pages, ``contributions.json``, an Atom feed and ``objects.inv`` entries all follow from
those pages. See ``AUTHORING.md`` for the format.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils.nodes import inline

from .directives import setup_directives
from .domain import ContribRole, ContributionsDomain
from .drafts import setup_drafts
from .exports import setup_exports
from .incremental import setup_incremental
from .links import setup_links
from .listing import setup_listing
from .metric import setup_metric
from .pages import setup_pages
from .roles import setup_roles

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__version__ = "0.1.0"

STATIC_FILES = ("contributions.css", "contributions.js")


def _add_static_files(app: Sphinx) -> None:
    """``builder-inited``: the extension's CSS and script, for HTML builders only."""
    if app.builder.format != "html":
        return
    app.config.html_static_path.append(str(Path(__file__).parent / "static"))
    app.add_css_file("contributions.css")
    app.add_js_file("contributions.js", loading_method="defer")


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx_design")
    app.add_config_value("contributions_index", "contributions/index", "env", types=frozenset({str}))
    app.add_domain(ContributionsDomain)
    app.add_role("contrib", ContribRole(innernodeclass=inline))
    setup_roles(app)
    setup_directives(app)
    setup_metric(app)
    setup_listing(app)
    setup_links(app)
    setup_pages(app)
    setup_exports(app)
    setup_drafts(app)
    setup_incremental(app)
    app.connect("builder-inited", _add_static_files)
    return {
        "version": __version__,
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
