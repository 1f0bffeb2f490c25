"""The looks through a page for the extension's nodes, taken only where one of its directives or roles ran
(``sphinx_contributions/nodes.py``'s ``MADE_HERE``, left by ``read/marks.py``).

``tests/roots/test-contrib-pages`` (write-ups, a listing) with a plain Markdown page and a plain reST page
added is built in this process, and every look the package takes through a page while the pages are read
(``nodes.walk`` and docutils' ``findall``, called from a module of the package) is noted with the page and
the module. On main, every page was looked through by the domain, the own-nodes collector, the structure
checks, the ``{pr}`` links' transform, the translated options and the title's: seven looks on a page
that none of the extension's directives touched. On 0ba5fc5 such a page still got one look, for its
cross-references (the links to a write-up's title and the untitled ``{doc}`` links, so that a change of
a title rewrote the pages that show it); now the one digest of what pages show of each other
(``write/manifest.py``, every title from Sphinx's own ``env.titles``) answers that, and a page the
extension's directives and roles did not run on is not looked through at all."""

from __future__ import annotations

import shutil
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes
from sphinx.util.build_phase import BuildPhase
from sphinx.util.console import strip_colors

import sphinx_contributions.nodes as cn

from .conftest import ROOTS, MakeApp

PLAIN_MD = "# Plain\n\nA page of the site's own, with a [link](index.md) and *no* write-up.\n"
PLAIN_RST = "Notes\n=====\n\nA page of the site's own: :doc:`index`.\n\n.. note::\n\n   Nothing here.\n"
#: the looks through a page of the site's own: none
EVERY_PAGE: set[str] = set()


def _looks(make_app: MakeApp, tmp_path: Path, extensions: list[str], **settings: Any) -> dict[str, set[str]]:
    """docname → the modules of the package that looked through it while it was read, with ``extensions``
    and ``settings``."""
    srcdir = tmp_path / "src"
    shutil.copytree(ROOTS / "test-contrib-pages", srcdir)
    (srcdir / "plain.md").write_text(PLAIN_MD, encoding="utf-8")
    (srcdir / "notes.rst").write_text(PLAIN_RST, encoding="utf-8")
    with (srcdir / "index.md").open("a", encoding="utf-8") as index:
        index.write("\n```{toctree}\nplain\nnotes\n```\n")
    app = make_app("html", srcdir=srcdir, confoverrides={"extensions": extensions, **settings}, status=StringIO())
    looks: dict[str, set[str]] = {}

    def note() -> None:
        caller = sys._getframe(2).f_globals.get("__name__", "")
        if app.phase == BuildPhase.READING and caller.startswith("sphinx_contributions."):
            looks.setdefault(app.env.current_document.docname, set()).add(caller)

    walk, findall = cn.walk, nodes.Node.findall

    def counted_walk(tree: nodes.Node) -> Any:
        note()
        return walk(tree)

    def counted_findall(self: nodes.Node, *args: Any, **kwargs: Any) -> Any:
        note()
        return findall(self, *args, **kwargs)

    patch = pytest.MonkeyPatch()
    patch.setattr(cn, "walk", counted_walk)
    patch.setattr(nodes.Node, "findall", counted_findall)
    try:
        app.build()
    finally:
        patch.undo()
    return looks


@pytest.mark.parametrize("everywhere", [False, True])
def test_a_page_without_the_extension_s_directives_is_looked_through_only_for_its_links(
    make_app: MakeApp, tmp_path: Path, everywhere: bool
) -> None:
    extensions = ["myst_parser", "sphinx_contributions"]
    looks = _looks(make_app, tmp_path, extensions, **({"contributions_assets_everywhere": True} if everywhere else {}))
    assert looks.get("plain", set()) == EVERY_PAGE
    assert looks.get("notes", set()) == EVERY_PAGE
    # a write-up gets every look, as before
    assert {
        "sphinx_contributions.collect.domain",
        "sphinx_contributions.collect.own_nodes",
        "sphinx_contributions.check.structure",
        "sphinx_contributions.read.roles",
        "sphinx_contributions.i18n",
        "sphinx_contributions.collect.titles",
    } <= looks["full"]


PLAIN_PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Hello there."
msgstr "Hallo, siehe {pr}`#7`."
"""


def test_a_role_only_a_translation_writes_marks_the_page(make_app: MakeApp, tmp_path: Path) -> None:
    """The translation of a page's text is parsed as a document of its own (Sphinx's Locale transform): a
    ``{pr}`` it alone holds still marks the page it lands on, which then warns as any such link does (a
    mark on the parsed document left the link unresolved, and the HTML writer stopped on it)."""
    srcdir = tmp_path / "src"
    shutil.copytree(ROOTS / "test-i18n", srcdir)
    (srcdir / "plain.md").write_text("# Plain\n\nHello there.\n", encoding="utf-8")
    (srcdir / "locales" / "de" / "LC_MESSAGES" / "plain.po").write_text(PLAIN_PO, encoding="utf-8")
    with (srcdir / "index.md").open("a", encoding="utf-8") as index:
        index.write("\n```{toctree}\nplain\n```\n")
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "de"}, status=StringIO())
    app.build()
    assert strip_colors(app.warning.getvalue()).splitlines() == [
        f"{srcdir / 'plain.md'}:3:<translated>:1: WARNING: {{pr}} '#7' needs 'owner/repo#7' outside a "
        "contribution page [contrib.bad_target]"
    ]
    assert "Hallo, siehe <code" in (app.outdir / "plain.html").read_text(encoding="utf-8")
