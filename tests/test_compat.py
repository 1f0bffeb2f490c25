"""Other packages' private shapes (issue 20, item 9; issue 43, item 7): each is replaced by public API, or
used by a workaround that runs only in the versions ``compat.WORKAROUNDS`` names and whose shape a guard test
checks (``tests/test_workarounds.py``), or checked at run time.

A scan of the package finds every private name of another package it uses, and each one must be listed here
with what guards it. The sitemap is written by :mod:`.fixes.sitemap` alone, so a book's build says nothing
of a sitemap it does not get; the text handed to sphinxext-opengraph is escaped once
(:mod:`.fixes.opengraph_fields`).
"""

from __future__ import annotations

import ast
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from .conftest import REPO, ROOTS, MakeApp

PACKAGE = REPO / "sphinx_contributions"

# -- the scan -------------------------------------------------------------------------------------------------

#: the private names of other packages the extension still reaches, and why each is safe
GUARDED = {
    ("write/fixes/search_objects.py", "_objtypes"): "IndexBuilder's table, in the versions compat names "
    "(test_workarounds)",
    (
        "write/fixes/search_index.py",
        "_mapping",
    ): "IndexBuilder's table, in the versions compat names (test_workarounds)",
    ("write/fixes/search_index.py", "_title_mapping"): "IndexBuilder's table, in the versions compat names "
    "(test_workarounds)",
    ("cli/sphinx_process.py", "sphinx._cli.util.errors"): "imported by name and checked (see below)",
    ("cli/main.py", "_SubParsersAction"): "the standard library's argparse, in a type annotation only",
    ("cli/init.py", "_SubParsersAction"): "the standard library's argparse, in a type annotation only",
    ("cli/serve.py", "_SubParsersAction"): "the standard library's argparse, in a type annotation only",
    ("cli/preview.py", "_file_checksum_inner"): "Sphinx's asset checksum cache, looked up with getattr and "
    "cleared only where it has cache_clear: absent, nothing is cleared (test_serve)",
}


#: a module of the stack named in a string (``importlib.import_module("sphinx._cli.util.errors")``)
MODULE_NAME = re.compile(r"(?:sphinx|docutils|myst_parser|furo|sphinx_design|sphinx_sitemap|sphinxext)(?:\.\w+)+")


