"""Where a page sits. Write-ups are orphans (reached through listings, so the theme's navigation does not
grow with their number), which leaves a theme nothing to mark. Site builders only:

- in furo's sidebar (also its phone menu), the first ``contributions_sidebar_limit`` write-ups of the
  list (in the list's order) under the list's entry, the current one marked (a write-up further down
  the list is shown after them, marked), then a link to all of them when there are more: a bounded
  number of links on every page, so the build stays linear in the number of write-ups (0: none);
- on a write-up, the list's entry marked current, and previous/next links to the neighbouring
  write-ups, in the order of that list; the first write-up's previous link leads back to the list;
- on a generated project page, the entry of the page that holds the ``projects`` overview marked
  current; on a tag page, the list's.

When what the sidebar shows changes (a title, the order, the limit), every page is rewritten
(:func:`sidebar_changed`)."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any

from ..builders import is_site_builder
from ..domain import get_domain
from ..i18n import _
from ..model import digest, sort_records
from ..written import remember, this_build

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..model import Contribution

#: the default of ``contributions_sidebar_limit``
SIDEBAR_LIMIT = 10


def _entry(uri: str) -> re.Pattern[str]:
    return re.compile(
        r'<li class="toctree-l1( current)?">(<a class=")((?:current )?reference internal" href="'
        + re.escape(escape(uri))
        + r'">.*?</a>)'
    )


def _mark_current(tree: str, uri: str) -> str:
    """The navigation tree's HTML with the top-level entry linking to ``uri`` marked current, as
    Sphinx marks the ancestors of the current page."""
    marked, count = _entry(uri).subn(
        lambda m: f'<li class="toctree-l1 current">{m[2]}{m[3] if m[3].startswith("current") else "current " + m[3]}',
        tree,
        count=1,
    )
    if count and '<ul class="current">' not in marked:
        marked = marked.replace("<ul>", '<ul class="current">', 1)
    return marked if count else tree


def _add_below(tree: str, uri: str, html: str) -> str:
    """``html`` inserted after the link of the top-level entry that links to ``uri``."""
    match = _entry(uri).search(tree)
    return tree[: match.end()] + html + tree[match.end() :] if match else tree


def sidebar_records(app: Sphinx) -> list[Contribution]:
    """The write-ups the sidebar lists, in the list's order: the first ``contributions_sidebar_limit``."""
    domain = get_domain(app.env)
    index = app.config.contributions_index
    ordered = sort_records(domain.published(), domain.listings.get(index) or "project")
    return ordered[: max(app.config.contributions_sidebar_limit, 0)]


def _sidebar_html(app: Sphinx, pagename: str, listed: list[Contribution]) -> str:
    """The write-ups under the list's entry: none when the limit is 0."""
    if app.config.contributions_sidebar_limit <= 0:
        return ""
    domain = get_domain(app.env)
    current = domain.contributions.get(pagename)
    shown_records = list(listed)
    if current is not None and current not in shown_records and current in domain.published():
        shown_records.append(current)
    if not shown_records:
        return ""
    items = []
    for record in shown_records:
        uri = escape(app.builder.get_relative_uri(pagename, record.docname) or "#")  # "#": this page, as Sphinx
        title = escape(record.title)
        if record is current:
            items.append(
                f'<li class="toctree-l2 current current-page"><a class="current reference internal" '
                f'href="{uri}" aria-current="page">{title}</a></li>'
            )
        else:
            items.append(f'<li class="toctree-l2"><a class="reference internal" href="{uri}">{title}</a></li>')
    total = len(domain.published())
    if total > len(shown_records):
        index_uri = escape(app.builder.get_relative_uri(pagename, app.config.contributions_index))
        more = escape(_("All %(count)s contributions") % {"count": total})
        items.append(
            f'<li class="toctree-l2"><a class="reference internal contrib-nav-more" href="{index_uri}">{more}</a></li>'
        )
    return '<ul class="contrib-nav">' + "".join(items) + "</ul>"


def _link(app: Sphinx, pagename: str, target: str, title: str) -> dict[str, str]:
    return {"link": app.builder.get_relative_uri(pagename, target), "title": escape(title)}


def _overview_page(app: Sphinx) -> str | None:
    """The page that holds the ``projects`` overview (the first, by name), if any."""
    intros = get_domain(app.env).data.get("project_intros", {})
    return next((docname for docname in sorted(intros) if docname in app.env.found_docs), None)


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``, after the theme's: the write-ups in the sidebar, the current entry, and on a
    write-up its previous/next links."""
    if not is_site_builder(app.builder):
        return
    domain = get_domain(app.env)
    index = app.config.contributions_index
    has_index = index in app.env.found_docs
    tree = context.get("furo_navigation_tree")
    record = domain.contributions.get(pagename)
    if isinstance(tree, str) and has_index:
        index_uri = app.builder.get_relative_uri(pagename, index)
        if record is not None or pagename.startswith("tags/"):
            tree = _mark_current(tree, index_uri)
        elif pagename.startswith("projects/") and (overview := _overview_page(app)) is not None:
            tree = _mark_current(tree, app.builder.get_relative_uri(pagename, overview))
        tree = _add_below(tree, index_uri, _sidebar_html(app, pagename, sidebar_records(app)))
        context["furo_navigation_tree"] = tree
    if record is None:
        return
    before, after = domain.neighbours(index, pagename)
    index_title = app.env.titles[index].astext() if has_index else ""
    context["prev"] = _neighbour(app, pagename, before) or (
        _link(app, pagename, index, index_title) if has_index else None
    )
    context["next"] = _neighbour(app, pagename, after)


def _neighbour(app: Sphinx, pagename: str, record: Contribution | None) -> dict[str, str] | None:
    return _link(app, pagename, record.docname, record.title) if record is not None else None


def sidebar_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated`` (after :mod:`..incremental`'s): every page, and every generated page, when
    what the sidebar lists changed since this output was written."""
    if not is_site_builder(app.builder):
        return []
    limit = app.config.contributions_sidebar_limit
    listed = [(r.docname, r.title) for r in sidebar_records(app)]
    # what every page's sidebar shows: the first write-ups and, past the limit, how many there are
    new = {"sidebar": digest((limit, listed, len(get_domain(env).published()) if limit > 0 else 0))}
    old = remember(app, "sidebar", new)
    if old is None or old == new:
        return []
    build = this_build(app)
    build["stale"] = sorted(set(build.get("stale", [])) | set(get_domain(env).generated_pages()))
    return sorted(env.found_docs)


def setup_navigation_render(app: Sphinx) -> None:
    app.add_config_value("contributions_sidebar_limit", SIDEBAR_LIMIT, "html", types=frozenset({int}))
    app.connect("html-page-context", page_context, priority=600)  # after furo's (500) builds the tree
    app.connect("env-get-updated", sidebar_changed, priority=900)  # after .incremental notes stale pages
