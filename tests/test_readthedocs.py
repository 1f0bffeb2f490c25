"""A portfolio (``tests/roots/test-portfolio``, the repository's settings) as Read the Docs builds it, in three
contexts emulated by its environment variables (``READTHEDOCS``, ``READTHEDOCS_CANONICAL_URL``,
``READTHEDOCS_VERSION``, ``READTHEDOCS_VERSION_TYPE``): ``latest`` on the project's subdomain, ``stable`` on a
custom domain, and a pull-request preview.

Every absolute URL the site writes (sitemap, canonical and OpenGraph tags, the JSON and the feed, the 404
page's links) is under that build's canonical URL; a preview says ``noindex`` on every page. And the link
check checks external links unless it is told it is offline."""

from __future__ import annotations

import json
import runpy
import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from bs4 import BeautifulSoup
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from .conftest import PORTFOLIO, PROJECT_PAGES, MakeApp, environ_with, rtd_build

#: what Read the Docs sets (its documented variables); the custom domain is a test-only value
CONTEXTS = {
    "latest": ("https://portfolio-example.readthedocs.io/en/latest/", "latest", "branch"),
    "stable-on-a-custom-domain": ("https://imran.example.dev/en/stable/", "stable", "tag"),
    "pull-request-preview": ("https://the-cross-art--17.org.readthedocs.build/en/17/", "17", "external"),
}
NOINDEX = '<meta name="robots" content="noindex">'
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"


@pytest.fixture(scope="module", params=list(CONTEXTS))
def rtd(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, Path]:
    """(context, canonical URL, html folder) of the portfolio built as Read the Docs builds it there."""
    canonical, version, version_type = CONTEXTS[request.param]
    env = environ_with(
        READTHEDOCS="True",
        READTHEDOCS_CANONICAL_URL=canonical,
        READTHEDOCS_VERSION=version,
        READTHEDOCS_VERSION_TYPE=version_type,
    )
    outdir = tmp_path_factory.mktemp(request.param) / "html"
    done = rtd_build(PORTFOLIO, outdir, *PROJECT_PAGES, env=env)  # project pages too, to check them
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    return request.param, canonical, outdir


def pages(html: Path) -> list[Path]:
    return sorted(html.rglob("*.html"))


def test_sitemap_lists_every_page_under_the_canonical_url(rtd: tuple[str, str, Path]) -> None:
    _, canonical, html = rtd
    locs = [loc.text or "" for loc in ET.parse(html / "sitemap.xml").getroot().iter(SITEMAP)]
    assert locs, "the sitemap lists the pages"
    assert [loc for loc in locs if not loc.startswith(canonical)] == []
    written = {page.relative_to(html).as_posix() for page in pages(html)} - {"404.html", "search.html", "genindex.html"}
    assert {loc.removeprefix(canonical) for loc in locs} == written


def test_every_absolute_url_is_under_the_canonical_url(rtd: tuple[str, str, Path]) -> None:
    _, canonical, html = rtd
    for page in pages(html):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        name = page.relative_to(html).as_posix()
        canonical_link = soup.select_one('link[rel="canonical"]')
        assert canonical_link is not None and canonical_link["href"] == canonical + name, name
        og_url = soup.select_one('meta[property="og:url"]')
        if og_url is not None:
            assert str(og_url["content"]).startswith(canonical), name
    data = json.loads((html / "contributions.json").read_text(encoding="utf-8"))
    assert data["$schema"] == canonical + "contributions.schema.json"
    assert all(record["url"].startswith(canonical) for record in data["contributions"])
    feed = ET.parse(html / "contributions.atom").getroot()
    assert feed.findtext("{http://www.w3.org/2005/Atom}id") == canonical + "contributions.atom"
    # the 404 page is served at any depth: its links start with the canonical URL's path
    path = "/" + canonical.split("/", 3)[3]
    soup = BeautifulSoup((html / "404.html").read_text(encoding="utf-8"), "html.parser")
    local = [str(tag.get("href") or tag.get("src")) for tag in soup.select("link[href], script[src]")]
    local = [link for link in local if not link.startswith(("http", "#", "data:"))]
    assert local and all(link.startswith(path) for link in local), local


def test_a_preview_is_noindex_on_every_page(rtd: tuple[str, str, Path]) -> None:
    context, _, html = rtd
    preview = context == "pull-request-preview"
    counts = {
        page.relative_to(html).as_posix(): page.read_text(encoding="utf-8").count(NOINDEX) for page in pages(html)
    }
    # every page: the write-ups, the generated tag and project pages, search, the index and 404
    assert {"404.html", "tags/training.html", "projects/beta.html", "search.html"} <= set(counts)
    assert counts == dict.fromkeys(counts, 1 if preview else 0)


def test_the_sitemap_setting_cannot_collide(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """conf.py invents no address: outside Read the Docs its canonical URL is empty; a top-level ``site_url``
    (sphinx-sitemap's setting, which it prefers to html_baseurl) that is not the canonical URL is a warning."""
    monkeypatch.delenv("READTHEDOCS_CANONICAL_URL", raising=False)
    namespace = runpy.run_path(str(PORTFOLIO / "conf.py"))
    assert "site_url" not in namespace and "_default_url" not in namespace
    assert namespace["html_baseurl"] == ""
    shutil.copytree(rootdir / "test-contrib-warnings", tmp_path / "src")
    conf = tmp_path / "src" / "conf.py"
    conf.write_text(
        conf.read_text(encoding="utf-8").replace('"sphinx_contributions"', '"sphinx_sitemap", "sphinx_contributions"')
        + 'site_url = "https://old.example.org/en/latest/"\n',
        encoding="utf-8",
    )
    app: SphinxTestApp = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    app.build()
    assert strip_colors(app.warning.getvalue()).splitlines() == [
        "WARNING: site_url is 'https://old.example.org/en/latest/' but html_baseurl is 'https://example.org/': "
        "sphinx-sitemap prefers site_url, so the sitemap would list URLs outside the canonical site (rename a "
        "top-level 'site_url' in conf.py) [contrib.config]"
    ]


# -- the link check ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("offline", "ignored"), [("", []), ("1", [r"^https?://"])])
def test_linkcheck_checks_external_links_unless_told_it_is_offline(
    monkeypatch: pytest.MonkeyPatch, offline: str, ignored: list[str]
) -> None:
    monkeypatch.setenv("CONTRIBUTIONS_OFFLINE", offline)
    if not offline:
        monkeypatch.delenv("CONTRIBUTIONS_OFFLINE")
    assert runpy.run_path(str(PORTFOLIO / "conf.py"))["linkcheck_ignore"] == ignored


def test_linkcheck_offline_passes_and_skips_only_external_links(tmp_path: Path) -> None:
    done = rtd_build(
        PORTFOLIO, tmp_path / "linkcheck", env=environ_with(CONTRIBUTIONS_OFFLINE="1"), builder="linkcheck"
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    results = [json.loads(line) for line in (tmp_path / "linkcheck/output.json").read_text().splitlines()]
    external = [r for r in results if r["uri"].startswith(("http://", "https://"))]
    assert external, "the site links out (GitHub, its website)"
    assert {r["status"] for r in external} == {"ignored"}
    assert any(r["uri"].startswith("https://github.com/") for r in external)