def private_uses(path: Path) -> set[tuple[str, str]]:
    """``(file, name)`` of each private name of another package in ``path``: ``x._name`` (not on ``self``
    or ``cls``), ``getattr(x, "_name")`` and imports of a module with a ``_private`` part."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    relative = path.relative_to(PACKAGE).as_posix()
    found = set()

    def private(name: str) -> bool:
        return any(part.startswith("_") and not part.startswith("__") for part in name.split("."))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}):
                found.add((relative, node.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and private(str(node.args[1].value)):
                found.add((relative, str(node.args[1].value)))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module and private(node.module):
            found.add((relative, node.module))
        elif isinstance(node, ast.Import):
            found.update((relative, alias.name) for alias in node.names if private(alias.name))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_NAME.fullmatch(node.value):
            found.update((relative, name) for name in [node.value] if private(name))  # a module named in a string
    return found


def test_no_private_name_of_another_package_is_used_unguarded() -> None:
    """``env._app`` and ``sphinx.builders._epub_base`` (books.py), docutils' ``_directive_registry`` and
    ``_role_registry`` (names.py) were found here: they are public API now; what is left is guarded."""
    found = set().union(*(private_uses(path) for path in sorted(PACKAGE.rglob("*.py"))))
    assert found == set(GUARDED)


# -- sitemap: no claim of a file that is not written ------------------------------------------------------


def sphinx_build(src: Path, out: Path, builder: str) -> str:
    """A strict build of ``src`` (a fresh output folder); its status output, with its folders named."""
    command = [sys.executable, "-m", "sphinx", "-T", "-W", "--keep-going", "-b", builder, "-D", "version=1"]
    command += ["-d", str(out / "doctrees"), str(src), str(out / builder)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=out.parent)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout.replace(str(out), "<out>").replace(str(src), "<src>")  # the last line: out/<builder>


def faults_site(dest: Path, *, sitemap: bool = True) -> Path:
    shutil.copytree(ROOTS / "test-faults", dest)
    if not sitemap:
        conf = dest / "conf.py"
        text = conf.read_text(encoding="utf-8")
        # the same site without sphinx-sitemap, and without the setting that would then say it has no effect
        text = text.replace(', "sphinx_sitemap"]', "]") + "\ncontributions_sitemap = False\n"
        conf.write_text(text, encoding="utf-8")
    return dest


@pytest.mark.parametrize("builder", ["singlehtml", "epub"])
def test_a_book_build_says_nothing_of_a_sitemap(tmp_path: Path, builder: str) -> None:
    """A book gets no sitemap.xml, and its build's output is that of the same site without sphinx-sitemap
    (sphinx-sitemap said "sitemap.xml was generated for URL …" of a file the book does not keep)."""
    with_sitemap = sphinx_build(faults_site(tmp_path / "a/src"), tmp_path / "a/out", builder)
    without = sphinx_build(faults_site(tmp_path / "b/src", sitemap=False), tmp_path / "b/out", builder)
    assert with_sitemap == without
    assert not (tmp_path / "a/out" / builder / "sitemap.xml").exists()


def test_a_site_build_names_the_sitemap_it_writes_once(tmp_path: Path) -> None:
    """The one line about the sitemap is this extension's, of the file it writes (sphinx-sitemap's writer
    does not run: after an incremental build that wrote one page it said "No pages generated")."""
    src, out = faults_site(tmp_path / "src"), tmp_path / "out"
    line = "sitemap.xml was generated for URL https://example.org/site/ in <out>/html/sitemap.xml"
    for _ in range(2):
        status = sphinx_build(src, out, "html")
        assert [text for text in status.splitlines() if "sitemap" in text] == [line]
        (src / "about.md").write_text((src / "about.md").read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")


def test_the_sitemap_shows_each_page_s_last_commit_with_sitemap_show_lastmod(tmp_path: Path) -> None:
    """``sitemap_show_lastmod`` (sphinx-sitemap's setting, through sphinx-last-updated-by-git): each page
    written from a tracked source has its commit's time; a generated page, none."""
    src, out = faults_site(tmp_path / "src"), tmp_path / "out"
    conf = src / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + "sitemap_show_lastmod = True\n", encoding="utf-8")
    environ = {**os.environ, "GIT_AUTHOR_DATE": "2025-03-04T05:06:07Z", "GIT_COMMITTER_DATE": "2025-03-04T05:06:07Z"}
    for git in (["init", "-q"], ["add", "."], ["-c", "user.name=T", "-c", "user.email=t@t", "commit", "-qm", "site"]):
        subprocess.run(["git", "-C", str(src), *git], check=True, env=environ)
    sphinx_build(src, out, "html")
    text = (out / "html/sitemap.xml").read_text(encoding="utf-8")
    entries = dict(re.findall(r"<url><loc>https://example.org/site/([^<]*)</loc>(?:<lastmod>([^<]*)</lastmod>)?", text))
    dated = {link for link, stamp in entries.items() if stamp}
    assert dated == {
        "about.html",
        "index.html",
        *(f"contributions/{name}.html" for name in ("alpha-1", "beta-2", "gamma-3", "index")),
    }
    assert set(entries.values()) == {"2025-03-04T05:06:07Z", ""}


# -- opengraph: text escaped exactly once ---------------------------------------------------------------------

TITLE = 'Fix R&D <b> "quoted"'
SUMMARY = 'Keeps & and <b> and "quotes" as text'


def escaping_make_tag(property: str, content: str, type_: str = "property") -> str:
    """A sphinxext-opengraph that escapes what it writes (as a later release may)."""
    return f'<meta {type_}="{property}" content="{html.escape(content)}" />'


def head_tags(page: Path) -> dict[str, str]:
    """``name`` or ``property`` → the ``content`` attribute as written (not unescaped)."""
    head = page.read_text(encoding="utf-8").split("</head>")[0]
    tags = re.findall(r'<meta (?:name|property)="((?:og:|twitter:|description)[^"]*)" content="([^"]*)"', head)
    assert len(tags) == len({name for name, _ in tags}), tags  # each once
    return dict(tags)


