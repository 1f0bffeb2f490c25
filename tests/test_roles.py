"""The roles on a small, valid site (``tests/roots/test-contrib-pages``): ``{contrib}`` by key (implicit and
explicit title, any case) and by key and section, the write-ups' ``{ref}`` labels and MyST links to a
section's anchor, ``{pr}`` and ``{issue}`` with ``owner/repo#N``, ``#N`` on a contribution page, and
explicit text ``text <target>``. Bad targets are in ``test_warnings.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

FULL_TITLE = "Fix UMT5 decoder self-attention not being causal"
MINIMAL_TITLE = "Add UMT5 support to CTranslate2"


@pytest.fixture
def app(contrib_pages_app: SphinxTestApp) -> SphinxTestApp:
    return contrib_pages_app


def links(app: SphinxTestApp, page: str, selector: str = "a") -> list[tuple[str, str]]:
    """(text, href) of each link in the page's body, in order."""
    html = (Path(app.outdir) / f"{page}.html").read_text(encoding="utf-8")
    body = BeautifulSoup(html, "html.parser").select_one("div.body")
    assert isinstance(body, Tag)
    return [(a.get_text(), str(a["href"])) for a in body.select(selector)]


def index_item(app: SphinxTestApp, name: str) -> Tag:
    """The ``- name: …`` item of the index page."""
    html = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    for item in BeautifulSoup(html, "html.parser").select("div.body li"):
        if item.get_text().startswith(f"{name}: "):
            return item
    raise AssertionError(name)


def test_roles_resolve_without_a_warning(app: SphinxTestApp) -> None:
    assert app.warning.getvalue() == ""
    assert app.statuscode == 0


@pytest.mark.parametrize(
    ("item", "text", "href"),
    [
        ("implicit", FULL_TITLE, "full.html#contribution"),  # the page's title is the link text
        ("explicit", "the UMT5 fix", "full.html#contribution"),
        ("any case", FULL_TITLE, "full.html#contribution"),  # TRANSFORMERS#49135: keys match in any case
        ("other page", MINIMAL_TITLE, "minimal.html#contribution"),
        ("pr", "huggingface/transformers#47014", "https://github.com/huggingface/transformers/pull/47014"),
        ("issue", "OpenNMT/CTranslate2#1478", "https://github.com/OpenNMT/CTranslate2/issues/1478"),
        ("explicit pr", "the SDPA change", "https://github.com/huggingface/transformers/pull/47014"),
        # a section of a write-up: {contrib} with the section, its {ref} label, a MyST link to its anchor
        ("section", f"{FULL_TITLE} — Where it went wrong", "full.html#root-cause"),
        ("section any case", f"{FULL_TITLE} — Where it went wrong", "full.html#root-cause"),
        ("section explicit", "why", "full.html#root-cause"),
        ("section ref", f"{FULL_TITLE} — Where it went wrong", "full.html#root-cause"),
        ("page ref", MINIMAL_TITLE, "minimal.html#contribution"),  # CTranslate2-2103: labels match in any case
        ("section path", f"{FULL_TITLE} — Where it went wrong", "full.html#root-cause"),
        ("section path explicit", "the fix", "minimal.html#fix"),
        ("escaped heading", "Escaping — <i>Heading</i> & more", "escaping.html#problem"),
    ],
)
def test_role_outside_a_contribution_page(app: SphinxTestApp, item: str, text: str, href: str) -> None:
    (link,) = index_item(app, item).find_all("a")
    assert (link.get_text(), link["href"]) == (text, href)


def test_contrib_link_carries_the_key_and_classes(app: SphinxTestApp) -> None:
    link = index_item(app, "implicit").find("a")
    assert isinstance(link, Tag)
    assert link["title"] == "transformers#49135"
    inner = link.find("span")
    assert isinstance(inner, Tag) and {"xref", "contrib"} <= set(inner["class"])


def test_pr_and_issue_links_carry_their_class(app: SphinxTestApp) -> None:
    assert [a["class"] for a in index_item(app, "pr").find_all("a")] == [["contrib-pr", "reference", "external"]]
    assert [a["class"] for a in index_item(app, "issue").find_all("a")] == [["contrib-issue", "reference", "external"]]


def test_short_targets_on_a_contribution_page_use_its_repository(app: SphinxTestApp) -> None:
    assert links(app, "full", "section#problem a.contrib-issue") == [
        ("#49134", "https://github.com/huggingface/transformers/issues/49134")
    ]
    assert links(app, "full", "section#root-cause p a") == [
        ("#47014", "https://github.com/huggingface/transformers/pull/47014"),
        ("the SDPA change", "https://github.com/huggingface/transformers/pull/47014"),
        ("OpenNMT/CTranslate2#1478", "https://github.com/OpenNMT/CTranslate2/issues/1478"),  # another repo
    ]


