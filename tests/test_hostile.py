"""Hostile input: every field and argument of a contribution, every listing option and role, fed markup,
``javascript:`` URLs, quotes, very long values, right-to-left and zero-width characters.

Each input is either rejected with a warning or rendered inert, and the tests parse what was written to
check it: the HTML (elements, attributes, inline SVG, JSON-LD), ``contributions.json`` and the Atom feed.
Every outbound link is ``https://github.com/…`` built from validated parts and carries
``rel="noopener noreferrer"``; no ``javascript:`` or ``data:`` URL is ever written. Property-based tests
(hypothesis) feed arbitrary text to the option parsers and to small in-process builds.

Every payload calls ``PWNED()``: a payload that survives as markup shows as an element, an event-handler
attribute or a script holding that name.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from xml.etree import ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sphinx.testing.util import SphinxTestApp

from sphinx_contributions import keys, options

MARKER = "PWNED"
KEY = "hostile-repo#7"
PAGE = "contributions/hostile"
ATOM = "{http://www.w3.org/2005/Atom}"
#: a GitHub URL made only of validated parts: owner, repository, and a pull request or issue number
GITHUB_URL = re.compile(
    r"^https://github\.com/[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?/[A-Za-z0-9_.-]{1,100}"
    r"(?:/(?:pull|issues)/[1-9][0-9]{0,9})?$"
)
#: the theme's own credits in the footer (furo), the only other outbound links a page may hold
THEME_LINKS = {"https://www.sphinx-doc.org/", "https://pradyunsg.me", "https://github.com/pradyunsg/furo"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "data", "srcset", "cite"}
BAD_SCHEMES = ("javascript:", "data:", "vbscript:")
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

#: (page, warning subtype, a fragment of the message): each hostile input that must be refused
EXPECTED_WARNINGS = [
    ("contributions/bad-repo.md", "contrib.bad_option", "javascript:PWNED()//x"),
    ("contributions/bad-repo-quote.md", "contrib.bad_option", 'evil/x"><img src=x onerror=PWNED()>'),
    ("contributions/bad-pr.md", "contrib.bad_option", "3 onmouseover=PWNED()"),
    ("contributions/long-repo.md", "contrib.bad_option", "evil/rrrr"),
    ("contributions/hostile.md", "contrib.bad_option", '2"><script>PWNED()</script>'),
    ("contributions/hostile.md", "contrib.bad_status", 'merged"><script>'),
    ("contributions/hostile.md", "contrib.bad_option", "2024-01-01<script>PWNED()</script>"),
    ("contributions/hostile.md", "contrib.bad_metric", "<script>PWNED()</script>"),
    ("contributions/hostile.md", "myst.directive_option", "metric"),
    ("contributions/hostile.md", "contrib.bad_metric", "Bad direction"),
    ("index.md", "contrib.bad_listing", "<script>PWNED()</script>"),
    ("index.md", "contrib.bad_listing", "1 onmouseover=PWNED()"),
    ("index.md", "contrib.bad_target", "javascript:PWNED()#1"),
    ("index.md", "contrib.bad_target", "'javascript:PWNED()'"),
    ("index.md", "contrib.bad_target", 'x"><img src=x onerror=PWNED()>#1'),
    ("index.md", "contrib.bad_target", "data:text/html,<script>PWNED()</script>#2"),
    ("index.md", "contrib.bad_target", "'#3'"),
    ("index.md", "contrib.unknown_key", "PWNED()"),
]


# -- reading what was written ---------------------------------------------------------------------------


class Parsed(HTMLParser):
    """Elements with their attributes, scripts with their text, and the text outside scripts."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.scripts: list[tuple[dict[str, str], str]] = []
        self.text: list[str] = []
        self._script: tuple[dict[str, str], list[str]] | None = None
        self.feed(source)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.elements.append((tag, values))
        if tag == "script":
            self._script = (values, [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script[0], "".join(self._script[1])))
            self._script = None

    def handle_data(self, data: str) -> None:
        (self._script[1] if self._script is not None else self.text).append(data)