def test_opengraph_tags_show_each_character_escaped_once(make_app: MakeApp, tmp_path: Path) -> None:
    """A title and summary with ``&``, ``<`` and ``"``: every tag that shows them (og:title,
    og:description, og:image:alt, twitter:image:alt, description) holds them escaped once, though
    opengraph (0.13) escapes only ``"``."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-opengraph", src)
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    tags = head_tags(Path(app.outdir) / "contributions/escaping.html")

    def once(text: str) -> str:
        return str(escape(text))

    alt = f"{TITLE} · alpha#1 · merged · {SUMMARY} · Escaping"  # a card without a figure shows its summary
    shown = {name: tags[name] for name in ("og:title", "og:description", "og:image:alt", "twitter:image:alt")}
    assert shown == {
        "og:title": once(TITLE),
        "og:description": once(SUMMARY),
        "og:image:alt": once(alt),
        "twitter:image:alt": str(escape(alt)),  # written by this extension either way
    }
    assert tags["description"] == str(escape(SUMMARY))
    # a page that shows none of the extension's work is opengraph's alone (0.13 writes the title raw)
    assert head_tags(Path(app.outdir) / "index.html")["og:title"] == "Home & <away>"


def test_an_opengraph_outside_the_range_writes_its_own_fields(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A release outside ``compat.WORKAROUNDS["opengraph_fields"]`` (here: one that escapes everything): no
    field is handed over and nothing is said; og:title is opengraph's own, escaped once by it."""
    from sphinx_contributions import compat

    monkeypatch.setitem(compat.WORKAROUNDS, "opengraph_fields", compat.Workaround("sphinxext-opengraph", "<0", ""))
    monkeypatch.setattr("sphinxext.opengraph.make_tag", escaping_make_tag)
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-opengraph", src)
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    tags = head_tags(Path(app.outdir) / "contributions/escaping.html")
    assert tags["og:title"] == html.escape(TITLE)
    assert tags["og:description"] != html.escape(SUMMARY)  # opengraph's own, from the page's text
    assert "&amp;amp;" not in str(tags) and "&amp;lt;" not in str(tags)


# -- docutils' names, without its private registries ------------------------------------------------------


def test_docutils_own_directives_and_roles_are_known(make_app: MakeApp, tmp_path: Path) -> None:
    """Taken from docutils' English language module (its registries are private): canonical names and
    aliases (``rst-class``), roles (``pep``), are never reported as a typo of one of ours."""
    from sphinx_contributions.read.names import is_known

    app = make_app("html", srcdir=faults_site(tmp_path / "src"))
    assert all(is_known(app.env, "directive", name) for name in ("contents", "rst-class", "sectnum", "admonition"))
    assert all(is_known(app.env, "role", name) for name in ("pep", "subscript", "code", "title-reference"))
    assert not is_known(app.env, "directive", "contribtion") and not is_known(app.env, "role", "contribb")


# -- sphinx_process: Sphinx's private error handler ----------------------------------------------------------


def test_sphinx_without_its_error_handler_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sphinx._cli.util.errors`` gone (a later Sphinx): the wrapper says so in one line and runs Sphinx."""
    import sphinx
    import sphinx.cmd.build

    from sphinx_contributions.cli import sphinx_process

    monkeypatch.setitem(sys.modules, sphinx_process.ERRORS_MODULE, None)  # importing it fails
    monkeypatch.setattr(sys, "argv", ["sphinx-build"])  # argparse names the program after it (xdist: "-c")
    with pytest.raises(SystemExit) as stop:
        sphinx_process.main([str(tmp_path / "stopped.json"), "--version"])
    captured = capsys.readouterr()
    assert stop.value.code == 0 and captured.out.startswith("sphinx-build ")
    assert captured.err.splitlines() == [
        f"WARNING: sphinx {sphinx.__version__} has no sphinx._cli.util.errors.handle_exception: a build that "
        "stops is shown by Sphinx's last line, not by the exception it stopped on (sphinx-contributions needs "
        "an update) [contrib.compat]"
    ]
    assert not (tmp_path / "stopped.json").exists()
