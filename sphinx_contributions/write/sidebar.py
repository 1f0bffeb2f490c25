"""Where a page sits (write-ups are orphans): the first write-ups in furo's sidebar, the current entry marked,
previous/next links on a write-up."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any

from ..builders import is_site_builder
from ..collect.domain import get_domain
from ..compat import incompatible
from ..i18n import _
from .manifest import shows_work

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

    from ..records import Contribution

#: a top-level entry of furo's navigation tree: the ``<li class="toctree-l1 …">`` and its link
_ENTRY = re.compile(r'<li class="(?P<li>[^"]*)"><a class="(?P<a>[^"]*)" href="(?P<href>[^"]*)"[^>]*>.*?</a>', re.S)


def _with_class(classes: str, name: str, first: bool = False) -> str:
    names = classes.split()
    if name in names:
        return classes
    return " ".join([name, *names] if first else [*names, name])


def _mark_current(tree: str, match: re.Match[str]) -> str:
    """The tree's HTML with the top-level entry ``match`` marked current, as Sphinx marks ancestors."""
    li, a = _with_class(match["li"], "current"), _with_class(match["a"], "current", first=True)
    marked = tree[: match.start("li")] + li + tree[match.end("li") : match.start("a")] + a + tree[match.end("a") :]
    if '<ul class="current">' not in marked:
        marked = marked.replace("<ul>", '<ul class="current">', 1)
    return marked


def _sidebar_html(app: Sphinx, pagename: str) -> str:
    """The write-ups under the list's entry: none when the limit is 0."""
    if app.config.contributions_sidebar_limit <= 0:
        return ""
    domain = get_domain(app.env)
    ordered = domain.in_list_order(app.config.contributions_index)
    shown_records = ordered[: app.config.contributions_sidebar_limit]  # the first, in the list's order
    current = domain.contributions.get(pagename)
    if current is not None and current not in shown_records and domain.by_key(current.key) is current:
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
    total = len(ordered)
    if total > len(shown_records):
        index_uri = escape(app.builder.get_relative_uri(pagename, app.config.contributions_index))
        more = escape(_("All %(count)s contributions") % {"count": total})
        items.append(
            f'<li class="toctree-l2"><a class="reference internal contrib-nav-more" href="{index_uri}">{more}</a></li>'
        )
    return '<ul class="contrib-nav">' + "".join(items) + "</ul>"


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``, after the theme's: the sidebar's write-ups, the current entry, previous/next."""
    if not shows_work(app) or not is_site_builder(app.builder):  # nothing of the extension's in this output
        return
    domain = get_domain(app.env)
    index = app.config.contributions_index
    has_index = index in app.env.found_docs
    tree = context.get("furo_navigation_tree")
    record = domain.contributions.get(pagename)
    if isinstance(tree, str) and has_index:
        context["furo_navigation_tree"] = _furo_tree(app, pagename, tree, record is not None)
    if record is None:
        return
    before, after = domain.neighbours(index, pagename)
    # the first write-up has no previous one (the breadcrumb leads back to the list), the last no next one
    context["prev"] = _neighbour(app, pagename, before)
    context["next"] = _neighbour(app, pagename, after)


def _furo_tree(app: Sphinx, pagename: str, tree: str, is_write_up: bool) -> str:
    """furo's navigation tree with the current entry marked and the write-ups listed under the list's entry."""
    index = app.config.contributions_index
    the_list = f"the list of contributions ({index!r})"
    intros = sorted(get_domain(app.env).data.get("project_intros", {}))  # the first page with a projects overview
    overview = next((docname for docname in intros if docname in app.env.found_docs), None)
    if is_write_up or pagename.startswith("tags/"):
        tree = _edited(app, pagename, tree, index, the_list, _mark_current)
    elif pagename.startswith("projects/") and overview is not None:
        tree = _edited(app, pagename, tree, overview, f"the projects overview ({overview!r})", _mark_current)
    listed = _sidebar_html(app, pagename)
    if listed:
        tree = _edited(
            app, pagename, tree, index, the_list, lambda tree, entry: tree[: entry.end()] + listed + tree[entry.end() :]
        )
    return tree


def _edited(
    app: Sphinx, pagename: str, tree: str, target: str, what: str, edit: Callable[[str, re.Match[str]], str]
) -> str:
    """``edit`` applied to the top-level entry of ``target``; a link in another shape is warned once."""
    # the href Sphinx's toctree writes: "#" for the page itself
    href = "#" if target == pagename else escape(app.builder.get_relative_uri(pagename, target))
    # the top-level entry whose link's href attribute is that (as written, escaped)
    entry = next((m for m in _ENTRY.finditer(tree) if m["href"] == href and "toctree-l1" in m["li"].split()), None)
    if entry is not None:
        return edit(tree, entry)
    if f'href="{href}"' in tree:
        incompatible(
            "furo",
            'top-level navigation entries of the shape <li class="toctree-l1 …"><a class="… reference internal" '
            'href="…">',
            f"the sidebar neither marks nor extends the entry of {what}",
        )
    return tree


def _neighbour(app: Sphinx, pagename: str, record: Contribution | None) -> dict[str, str] | None:
    if record is None:
        return None
    return {"link": app.builder.get_relative_uri(pagename, record.docname), "title": escape(record.title)}
