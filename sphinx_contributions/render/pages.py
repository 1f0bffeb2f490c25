"""Generated pages: one per tag (``tags/<slug>``) and one per upstream project (``projects/<slug>``),
each listing its contributions, written by site builders only, from the template
``contributions/generated.html`` (a site overrides it from its ``templates_path``, as with ablog's
``collection.html``)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ..builders import is_site_builder
from ..domain import get_domain
from ..exports import base_url
from ..i18n import _, ngettext
from ..incremental import generated_page_is_current
from ..model import GeneratedPage, generated_pages, slugify
from .cards import page_meta_tags
from .links import Links
from .listing import listing_context

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx

#: the page template of every tag and project page
GENERATED_TEMPLATE = "contributions/generated.html"


def heading(page: GeneratedPage) -> str:
    """``Tag: <name>`` or ``Project: <name>``, translated."""
    words = _("Tag: %(name)s") if page.kind == "tag" else _("Project: %(name)s")
    return words % {"name": page.name}


def page_context(app: Sphinx, pagename: str, page: GeneratedPage) -> dict[str, Any]:
    links = Links(app.builder, pagename)
    records = list(page.records)
    index = app.config.contributions_index
    count = ngettext("%(count)s contribution.", "%(count)s contributions.", len(records))
    title = heading(page)
    counted = count % {"count": len(records)}
    base = base_url(app)
    metatags = page_meta_tags(
        title,
        f"{title}: {counted}",
        url=base + app.builder.get_target_uri(pagename) if base else "",
        site=app.config.project,
    )
    return {
        "metatags": metatags,
        **listing_context(records, links, "cards", filterable=False),
        "contrib_page": {
            "kind": page.kind,
            "name": page.name,
            "slug": slugify(page.name),
            "heading": title,
            "count": counted,
            "records": records,
            "index_url": links.uri(index) if index in app.env.found_docs else None,
        },
        "title": escape(title),
        "display_toc": False,
    }


def collect_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """``html-collect-pages``: each tag and project page whose output is not current."""
    if not is_site_builder(app.builder):
        return
    for pagename, page in generated_pages(get_domain(app.env).published()).items():
        if not generated_page_is_current(app, pagename):
            yield pagename, page_context(app, pagename, page), GENERATED_TEMPLATE


def setup_pages(app: Sphinx) -> None:
    app.connect("html-collect-pages", collect_pages)
