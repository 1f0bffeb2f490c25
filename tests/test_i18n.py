"""The words the extension writes go through ``sphinx.locale`` (catalog ``sphinx_contributions``): a site
with a catalog for its ``language`` shows them translated; without one they stay English.

``python -m tests.test_i18n`` rewrites ``sphinx_contributions/locale/sphinx_contributions.pot`` from the
sources (``_``/``ngettext`` in the package, ``tr`` in its templates).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
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
    assert _text(tag, ".body h1") == ["Etikett: Shared Tag"]
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
    assert _text(out / "tags/shared-tag.html", ".body h1") == ["Tag: Shared Tag"]


# -- the author's words (summary, figure label, unit) and numbers in the site's language -----------------


def _i18n_site(rootdir: Path, tmp_path: Path) -> Path:
    """A copy of ``test-i18n``: its German catalogs are compiled into the copy when it builds."""
    src = tmp_path / "src"
    shutil.copytree(rootdir / "test-i18n", src)
    return src


def test_gettext_extracts_the_summary_the_figure_label_and_its_unit(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    app = make_app("gettext", srcdir=_i18n_site(rootdir, tmp_path), freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    out = Path(app.outdir)
    with (out / "alpha-1.pot").open("rb") as pot:
        messages = [(m.id, m.locations) for m in read_po(pot) if m.id]
    page = os.path.relpath(Path(app.srcdir) / "alpha-1.md", out)
    assert messages == [
        ("Alpha fix", [(page, 1)]),
        ("Makes the *parser* faster.", [(page, 8)]),  # the summary, at its option's line
        ("Problem", [(page, 11)]),
        ("Alpha problem.", [(page, 12)]),
        ("Root cause", [(page, 15)]),
        ("Alpha cause.", [(page, 16)]),
        ("Fix", [(page, 19)]),
        ("Alpha fix.", [(page, 20)]),
        ("Verification", [(page, 23)]),
        ("Alpha verified.", [(page, 24)]),
        ("Parse time", [(page, 26)]),  # the figure's label, on the directive's line
        ("seconds", [(page, 29)]),  # its unit, at its option's line
    ]


def _german(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> Path:
    app = make_app("html", srcdir=_i18n_site(rootdir, tmp_path), freshenv=True, confoverrides={"language": "de"})
    app.build()
    assert strip_colors(app.warning.getvalue()) == ""
    return Path(app.outdir)


def test_a_translated_site_shows_the_authors_words_and_numbers_in_its_language(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    out = _german(make_app, rootdir, tmp_path)
    page = out / "alpha-1.html"
    # the header: the summary with its markup, the figure with its label and unit (values as written)
    assert _text(page, ".contrib-summary") == ["Macht den Parser schneller."]
    assert [str(node) for node in soup(page).select(".contrib-summary em")] == ["<em>Parser</em>"]
    assert _text(page, ".contrib-stat") == ["Parsezeit 5400 Sekunden → 0.1 Sekunden ≈54.000× niedriger"]
    assert soup(page).select_one('meta[name="description"]')["content"] == "Macht den Parser schneller."  # type: ignore[index]
    # the figure itself
    assert _text(page, "figure.contrib-metric figcaption") == ["Parsezeit"]
    assert _text(page, ".contrib-metric-before") == ["vorher 5400 Sekunden"]
    assert _text(page, ".contrib-metric-after") == ["nachher 0.1 Sekunden"]
    assert _text(page, ".contrib-metric-change") == ["≈54.000× niedriger"]
    # the listing: the translated page, and an untranslated one with German separators only
    assert _text(out / "index.html", "tr.contrib-item") == [
        "alpha #1 Alpha fix Macht den Parser schneller. zusammengeführt "
        "Parsezeit: 5400 Sekunden → 0.1 Sekunden (≈54.000× niedriger)",
        "beta #2 Beta fix Beta summary. open Peak memory: 2000 MB → 1950 MB (≈2,5 % niedriger)",
    ]
    # an axis' ticks take the separators too
    assert _text(out / "beta-2.html", ".contrib-chart-tick-label") == ["0", "500", "1.000", "1.500", "2.000"]
    # the export: the page's words as the site shows them, the extension's words and numbers in English
    records = json.loads((out / "contributions.json").read_text(encoding="utf-8"))["contributions"]
    alpha = next(record for record in records if record["key"] == "alpha#1")
    assert alpha["summary"] == "Macht den Parser schneller."
    assert [(m["label"], m["unit"], m["change"]) for m in alpha["metrics"]] == [
        ("Parsezeit", "Sekunden", "≈54,000× lower")
    ]


def test_a_changed_translation_reaches_the_listing_on_the_next_build(rootdir: Path, tmp_path: Path) -> None:
    # separate processes, as on the command line: Python's gettext keeps a catalog it read for the process
    src, out = _i18n_site(rootdir, tmp_path), tmp_path / "html"
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", "-D", "language=de", str(src), str(out)]
    subprocess.run(command, check=True)
    po = src / "locales/de/LC_MESSAGES/alpha-1.po"
    po.write_text(po.read_text(encoding="utf-8").replace("Macht den", "Beschleunigt den"), encoding="utf-8")
    subprocess.run(command, check=True)
    assert _text(out / "index.html", "tr.contrib-item td:nth-of-type(4)") == [
        "Beschleunigt den Parser schneller.",
        "Beta summary.",
    ]


def test_without_a_language_the_words_and_numbers_are_as_written_and_english(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    app = make_app("html", srcdir=_i18n_site(rootdir, tmp_path), freshenv=True)
    app.build()
    out = Path(app.outdir)
    assert _text(out / "index.html", "tr.contrib-item") == [
        "alpha #1 Alpha fix Makes the parser faster. merged Parse time: 5400 seconds → 0.1 seconds (≈54,000× lower)",
        "beta #2 Beta fix Beta summary. open Peak memory: 2000 MB → 1950 MB (≈2.5% lower)",
    ]
    assert _text(out / "beta-2.html", ".contrib-chart-tick-label") == ["0", "500", "1,000", "1,500", "2,000"]


def test_the_filter_scripts_words_come_from_the_page(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    out = _german(make_app, rootdir, tmp_path)
    found = soup(out / "index.html").select('script#contrib-filter-labels[type="application/json"]')
    assert len(found) == 1
    assert json.loads(found[0].get_text()) == {
        "legend": {"project": "Projekt", "tag": "Schlagwort", "status": "Status"},
        "all": "Alle",
        "all_of": {"project": "All projects", "tag": "Alle Schlagwörter", "status": "All states"},
        "panel": "Filter contributions",
        "disclosure": "Nach Projekt, Schlagwort oder Status filtern",
        "disclosure_of": {
            "project tag status": "Nach Projekt, Schlagwort oder Status filtern",
            "project tag": "Filter by project or tag",
            "project status": "Filter by project or state",
            "tag status": "Filter by tag or state",
            "project": "Filter by project",
            "tag": "Filter by tag",
            "status": "Filter by state",
        },
        "unknown_of": {
            "project": "No contribution is of the project “%(value)s”; all are shown.",
            "tag": "No contribution has the tag “%(value)s”; all are shown.",
            "status": "No contribution has the state “%(value)s”; all are shown.",
        },
        "reset": "All (clear filters)",
        "showing": "%(shown)s von %(total)s Beiträgen.",
        "active": "Aktive Filter: %(filters)s.",
        "filter": "%(facet)s: %(value)s",
        "none_active": "Kein Filter aktiv.",
        "states": {
            "merged": "zusammengeführt",
            "open": "open",
            "closed": "closed",
            "draft": "draft",
            "unstated": "not stated",
        },
    }


#: every string the filter script may hold: class names, selectors, attribute, element and event names,
#: and the keys of its labels; a word a reader would see is not one of them
SCRIPT_STRINGS = {
    "use strict", "project", "tag", "status", "contrib-project--", "contrib-tag--", "contrib-status--",
    ".contrib-project", ".contrib-facet-tag-", "", "?", "div", "contrib-facets", "role", "search", "aria-label",
    "details", "summary", "contrib-facets-body", "fieldset", "legend", "button", "contrib-reset", "p",
    "contrib-facet-status", "contrib-facet-status-", "aria-live", "polite", "aria-pressed", "(min-width: 40em)",
    "click", "popstate", "contrib-filter-labels", "loading", "DOMContentLoaded", ".contrib-item",
    ".contrib-listing.contrib-filterable", " ", ", ",
}  # fmt: skip


def test_the_filter_script_holds_no_words() -> None:
    script = (PACKAGE / "static" / "contributions.js").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|^\s*//.*$|//[^\"\n]*$", "", script, flags=re.DOTALL | re.MULTILINE)
    strings = {match[1:-1] for match in re.findall(r'"(?:[^"\\\n]|\\.)*"', code)}
    assert strings - SCRIPT_STRINGS == set()


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
