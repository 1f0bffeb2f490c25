"""Machine-readable exports: contributions.json (against its JSON Schema), the Atom feed, JSON-LD,
meta descriptions, sitemap.xml, redirects and what the search index holds."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from bs4 import BeautifulSoup
from sphinx.util.console import strip_colors

from .conftest import ROOTS, SITE_URL, MakeApp, copy_site, rtd_build
from .htmltools import one, xml_one, xml_text
from .wiring import unwire

BASE = "https://example.org/portfolio/"
ATOM = "{http://www.w3.org/2005/Atom}"


def _json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_contributions_json_validates_against_its_published_schema(listing_site: Path) -> None:
    data = _json(listing_site / "contributions.json")
    schema = _json(listing_site / "contributions.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["version"] == 1
    assert data["$schema"] == BASE + "contributions.schema.json"


def test_contributions_json_records(listing_site: Path) -> None:
    records = _json(listing_site / "contributions.json")["contributions"]
    assert [r["key"] for r in records] == ["beta#2", "alpha#1", "beta#4", "gamma#3"]  # newest first, undated last
    assert records[0] == {
        "key": "beta#2",
        "title": "Beta feature",
        "url": BASE + "b-2.html",
        "project": "beta",
        "repository": "org/beta",
        "repository_url": "https://github.com/org/beta",
        "pr": 2,
        "pr_url": "https://github.com/org/beta/pull/2",
        "issues": [
            {"number": 20, "url": "https://github.com/org/beta/issues/20"},
            {"number": 21, "url": "https://github.com/org/beta/issues/21"},
        ],
        "status": "open",
        "date": "2025-05-05",
        "tags": ["shared tag"],
        "summary": "Beta summary.",
        "impact": None,
        "metrics": [
            {
                "label": "Latency",
                "before": 200.0,
                "after": 50.0,
                "unit": "ms",
                "better": "lower",
                "change": "≈4× lower",
                "headline": False,
                "approximate": {"before": False, "after": False},
                "expect": None,
                "evidence": [],
            }
        ],
    }
    assert records[-1]["status"] is None and records[-1]["date"] is None


def test_schema_rejects_what_it_should(listing_site: Path) -> None:
    """The schema is not a rubber stamp: a record without a key or with a bad state fails."""
    schema = _json(listing_site / "contributions.schema.json")
    data = _json(listing_site / "contributions.json")
    broken = json.loads(json.dumps(data))
    del broken["contributions"][0]["key"]
    assert not jsonschema.Draft202012Validator(schema).is_valid(broken)
    broken = json.loads(json.dumps(data))
    broken["contributions"][0]["status"] = "shipped"
    assert not jsonschema.Draft202012Validator(schema).is_valid(broken)


def entries_updated(feed: ET.Element) -> dict[str, str]:
    return {e.findtext(ATOM + "title") or "": e.findtext(ATOM + "updated") or "" for e in feed.findall(ATOM + "entry")}


def test_atom_feed(listing_site: Path) -> None:
    feed = ET.parse(listing_site / "contributions.atom").getroot()
    assert feed.tag == ATOM + "feed"
    # required by RFC 4287 for a feed: id, title, updated, and an author (here at feed level)
    assert feed.findtext(ATOM + "id") == BASE + "contributions.atom"
    assert feed.findtext(ATOM + "title") == "Listing test: contributions"
    # the newest entry: the undated c-3.md, outside git and without SOURCE_DATE_EPOCH, is dated by its
    # source file's modification time (the copy's: now), never 1970
    undated = datetime.fromtimestamp(int((listing_site.parent.parent / "c-3.md").stat().st_mtime), UTC)
    assert feed.findtext(ATOM + "updated") == max("2025-05-05T00:00:00Z", f"{undated:%Y-%m-%dT%H:%M:%SZ}")
    assert entries_updated(feed)["alpha thing"] == f"{undated:%Y-%m-%dT%H:%M:%SZ}"
    assert xml_one(feed, f"{ATOM}author/{ATOM}name").text == "Tester"
    # the feed's own links: itself, and the page listing the write-ups (contributions_index) for a reader
    assert [(link.get("rel"), link.get("type"), link.get("href")) for link in feed.findall(ATOM + "link")] == [
        ("self", "application/atom+xml", BASE + "contributions.atom"),
        ("alternate", "text/html", BASE + "index.html"),
    ]
    entries = feed.findall(ATOM + "entry")
    assert [e.findtext(ATOM + "title") for e in entries] == ["Beta feature", "Zeta fix", "Mu change", "alpha thing"]
    for entry in entries:
        for required in ("id", "title", "updated"):
            assert entry.findtext(ATOM + required), required
        assert xml_text(entry, ATOM + "updated").endswith("Z")
    hrefs = [link.get("href") for link in feed.iter(ATOM + "link")]
    assert all(href is not None and href.startswith("https://") for href in hrefs), hrefs
    assert xml_one(entries[0], ATOM + "link").get("href") == BASE + "b-2.html"
    # each entry links its page (the one alternate) and its pull request (related), each with its type:
    # a writer that drops rel leaves two alternates of one type, which RFC 4287 forbids (feedgen 1.0.0)
    assert [[(link.get("rel"), link.get("type")) for link in entry.findall(ATOM + "link")] for entry in entries] == [
        [("alternate", "text/html"), ("related", "text/html")]
    ] * len(entries)
    assert [c.get("term") for c in entries[1].findall(ATOM + "category")] == ["Shared Tag", "one"]


def test_no_exports_without_write_ups(make_app: MakeApp, tmp_path: Path) -> None:
    """A site that loads the extension only to link another portfolio: no contributions.json, schema or
    feed (before: an empty JSON and a schema), and no feed link on its pages."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
        'html_baseurl = "https://example.org/"\n',
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Home\n\nNo write-ups here.\n", encoding="utf-8")
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    out = Path(app.outdir)
    assert not [
        name
        for name in ("contributions.json", "contributions.schema.json", "contributions.atom")
        if (out / name).exists()
    ]
    assert "contributions.atom" not in (out / "index.html").read_text(encoding="utf-8")
    assert strip_colors(app.warning.getvalue()) == ""


