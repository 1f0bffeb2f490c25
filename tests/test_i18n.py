"""The words the extension writes go through ``sphinx.locale`` (catalog ``sphinx_contributions``): a site
with a catalog for its ``language`` shows them translated; without one they stay English.

``python -m tests.test_i18n`` rewrites ``sphinx_contributions/locale/sphinx_contributions.pot`` from the
sources (``_``/``ngettext`` in the package, ``tr`` in its templates).
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from sphinx.util.console import strip_colors

from .conftest import MakeApp
from .htmltools import soup

PACKAGE = Path(__file__).resolve().parent.parent / "sphinx_contributions"
POT = PACKAGE / "locale" / "sphinx_contributions.pot"

#: a tiny catalog for the made-up language "xx"
TRANSLATIONS = {
    "Tags:": "Etiketten:",
    "before": "vorher",
    "after": "nachher",
    "≈%(ratio)s× lower": "≈%(ratio)s× tiefer",
    "PR #%(number)s": "Änderung #%(number)s",
    "Pull request #%(number)s": "Änderung #%(number)s",
    "Project": "Vorhaben",
    "No contributions match.": "Nichts passt.",
    "Tag: %(name)s": "Etikett: %(name)s",
    "All contributions": "Alle Beiträge",
    "open": "offen",
}
PLURAL = ("%(count)s contribution.", "%(count)s contributions.", ("%(count)s Beitrag.", "%(count)s Beiträge."))


def _catalog() -> Catalog:
    catalog = Catalog(locale="de", domain="sphinx_contributions")  # German plural rules for "xx"
    for message, translation in TRANSLATIONS.items():
        catalog.add(message, translation)
    catalog.add((PLURAL[0], PLURAL[1]), PLURAL[2])
    return catalog


def _site(rootdir: Path, tmp_path: Path) -> Path:
    src = tmp_path / "src"
    shutil.copytree(rootdir / "test-listing", src)
    (src / "index.md").write_text(
        "# Listings\n\n## All\n\n:::{contributions}\n:::\n\n## Nothing\n\n:::{contributions}\n:project: nowhere\n:::\n",
        encoding="utf-8",
    )
    return src


def _build(make_app: MakeApp, src: Path, **overrides: object) -> Path:
    """Build; the only warnings allowed are docutils' own about the made-up language (once per page)."""
    app = make_app("html", srcdir=src, freshenv=True, confoverrides=overrides)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).splitlines()
    assert [line for line in warnings if 'Language "xx" not supported' not in line] == []
    return Path(app.outdir)


def _text(path: Path, selector: str) -> list[str]:
    return [node.get_text(" ", strip=True) for node in soup(path).select(selector)]


def test_a_sites_catalog_translates_the_extensions_words(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    src = _site(rootdir, tmp_path)
    messages = src / "locales" / "xx" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    with (messages / "sphinx_contributions.mo").open("wb") as mo:
        write_mo(mo, _catalog())
    out = _build(make_app, src, language="xx", locale_dirs=["locales"])

    page = out / "b-2.html"
    assert _text(page, ".contrib-tags-label") == ["Etiketten:"]
    assert _text(page, "#contribution .contrib-pr-link") == ["Änderung #2 ↗"]
    assert _text(page, "#contribution .contrib-state") == ["offen"]
    assert _text(page, ".contrib-metric-tag") == ["vorher", "nachher"]
    assert _text(page, ".contrib-metric-change") == ["≈4× tiefer"]
    assert _text(page, ".contrib-stat-change") == ["≈4× tiefer"]
    index = out / "index.html"
    assert _text(index, "table.contrib-table thead th")[0] == "Vorhaben"
    assert _text(index, ".contrib-empty") == ["Nichts passt."]
    tag = out / "tags/shared-tag.html"
    assert _text(tag, "h1") == ["Etikett: Shared Tag"]
    assert _text(tag, ".contrib-count") == ["2 Beiträge."]
    assert _text(out / "tags/one.html", ".contrib-count") == ["1 Beitrag."]
    assert "Alle Beiträge" in _text(tag, ".contrib-generated > p a")


def test_a_po_file_is_compiled_when_the_build_starts(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    src = _site(rootdir, tmp_path)
    messages = src / "locales" / "xx" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    with (messages / "sphinx_contributions.po").open("wb") as po:
        write_po(po, _catalog())
    out = _build(make_app, src, language="xx", locale_dirs=["locales"])
    assert (messages / "sphinx_contributions.mo").is_file()
    assert _text(out / "b-2.html", ".contrib-tags-label") == ["Etiketten:"]


def test_without_a_catalog_the_words_stay_english(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    # "xx" with no catalog of ours: English, as in a build without the language set
    out = _build(make_app, _site(rootdir, tmp_path), language="xx")
    assert _text(out / "b-2.html", ".contrib-tags-label") == ["Tags:"]
    assert _text(out / "tags/shared-tag.html", "h1") == ["Tag: Shared Tag"]


# -- the catalog template shipped for translators --------------------------------------------------------


def extracted() -> Catalog:
    """Every message of the package: ``_`` and ``ngettext`` in its modules, ``tr`` in its templates."""
    catalog = Catalog(project="sphinx-contributions", domain="sphinx_contributions")
    method_map = [("**.py", "python"), ("templates/**.html", "jinja2.ext:babel_extract")]
    options_map = {"templates/**.html": {"extensions": "jinja2.ext.do"}}
    keywords = {"_": None, "ngettext": (1, 2), "tr": None}
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE, method_map, options_map, keywords=keywords
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def _ids(catalog: Catalog) -> set[object]:
    return {message.id for message in catalog if message.id}


def test_the_shipped_catalog_template_is_current() -> None:
    with POT.open("rb") as pot:
        shipped = read_po(pot)
    assert _ids(shipped) == _ids(extracted()), "run: python -m tests.test_i18n"


def write_pot() -> None:
    buffer = io.BytesIO()
    write_po(buffer, extracted(), omit_header=True, sort_output=True, no_location=True, width=120)
    POT.parent.mkdir(exist_ok=True)
    POT.write_bytes(b"# Messages of sphinx-contributions; regenerate: python -m tests.test_i18n\n" + buffer.getvalue())


if __name__ == "__main__":
    write_pot()
    sys.exit(0)
