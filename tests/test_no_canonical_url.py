"""No invented address: built away from Read the Docs, where no canonical URL is known, the site writes
no absolute URL to itself in any output (HTML, JSON, the LaTeX source of the PDF …), leaves out what
needs one, and says what it left out in one information line. Every absolute URL it writes is one the
same site writes when it does have a canonical URL, less that URL: links out (GitHub, LinkedIn …) and
namespaces, never a guess at the site's own address."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup

from .conftest import PORTFOLIO, environ_with, rtd_build

CANONICAL = "https://canonical.example.net/en/stable/"
_URL = re.compile(rb"https?://[A-Za-z0-9.-]+")
#: outputs that are not text
_BINARY = {".png", ".jpg", ".gif", ".ico", ".woff", ".woff2", ".ttf", ".otf", ".pickle", ".doctree", ".inv"}
INFO_LINE = (
    "html_baseurl is not set (no canonical URL), so no absolute URL to the site is written; left out: "
    "canonical links, absolute URLs in contributions.json, the Atom feed contributions.atom, the sitemap, "
    "og:url, social cards (og:image); set html_baseurl (on Read the Docs: READTHEDOCS_CANONICAL_URL) to "
    "write them"
)


def hosts(outdir: Path) -> dict[str, set[str]]:
    """host -> the output files that name it in an absolute URL."""
    found: dict[str, set[str]] = {}
    for path in sorted(outdir.rglob("*")):
        if path.is_file() and path.suffix not in _BINARY:
            for url in set(_URL.findall(path.read_bytes())):
                found.setdefault(urlsplit(url.decode()).hostname or "", set()).add(str(path.relative_to(outdir)))
    return found


@pytest.fixture(scope="module")
def builds(unaddressed_site: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """html and LaTeX, without and with a canonical URL."""
    root = tmp_path_factory.mktemp("canonical")
    out = {"html": unaddressed_site[0]}
    for name, env in (("latex", environ_with()), ("html+url", environ_with(READTHEDOCS_CANONICAL_URL=CANONICAL))):
        builder = name.split("+")[0]
        done = rtd_build(PORTFOLIO, root / name, env=env, builder=builder)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr
        out[name] = root / name
    done = rtd_build(
        PORTFOLIO, root / "latex+url", env=environ_with(READTHEDOCS_CANONICAL_URL=CANONICAL), builder="latex"
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    out["latex+url"] = root / "latex+url"
    return out


def test_no_output_names_an_address_for_the_site(builds: dict[str, Path]) -> None:
    canonical = urlsplit(CANONICAL).hostname
    for builder in ("html", "latex"):
        without, with_url = hosts(builds[builder]), hosts(builds[f"{builder}+url"])
        assert canonical in with_url  # the check sees the site's address where there is one
        extra = {host: files for host, files in without.items() if host not in with_url or host == canonical}
        assert extra == {}, builder
    tex = (builds["latex"] / "ada-tester.tex").read_text(encoding="utf-8")
    assert r"\url{" not in tex  # the title page names no site URL
    assert r"\href{" + CANONICAL + "}" in (builds["latex+url"] / "ada-tester.tex").read_text(encoding="utf-8")


def test_what_needs_an_address_is_left_out_and_said(unaddressed_site: tuple[Path, str]) -> None:
    html, stdout = unaddressed_site
    assert INFO_LINE in stdout.splitlines()
    assert not (html / "sitemap.xml").exists() and not (html / "contributions.atom").exists()
    assert not list(html.glob("_images/social/**/*.png"))
    for page in sorted(html.rglob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert soup.select('link[rel="canonical"], meta[property="og:url"], meta[property="og:image"]') == [], page
        assert soup.select('link[type="application/atom+xml"], a[href$="contributions.atom"]') == [], page