def inert_problems(html: str, where: str) -> list[str]:
    """Every way a payload could have survived as live markup in one page, as readable lines."""
    page = Parsed(html)
    problems = []
    for tag, attrs in page.elements:
        for name, value in attrs.items():
            if name.startswith("on"):
                problems.append(f"{where}: <{tag} {name}={value!r}>")
            if MARKER in name:
                problems.append(f"{where}: <{tag}> attribute name {name!r}")
            if name in URL_ATTRIBUTES and INVISIBLE.sub("", value).strip().lower().startswith(BAD_SCHEMES):
                problems.append(f"{where}: <{tag} {name}={value!r}>")
        if tag in {"img", "iframe", "object", "embed", "base", "form"} and MARKER in repr(attrs) + tag:
            problems.append(f"{where}: <{tag} {attrs}>")
        if tag in {"img", "iframe", "embed"} and attrs.get("src") == "x":
            problems.append(f"{where}: <{tag} src=x>")
    for attrs, text in page.scripts:
        if attrs.get("type") == "application/ld+json":
            if "<" in text:
                problems.append(f"{where}: '<' inside JSON-LD")
            try:
                json.loads(text)
            except ValueError as error:
                problems.append(f"{where}: JSON-LD does not parse ({error})")
        elif MARKER in text:
            problems.append(f"{where}: script holds the payload: {text[:200]!r}")
    return problems


def link_problems(html: str, where: str, *, owner_links: bool = False, theme: bool = False) -> list[str]:
    """Outbound links: http(s) only; the extension's own (``contrib-*`` classes) are GitHub URLs from
    validated parts, and so is every other one unless the site's owner may link elsewhere
    (``owner_links``); each carries ``rel="noopener noreferrer"``, the theme's credits too when ``theme``."""
    problems = []
    for tag, attrs in Parsed(html).elements:
        if tag != "a" or "href" not in attrs:
            continue
        href = attrs["href"]
        scheme = urlsplit(href).scheme.lower()
        if not scheme:
            continue
        if scheme not in {"http", "https"}:
            problems.append(f"{where}: {href!r} (scheme {scheme})")
            continue
        classes = attrs.get("class", "").split()
        from_theme = "reference" not in classes
        if from_theme and not (href in THEME_LINKS or "edit" in attrs.get("rel", "").split()):
            problems.append(f"{where}: outbound {href!r} from the theme")
        ours = any(name.startswith("contrib-") for name in classes)
        if (ours or not (owner_links or from_theme)) and not GITHUB_URL.match(href):
            problems.append(f"{where}: outbound {href!r}")
        if (theme or not from_theme) and not {"noopener", "noreferrer"} <= set(attrs.get("rel", "").split()):
            problems.append(f"{where}: {href!r} without rel=noopener noreferrer ({attrs.get('rel')!r})")
    return problems


