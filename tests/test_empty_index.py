"""A site without index entries gets no empty "Index" page (``genindex.html``) and no link to one; a site
with an entry keeps its index (``sphinx_contributions/write/fixes/empty_index.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import MakeApp

BASE = 'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
#: the portfolio's choice (on in what `contributions init` writes); off, a guest's index stays
CONF = BASE + "contributions_hide_empty_index = True\n"


@pytest.mark.parametrize("theme", ["alabaster", "furo"])
def test_no_entries_no_index_page(make_app: MakeApp, tmp_path: Path, theme: str) -> None:
    (tmp_path / "conf.py").write_text(CONF + f"html_theme = {theme!r}\n", encoding="utf-8")
    (tmp_path / "index.md").write_text("# Home\n\nNo index entry here.\n", encoding="utf-8")
    stale = tmp_path / "_build" / "html" / "genindex.html"
    stale.parent.mkdir(parents=True)
    stale.write_text("an earlier build's index", encoding="utf-8")
    app = make_app("html", srcdir=tmp_path, freshenv=True, warningiserror=True)
    app.build(force_all=True)
    out = Path(app.outdir)
    assert out == stale.parent
    assert not (out / "genindex.html").exists()
    assert "genindex" not in (out / "index.html").read_text(encoding="utf-8")


def test_a_site_with_an_entry_keeps_its_index(make_app: MakeApp, tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    (tmp_path / "index.md").write_text("# Home\n\n```{index} causality\n```\n\nText.\n", encoding="utf-8")
    app = make_app("html", srcdir=tmp_path, freshenv=True, warningiserror=True)
    app.build(force_all=True)
    out = Path(app.outdir)
    assert "causality" in (out / "genindex.html").read_text(encoding="utf-8")
    assert 'href="genindex.html"' in (out / "index.html").read_text(encoding="utf-8")


def test_a_guest_site_keeps_its_empty_index(make_app: MakeApp, tmp_path: Path) -> None:
    """Without ``contributions_hide_empty_index`` the index is the site's: written and linked, as
    without the extension."""
    (tmp_path / "conf.py").write_text(BASE, encoding="utf-8")
    (tmp_path / "index.md").write_text("# Home\n\nNo index entry here.\n", encoding="utf-8")
    app = make_app("html", srcdir=tmp_path, freshenv=True, warningiserror=True)
    app.build(force_all=True)
    out = Path(app.outdir)
    assert (out / "genindex.html").is_file()
    assert 'href="genindex.html"' in (out / "index.html").read_text(encoding="utf-8")