def test_contrib_links_between_contribution_pages(app: SphinxTestApp) -> None:
    assert links(app, "full", "section#fix p a") == [(MINIMAL_TITLE, "minimal.html#contribution")]
    assert links(app, "minimal", "section#verification p a") == [(FULL_TITLE, "full.html#contribution")]


EXPORTS_CONF = (
    'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
    'html_baseurl = "https://example.org/"\n'
)
EXPORTS_PAGE = "# Feeds\n\nAs {export}`JSON <contributions.json>` and {export}`contributions.atom`.\n"


EXPORTS_WRITE_UP = """---
orphan: true
---

# Fix the cache key

:::{contribution}
:repo: example-org/demo
:pr: 1
:status: merged
:summary: Requests with different options no longer share one cache entry.
:::

:::{problem}
Two requests got one answer.
:::

:::{root-cause}
The key left the options out.
:::

:::{fix}
The key now includes the options.
:::

:::{verification}
Each request gets its own answer.
:::
"""


def _exports_site(srcdir: Path, page: str = EXPORTS_PAGE) -> Path:
    (srcdir / "feeds").mkdir(parents=True)
    (srcdir / "conf.py").write_text(EXPORTS_CONF, encoding="utf-8")
    (srcdir / "index.md").write_text("# Home\n\n```{toctree}\nfeeds/index\n```\n", encoding="utf-8")
    (srcdir / "feeds" / "index.md").write_text(page, encoding="utf-8")
    # a site without write-ups has no exports to link: one write-up, so that there are
    (srcdir / "demo-1.md").write_text(EXPORTS_WRITE_UP, encoding="utf-8")
    return srcdir


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_export_role_links_to_the_export_on_the_website(make_app: Any, tmp_path: Path, builder: str) -> None:
    app = make_app(builder, srcdir=_exports_site(tmp_path / "src"), freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "feeds" / "index.html").read_text(encoding="utf-8")
    body = BeautifulSoup(html, "html.parser").select_one("div.body")
    assert isinstance(body, Tag)
    found = [(a.get_text(), a["href"]) for a in body.select("a.contrib-export")]
    assert found == [("JSON", "../contributions.json"), ("contributions.atom", "../contributions.atom")]
    assert all((Path(app.outdir) / name).is_file() for name in ("contributions.json", "contributions.atom"))


def test_export_role_is_text_where_nothing_is_published(make_app: Any, tmp_path: Path) -> None:
    """A site whose one write-up is a draft (a fresh ``init`` site) writes no export: its links are their text,
    not links to files that are not there (on 7434b26 both were links to missing files)."""
    srcdir = _exports_site(tmp_path / "src")
    draft = srcdir / "demo-1.md"
    draft.write_text(draft.read_text(encoding="utf-8").replace(":status: merged", ":status: draft"), encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    soup = BeautifulSoup((Path(app.outdir) / "feeds" / "index.html").read_text(encoding="utf-8"), "html.parser")
    body = soup.select_one("div.body")
    assert isinstance(body, Tag)
    assert [span.get_text() for span in body.select(".contrib-export")] == ["JSON", "contributions.atom"]
    assert body.select("a.contrib-export") == []
    assert not any((Path(app.outdir) / name).exists() for name in ("contributions.json", "contributions.atom"))


@pytest.mark.parametrize("builder", ["singlehtml", "epub"])
def test_export_role_is_text_in_a_book(make_app: Any, tmp_path: Path, builder: str) -> None:
    """A book does not hold the exports: no link that would leave it, the text alone."""
    app = make_app(builder, srcdir=_exports_site(tmp_path / "src"), freshenv=True)
    app.build()
    page = "index.html" if builder == "singlehtml" else "feeds/index.xhtml"
    soup = BeautifulSoup((Path(app.outdir) / page).read_text(encoding="utf-8"), "html.parser")
    assert "As JSON and contributions.atom." in " ".join(soup.get_text().split())
    assert not [a for a in soup.select("a[href]") if "contributions." in str(a["href"])]


def test_export_role_warns_about_a_file_that_is_not_an_export(make_app: Any, tmp_path: Path) -> None:
    srcdir = _exports_site(tmp_path / "src", "# Feeds\n\nSee {export}`the list <secrets.txt>`.\n")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()).splitlines() == [
        f"{srcdir / 'feeds' / 'index.md'}:3: WARNING: {{export}} 'secrets.txt' is not one of the exports "
        "(contributions.json, contributions.schema.json, contributions.atom); shown as text [contrib.unknown_export]"
    ]
    html = (Path(app.outdir) / "feeds" / "index.html").read_text(encoding="utf-8")
    assert "See the list." in html