def html_pages(outdir: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(outdir.rglob("*.html")):
        yield str(path.relative_to(outdir)), path.read_text(encoding="utf-8")


def option(source: Path, name: str) -> str:
    """An option's value as the extension stores it (whitespace collapsed)."""
    match = re.search(rf"^:{name}: (.*)$", source.read_text(encoding="utf-8"), re.MULTILINE)
    assert match is not None
    return " ".join(match.group(1).split())


# -- the hostile test root --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SphinxTestApp]:
    srcdir = tmp_path_factory.mktemp("hostile") / "src"
    shutil.copytree(rootdir / "test-hostile", srcdir)
    app = SphinxTestApp("html", srcdir=srcdir, freshenv=True, status=StringIO(), warning=StringIO())
    try:
        app.build(force_all=True)
        yield app
    finally:
        app.cleanup()


@pytest.fixture(scope="module")
def outdir(app: SphinxTestApp) -> Path:
    return Path(app.outdir)


@pytest.fixture(scope="module")
def summary(app: SphinxTestApp) -> str:
    """The summary as the page's Markdown reads it: inline Markdown, so an entity reference is its character
    (``&amp;`` is ``&``); raw HTML stays text."""
    return unescape(option(Path(app.srcdir) / f"{PAGE}.md", "summary"))


@pytest.fixture(scope="module")
def impact(app: SphinxTestApp) -> str:
    """The impact sentence as the page's Markdown reads it (inline Markdown, as the summary)."""
    return unescape(option(Path(app.srcdir) / f"{PAGE}.md", "impact"))


def warnings_of(app: SphinxTestApp) -> list[str]:
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    return [line for line in text.splitlines() if "WARNING" in line or "ERROR" in line]


def test_each_refused_input_is_reported_and_nothing_else(app: SphinxTestApp) -> None:
    lines = warnings_of(app)
    unmatched = list(lines)
    for page, subtype, fragment in EXPECTED_WARNINGS:
        found = [
            line for line in unmatched if f"{page}:" in line and line.endswith(f"[{subtype}]") and fragment in line
        ]
        assert found, f"no [{subtype}] warning on {page} mentioning {fragment!r} in:\n" + "\n".join(lines)
        unmatched.remove(found[0])
    assert unmatched == [], "unexpected warnings:\n" + "\n".join(unmatched)


def test_refused_contributions_are_not_published(outdir: Path) -> None:
    data = json.loads((outdir / "contributions.json").read_text(encoding="utf-8"))
    assert [entry["key"] for entry in data["contributions"]] == [KEY]


def test_no_payload_survives_as_markup_in_any_page(outdir: Path) -> None:
    pages = dict(html_pages(outdir))
    assert {f"{PAGE}.html", "index.html"} <= set(pages)
    assert any(name.startswith("tags/") for name in pages)
    problems = [problem for name, html in pages.items() for problem in inert_problems(html, name)]
    assert problems == []
    # and the payloads were really there, as text
    assert sum(MARKER in "".join(Parsed(html).text) for html in pages.values()) >= 3


def test_outbound_links_are_validated_github_urls_with_noopener(outdir: Path) -> None:
    problems = [problem for name, html in html_pages(outdir) for problem in link_problems(html, name)]
    assert problems == []
    hostile = (outdir / f"{PAGE}.html").read_text(encoding="utf-8")
    hrefs = [attrs["href"] for tag, attrs in Parsed(hostile).elements if tag == "a" and "href" in attrs]
    assert "https://github.com/hostile-org/hostile-repo/pull/7" in hrefs


def test_header_shows_every_hostile_text_as_text(outdir: Path, summary: str) -> None:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((outdir / f"{PAGE}.html").read_text(encoding="utf-8"), "html.parser")
    block = soup.find(id="contribution")
    assert block is not None
    assert block.select_one(".contrib-summary").get_text() == summary  # type: ignore[union-attr]
    tags = [badge.get_text() for badge in block.select(".contrib-tag")]
    assert tags[:4] == [
        "<script>PWNED()</script>",
        'x"><img src=x onerror=PWNED()>',
        "javascript:PWNED()",
        "\u202ertl\u202ctag",
    ]
    assert block.select_one(".contrib-project").get_text().startswith('<b onmouseover=PWNED()>Project</b> "q" & co')  # type: ignore[union-attr]
    # rejected options are left out, not shown
    assert block.select(".contrib-state") == []
    assert block.select(".contrib-issue-link") == []
    # the section heading argument: inline text, never raw HTML
    heading = soup.select_one("#problem h2")
    assert heading is not None and heading.find(["script", "img"]) is None
    assert "<script>PWNED()</script>" in heading.get_text()
    # the metric: label and unit as text; the SVG holds no text from the page
    metric = soup.select_one(".contrib-metric")
    assert metric is not None
    assert metric.select_one("figcaption").get_text().startswith("Label <script>PWNED()</script>")  # type: ignore[union-attr]
    assert "</text><script>PWNED()</script>" in metric.select_one(".contrib-metric-unit").get_text()  # type: ignore[union-attr]
    svg = metric.find("svg")
    assert svg is not None and MARKER not in str(svg)
    assert {child.name for child in svg.find_all(True)} <= {"text", "tspan", "rect", "line", "circle"}


def test_ids_classes_and_file_names_are_plain_ascii(outdir: Path) -> None:
    for name, html in html_pages(outdir):
        assert re.fullmatch(r"[a-z0-9/._-]+", name), name
        for tag, attrs in Parsed(html).elements:
            for attribute in ("id", "class"):
                value = attrs.get(attribute, "")
                assert not INVISIBLE.search(value) and MARKER not in value and "<" not in value, (name, tag, value)
    assert all(len(path.name) <= 110 for path in outdir.rglob("*"))


def test_meta_description_and_json_ld(outdir: Path, impact: str) -> None:
    page = Parsed((outdir / f"{PAGE}.html").read_text(encoding="utf-8"))
    descriptions = [a["content"] for tag, a in page.elements if tag == "meta" and a.get("name") == "description"]
    assert descriptions == [impact]  # the impact, where the page gives one
    og = [a for tag, a in page.elements if tag == "meta" and a.get("property") == "og:description"]
    assert og and set(og[0]) == {"property", "content"}
    scripts = [text for attrs, text in page.scripts if attrs.get("type") == "application/ld+json"]
    assert len(scripts) == 1
    assert "</script" not in scripts[0].lower() and "<" not in scripts[0]
    data = json.loads(scripts[0])
    assert data["description"] == impact  # the impact, where the page gives one
    assert "<script>PWNED()</script>" in data["headline"]
    assert data["isBasedOn"] == "https://github.com/hostile-org/hostile-repo/pull/7"
    assert data["author"]["name"] == 'Author </script><script>PWNED()</script> "q"'


def test_contributions_json_round_trips_the_text(outdir: Path, summary: str, impact: str) -> None:
    entry = json.loads((outdir / "contributions.json").read_text(encoding="utf-8"))["contributions"][0]
    assert entry["summary"] == summary
    assert entry["impact"] == impact
    assert "<script>PWNED()</script>" in entry["title"]
    assert entry["repository_url"] == "https://github.com/hostile-org/hostile-repo"
    assert entry["pr_url"] == "https://github.com/hostile-org/hostile-repo/pull/7"
    assert entry["issues"] == [] and entry["status"] is None and entry["date"] is None
    assert entry["tags"][0] == "<script>PWNED()</script>"
    assert len(entry["tags"][-1]) == 300  # a very long tag is kept whole as text …
    assert (outdir / "tags" / ("l" * keys.MAX_SLUG + ".html")).is_file()  # … and names a short file


def test_atom_feed_is_well_formed_and_round_trips_the_text(outdir: Path, impact: str) -> None:
    raw = (outdir / "contributions.atom").read_bytes()
    assert b"<script" not in raw
    feed = ET.fromstring(raw)
    assert feed.findtext(f"{ATOM}title") == "Feed <script>PWNED()</script> & ]]> \u202eevil"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 1
    assert entries[0].findtext(f"{ATOM}summary") == impact
    assert "<script>PWNED()</script>" in (entries[0].findtext(f"{ATOM}title") or "")
    for link in feed.iter(f"{ATOM}link"):
        href = link.get("href", "")
        assert href.startswith("https://example.org/portfolio/") or GITHUB_URL.match(href), href


def test_a_portfolio_links_out_safely(site: Path) -> None:
    """A published portfolio (tests/roots/test-portfolio, the repository's templates): every page inert,
    every outbound link validated, with noopener noreferrer (the real site's: tests/test_site.py)."""
    problems = []
    for name, html in html_pages(site):
        problems += inert_problems(html, name)
        problems += link_problems(html, name, owner_links=True, theme=True)
    assert problems == []


# -- properties: arbitrary text in, output or a warning out ------------------------------------------------

HOSTILE = [
    "<script>PWNED()</script>",
    '"><img src=x onerror=PWNED()>',
    "</script>",
    "javascript:PWNED()",
    "data:text/html,PWNED",
    "'",
    '"',
    "&amp;",
    "\u202e",
    "\u200b",
    "\ufeff",
    "]]>",
    "{{ x }}",
    "#",
    ":",
    ",",
    "\\",
    "L" * 150,
]
#: one line of text: no control characters, line or paragraph separators, nor the role delimiter
LINE_CHARACTERS = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="`")
hostile_text = st.lists(
    st.one_of(st.sampled_from(HOSTILE), st.text(LINE_CHARACTERS, max_size=12)), min_size=1, max_size=4
).map("".join)