def test_undated_entries_use_source_date_epoch(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    shutil.copytree(rootdir / "test-listing", tmp_path / "src")
    for name in ("a-1.md", "b-2.md", "d-4.md"):
        (tmp_path / "src" / name).unlink()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    app.build()
    feed = ET.parse(Path(app.outdir) / "contributions.atom").getroot()
    assert feed.findtext(ATOM + "updated") == "2023-11-14T22:13:20Z"
    assert xml_one(feed, ATOM + "entry").findtext(ATOM + "updated") == "2023-11-14T22:13:20Z"


@pytest.mark.parametrize("epoch", ["99999999999999999", "²", "17e8"])
def test_an_odd_source_date_epoch_is_reported_and_ignored(
    make_app: MakeApp,
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    epoch: str,
) -> None:
    """Never a traceback: a value that is not a Unix time in whole seconds is a warning, and the feed is
    dated as if it were unset (no git here: the undated page's source file's time, never 1970)."""
    shutil.copytree(rootdir / "test-listing", tmp_path / "src")
    for name in ("a-1.md", "b-2.md", "d-4.md"):
        (tmp_path / "src" / name).unlink()
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    # set once the app is made: Sphinx itself reads the variable as it starts (sphinx.builders.gettext when
    # imported, the copyright year at config-inited) and stops with a traceback on such values, before any
    # extension runs; from then on, the feed is the only reader
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    app.build()
    assert strip_colors(app.warning.getvalue()).splitlines() == [
        f"WARNING: SOURCE_DATE_EPOCH={epoch!r} is not a Unix time in whole seconds (such as 1700000000) that a "
        "date can hold: it is ignored, as if unset [contrib.config]"
    ]
    feed = ET.parse(Path(app.outdir) / "contributions.atom").getroot()
    mtime = datetime.fromtimestamp(int((tmp_path / "src" / "c-3.md").stat().st_mtime), UTC)
    assert xml_one(feed, ATOM + "entry").findtext(ATOM + "updated") == f"{mtime:%Y-%m-%dT%H:%M:%SZ}"


def test_json_ld_and_descriptions_on_a_write_up(listing_site: Path) -> None:
    soup = BeautifulSoup((listing_site / "b-2.html").read_text(encoding="utf-8"), "html.parser")
    (script,) = soup.select('script[type="application/ld+json"]')
    assert script.string is not None
    data = json.loads(script.string)
    assert data == {
        "@context": "https://schema.org",
        "@type": "TechArticle",
        "headline": "Beta feature",
        "description": "Beta summary.",
        "url": BASE + "b-2.html",
        "identifier": "beta#2",
        "keywords": ["shared tag"],
        "isBasedOn": "https://github.com/org/beta/pull/2",
        "about": {"@type": "SoftwareSourceCode", "name": "beta", "codeRepository": "https://github.com/org/beta"},
        "author": {"@type": "Person", "name": "Tester"},
        "datePublished": "2025-05-05",
    }
    assert [m["content"] for m in soup.select('meta[name="description"]')] == ["Beta summary."]
    feed = one(soup, 'link[rel="alternate"][type="application/atom+xml"]')
    assert feed["href"] == BASE + "contributions.atom"


def test_opengraph_description_from_summary(site: Path) -> None:
    soup = BeautifulSoup((site / "contributions/beta-202.html").read_text(encoding="utf-8"), "html.parser")
    og = {m["property"]: m["content"] for m in soup.select("meta[property]")}
    assert og["og:description"] == (
        "Restored the decoder mask for every example model trained through the default path."
    )
    assert og["og:url"] == SITE_URL + "contributions/beta-202.html"
    assert [m["content"] for m in soup.select('meta[name="description"]')] == [og["og:description"]]


def test_sitemap_lists_every_page_with_absolute_urls(listing_site: Path) -> None:
    root = ET.parse(listing_site / "sitemap.xml").getroot()
    locs = [loc.text or "" for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs == sorted(locs)
    assert set(locs) == {
        BASE + page
        for page in (
            "a-1.html",
            "b-2.html",
            "c-3.html",
            "d-4.html",
            "index.html",
            "old-alpha.html",
            "projects/alpha.html",
            "projects/beta.html",
            "projects/gamma.html",
            "tags/one.html",
            "tags/shared-tag.html",
            "tags/two.html",
        )
    } - {BASE + "old-alpha.html"}


def test_redirect_keeps_an_old_url_working(listing_site: Path) -> None:
    html = (listing_site / "old-alpha.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh"' in html and "a-1.html" in html


def test_search_index_holds_keys_numbers_tags_and_projects(site: Path) -> None:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    docnames = index["docnames"]
    objects = {entry[4]: docnames[entry[0]] for entries in index["objects"].values() for entry in entries}
    assert objects == {
        "beta#202": "contributions/beta-202",
        "Alpha#101": "contributions/alpha-101",
        "gamma#303": "contributions/gamma-303",
    }

    def pages(word: str) -> set[str]:
        hits: list[int] = []
        for table in ("terms", "titleterms"):
            found = index[table].get(word, [])
            hits += found if isinstance(found, list) else [found]
        return {docnames[i] for i in hits}

    # a search for a key or a PR number finds the write-up as an object (prefix "", the key as its name),
    # though objects.inv shows titles (fixes.search_objects); sections are in objects.inv only
    assert [entry[4] for entry in index["objects"][""]] == ["Alpha#101", "beta#202", "gamma#303"]
    assert list(index["objects"]) == [""]
    assert "contributions/beta-202" in pages("futur")  # words of the text, stemmed
    assert "contributions/beta-202" in pages("drift")
    assert "contributions/beta-202" in pages("train")  # a tag, from the header block
    assert "contributions/alpha-101" in pages("alpha")  # the project
    dead = [word for table in ("terms", "titleterms") for word, docs in index[table].items() if docs == []]
    assert dead == []


def _entry_times(feed: Path) -> dict[str, str]:
    root = ET.parse(feed).getroot()
    ns = {"a": "http://www.w3.org/2005/Atom"}
    return {xml_text(e, "a:title", ns): xml_text(e, "a:updated", ns) for e in root.iterfind("a:entry", ns)}


def test_undated_entries_keep_their_time_across_a_commit_that_touches_no_write_up(tmp_path: Path) -> None:
    src = copy_site(tmp_path / "src")
    environ = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"} | {
        "READTHEDOCS_CANONICAL_URL": SITE_URL
    }
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(src)]

    def commit(message: str, when: str) -> None:
        subprocess.run([*git, "add", "-A"], check=True)
        env = {**environ, "GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when}
        subprocess.run([*git, "commit", "-qm", message], check=True, env=env)

    subprocess.run(["git", "init", "-q", str(src)], check=True)
    commit("site", "2026-01-01T00:00:00Z")
    (src / "contributions/gamma-303.md").write_text(
        (src / "contributions/gamma-303.md").read_text(encoding="utf-8") + "\n", encoding="utf-8"
    )
    commit("one write-up", "2026-02-01T00:00:00Z")
    first = rtd_build(src, tmp_path / "one" / "html", env=environ)
    assert first.returncode == 0, first.stderr
    (src / "about/index.md").write_text((src / "about/index.md").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    commit("profile only", "2026-03-01T00:00:00Z")
    second = rtd_build(src, tmp_path / "two" / "html", env=environ)
    assert second.returncode == 0, second.stderr
    times = _entry_times(tmp_path / "one/html/contributions.atom")
    assert _entry_times(tmp_path / "two/html/contributions.atom") == times
    # each undated entry has its own page's last commit, not the repository's last commit
    assert sorted(times.values()) == ["2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"]


def test_search_objects_fix_is_needed(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without :mod:`~sphinx_contributions.write.fixes.search_objects` the search index names each write-up by
    the display name objects.inv gives it, its title: a search for its key or PR number misses it."""
    import shutil

    from sphinx_contributions.write.fixes import search_objects

    unwire(monkeypatch, search_objects.index_keys)
    shutil.copytree(rootdir / "test-listing", tmp_path / "src")
    app = make_app("html", srcdir=tmp_path / "src", freshenv=True)
    app.build()
    text = (Path(app.outdir) / "searchindex.js").read_text(encoding="utf-8")
    objects = json.loads(text[text.index("(") + 1 : text.rindex(")")])["objects"]
    names = sorted(entry[4] for entries in objects.values() for entry in entries)
    assert names == ["Beta feature", "Mu change", "Zeta fix", "alpha thing"]


def test_search_index_names_write_ups_by_key(listing_site: Path) -> None:
    text = (listing_site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    assert [(entry[4], entry[3], entry[2]) for entry in index["objects"][""]] == [
        ("alpha#1", "contribution", 0),
        ("beta#2", "contribution", 0),
        ("beta#4", "contribution", 0),
        ("gamma#3", "contribution", 0),
    ]


# -- feed dates from the git history, whatever the clone depth -----------------------------------------------


def _history(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """``tests/roots/test-faults`` with two undated write-ups (alpha, beta) in a git repository: the site
    committed on 1 January, the about page on 1 February, beta on 1 March, alpha on 1 April, the about page
    again on 1 May."""
    src = tmp_path / "repo"
    shutil.copytree(ROOTS / "test-faults", src)
    for name in ("alpha-1", "beta-2"):
        page = src / f"contributions/{name}.md"
        page.write_text(re.sub(r":date: .*\n", "", page.read_text(encoding="utf-8")), encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH" and not k.startswith("GIT_")}
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(src)]
    subprocess.run(["git", "init", "-q", str(src)], check=True)
    for when, touched in (("01", None), ("02", "about.md"), ("03", "contributions/beta-2.md"),
                          ("04", "contributions/alpha-1.md"), ("05", "about.md")):  # fmt: skip
        if touched:
            with (src / touched).open("a", encoding="utf-8") as file:
                file.write(f"\n% edited in month {when}\n")
        subprocess.run([*git, "add", "-A"], check=True)
        stamp = f"2026-{when}-01T00:00:00Z"
        env = {**environ, "GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
        subprocess.run([*git, "commit", "-qm", f"month {when}"], check=True, env=env)
    return src, environ


def _clone(src: Path, dest: Path, depth: int | None) -> Path:
    extra = ["--depth", str(depth)] if depth else []
    subprocess.run(["git", "clone", "-q", *extra, f"file://{src}", str(dest)], check=True)
    return dest


def test_undated_entries_take_their_last_commit_in_a_full_clone(tmp_path: Path) -> None:
    src, environ = _history(tmp_path)
    done = rtd_build(_clone(src, tmp_path / "full", None), tmp_path / "out/html", env=environ)
    assert done.returncode == 0, done.stderr
    assert "shallow" not in done.stdout
    times = _entry_times(tmp_path / "out/html/contributions.atom")
    assert times == {"Alpha fix": "2026-04-01T00:00:00Z", "Beta change": "2026-03-01T00:00:00Z",
                     "Gamma work": "2025-03-01T00:00:00Z"}  # fmt: skip


def test_a_site_with_sphinx_last_updated_by_git_dates_entries_as_its_pages(tmp_path: Path) -> None:
    """A site that loads sphinx-last-updated-by-git: an undated entry takes the time that extension gives
    its page, the last commit of the page or of a file it includes (beta includes a note from 1 June, the note
    edited on 1 July), where the extension's own history would give beta's page commit (1 June)."""
    src, environ = _history(tmp_path)
    (src / "_snippets").mkdir()
    (src / "_snippets/note.md").write_text("A note beta includes.\n", encoding="utf-8")
    page = src / "contributions/beta-2.md"
    text = page.read_text(encoding="utf-8")
    assert text.count(":::\n") >= 2  # the include goes inside the last section, verification
    head, _, tail = text.rpartition(":::\n")
    page.write_text(head + "```{include} ../_snippets/note.md\n```\n:::\n" + tail, encoding="utf-8")
    with (src / "conf.py").open("a", encoding="utf-8") as file:
        file.write("extensions.append('sphinx_last_updated_by_git')\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(src)]
    for month in ("06", "07"):  # June: the include, July: the note alone
        if month == "07":
            (src / "_snippets/note.md").write_text("A note beta includes, edited.\n", encoding="utf-8")
        subprocess.run([*git, "add", "-A"], check=True)
        stamp = f"2026-{month}-01T00:00:00Z"
        when = {**environ, "GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
        subprocess.run([*git, "commit", "-qm", f"month {month}"], check=True, env=when)
    done = rtd_build(_clone(src, tmp_path / "full", None), tmp_path / "out/html", env=environ)
    assert done.returncode == 0, done.stderr
    times = _entry_times(tmp_path / "out/html/contributions.atom")
    assert times == {"Alpha fix": "2026-04-01T00:00:00Z", "Beta change": "2026-07-01T00:00:00Z",
                     "Gamma work": "2025-03-01T00:00:00Z"}  # fmt: skip


def test_a_shallow_clone_that_holds_every_last_commit_says_so_and_dates_alike(tmp_path: Path) -> None:
    src, environ = _history(tmp_path)
    done = rtd_build(_clone(src, tmp_path / "shallow", 4), tmp_path / "out/html", env=environ)
    assert done.returncode == 0, done.stderr
    assert "the git history is shallow; every undated entry of contributions.atom has its last commit in it" in (
        done.stdout
    )
    times = _entry_times(tmp_path / "out/html/contributions.atom")
    assert (times["Alpha fix"], times["Beta change"]) == ("2026-04-01T00:00:00Z", "2026-03-01T00:00:00Z")


def test_a_shallow_clone_that_lacks_a_last_commit_fails_the_strict_build(tmp_path: Path) -> None:
    """``--depth 2``: the clone's boundary is April's commit, so beta's March commit is not in it (git gives
    the boundary's time), and alpha's own commit is the boundary (what it changed is unknown)."""
    src, environ = _history(tmp_path)
    done = rtd_build(_clone(src, tmp_path / "shallow", 2), tmp_path / "out/html", env=environ)
    assert done.returncode == 1
    # each on the write-up's header, of a kind of its own (before: one line, no location, [contrib.config])
    said = (
        "WARNING: the git history is shallow: this write-up's feed entry (no 'date') would take the time of the "
        "clone's boundary commit, not of its last commit; fetch the whole history ('git fetch --unshallow') or "
        "give the page a ':date:' [contrib.shallow_history]"
    )
    where = tmp_path / "shallow" / "contributions"
    assert done.stderr.splitlines() == [f"{where / 'alpha-1.md'}:3: {said}", f"{where / 'beta-2.md'}:3: {said}"]
    # silenced alone, the build passes
    quiet = rtd_build(
        tmp_path / "shallow", tmp_path / "out2/html", "-D", "suppress_warnings=contrib.shallow_history", env=environ
    )
    assert (quiet.returncode, quiet.stderr) == (0, "")


FAKE_GIT = """#!/bin/sh
# a git whose history never ends: the log is read only until every page has its commit
case "$1" in
  rev-parse) echo false; echo .git/shallow ;;
  log) printf '\\000aaaa 1700000000\\n\\na.md\\n'; while :; do printf '\\000bbbb 1600000000\\n\\nb.md\\n'; done ;;
  *) exit 1 ;;
esac
"""


def test_the_history_is_read_only_as_far_as_the_pages_need(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sphinx_contributions.write.history import History, last_commits

    (tmp_path / "bin").mkdir()
    git = tmp_path / "bin/git"
    git.write_text(FAKE_GIT, encoding="utf-8")
    git.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    history = last_commits(tmp_path, {"a": "a.md"})  # the whole history would never end
    assert history == History({"a": datetime.fromtimestamp(1700000000, UTC)}, shallow=False, uncertain=())


def test_json_in_a_script_element_keeps_no_markup_character() -> None:
    from sphinx_contributions.write.exports import script_json

    assert script_json({"title": "</script><b>R&D</b>"}) == (
        '{"title": "\\u003c/script\\u003e\\u003cb\\u003eR\\u0026D\\u003c/b\\u003e"}'
    )