def _parsers() -> list[tuple[str, Any]]:
    return [
        ("repo", options.parse_repo),
        ("pr", lambda v: options.parse_positive_int(v, "pr")),
        ("issue", lambda v: options.parse_int_list(v, "issue")),
        ("tags", options.parse_tags),
        ("status", options.parse_status),
        ("date", options.parse_date),
        ("text", lambda v: options.parse_text(v, "summary")),
        ("number", lambda v: options.parse_number(v, "before")),
        ("better", options.parse_better),
        ("target", options.parse_target),
        ("evidence", lambda v: options.parse_evidence_item(v, "owner/repo")),
    ]


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(hostile_text, st.text()))
def test_parsers_return_or_refuse_never_crash(value: str) -> None:
    for name, parse in _parsers():
        try:
            result = parse(value)
        except options.OptionError:
            continue
        if name == "repo":
            assert GITHUB_URL.match(f"https://github.com/{result}"), result
        if name == "target" and result[0] is not None:
            assert GITHUB_URL.match(keys.pr_url(result[0], result[1])), result
        if name == "key":
            assert "<" not in result and "/" not in result
        if name == "evidence":  # a link, never a script: only http(s), no space or angle bracket in it
            assert re.fullmatch(r"https?://[^\s<>/]+[^\s<>]*", result.url), result
            assert result.kind == "link" or result.url.startswith("https://github.com/"), result


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(hostile_text, st.text()))
def test_slugs_are_short_plain_ascii(value: str) -> None:
    slug = keys.slugify(value)
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slug), slug
    assert len(slug) <= keys.MAX_SLUG


SITE_CONF = """\
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_theme = "basic"
html_baseurl = "https://example.org/"
exclude_patterns = ["_build"]
"""

SITE_PAGE = """\
# A write-up

:::{{contribution}}
:repo: {repo}
:pr: {pr}
:summary: {summary}
:tags: {tags}
:project: {project}
:issue: {issue}
:status: {status}
:::

:::{{problem}} {heading}
Text.
:::

:::{{root-cause}}
Text {{pr}}`{role}` and {{issue}}`{role}` and {{contrib}}`{role}`.
:::

:::{{fix}}
Text.
:::

::::{{verification}}
:::{{metric}} {label}
:before: {before}
:after: 2
:unit: {unit}
:::
::::
"""


def valid_or(valid: str) -> st.SearchStrategy[str]:
    return st.one_of(st.just(valid), hostile_text)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    repo=valid_or("hostile-org/hostile-repo"),
    pr=valid_or("7"),
    summary=valid_or("A summary."),
    tags=valid_or("SDPA, C++"),
    project=valid_or("Hostile"),
    issue=valid_or("1, 2"),
    status=valid_or("merged"),
    heading=hostile_text,
    role=valid_or("hostile-org/hostile-repo#7"),
    label=hostile_text,
    before=valid_or("1e3"),
    unit=hostile_text,
)
def test_any_input_builds_with_output_or_a_warning(**fields: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srcdir = Path(tmp) / "src"
        (srcdir / "contributions").mkdir(parents=True)
        (srcdir / "conf.py").write_text(SITE_CONF, encoding="utf-8")
        (srcdir / "index.md").write_text(
            "# Site\n\n:::{contributions}\n:filter:\n:::\n\n```{toctree}\n:glob:\n\ncontributions/*\n```\n",
            encoding="utf-8",
        )
        (srcdir / "contributions" / "p.md").write_text(SITE_PAGE.format(**fields), encoding="utf-8")
        app = SphinxTestApp("html", srcdir=srcdir, freshenv=True, status=StringIO(), warning=StringIO())
        try:
            app.build(force_all=True)  # an exception here is the failure: never a traceback
            warnings = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
            outdir = Path(app.outdir)
            exported = outdir / "contributions.json"  # a site without write-ups exports nothing
            listed = json.loads(exported.read_text(encoding="utf-8"))["contributions"] if exported.is_file() else []
            if not listed:  # dropped: only with a warning on the page that says so
                assert re.search(r"p\.md:\d+: (WARNING|ERROR): .*(not listed|missing required)", warnings), warnings
            problems = []
            for name, html in html_pages(outdir):
                problems += inert_problems(html, name)
                problems += link_problems(html, name)
            assert problems == [], warnings
        finally:
            app.cleanup()
