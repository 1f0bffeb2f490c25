"""Machine-readable exports, all from the domain's records: ``contributions.json`` (with its JSON
Schema beside it), the Atom feed ``contributions.atom``, and per-page JSON-LD and meta description.

URLs are absolute, from ``html_baseurl`` (on Read the Docs, ``READTHEDOCS_CANONICAL_URL``). Dates come
from the pages' ``date`` option, their last commit or ``SOURCE_DATE_EPOCH``, else the source file's
modification time; never from the clock, so two builds of the same sources write the same bytes.

A site without published write-ups (one that loads the extension only to link another portfolio, or a
new site whose only page is a draft) gets no exports: no empty ``contributions.json``, schema or feed.
The feed's title and author come from ``contributions_feed_title`` and ``contributions_author``, else
from ``project`` and ``author``; Sphinx's placeholders for those ("Project name not set") are not
names, so a site that sets neither gets the title "Contributions" and no author. A write-up's structured
data (JSON-LD) names ``contributions_author`` alone: the host's ``author`` is the author of its project,
not of each pull request.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote
from xml.etree import ElementTree as ET

from markupsafe import escape
from sphinx.util import logging

from ..builders import EXPORT_NAMES, FEED_NAME, JSON_NAME, SCHEMA_NAME, is_site_builder
from ..collect.domain import get_domain
from ..queries import sort_records
from ..records import Contribution
from ..settings import canonical_url
from ..warnings import ContribWarning, warn
from .history import History, last_commits, last_updated_times
from .manifest import shows_work

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..render.header import Fact

logger = logging.getLogger(__name__)

#: bump when a field changes meaning or disappears; adding a field keeps the version
SCHEMA_VERSION = 1
ATOM = "http://www.w3.org/2005/Atom"


def entry_id(base: str, record: Contribution) -> str:
    """A feed entry's id: the write-up's key in the site's JSON export (``…/contributions.json#repo%231``),
    not its page's address, so a renamed file (a new address, :mod:`.redirects`) is the same entry to a
    feed reader, as RFC 4287 asks of an id."""
    return f"{base}{JSON_NAME}#{quote(record.key, safe='')}"


def page_url(app: Sphinx, docname: str) -> str:
    return canonical_url(app.config) + app.builder.get_target_uri(docname)


def record_json(app: Sphinx, record: Contribution) -> dict[str, Any]:
    data = {
        "key": record.key,
        "title": record.title,
        "url": page_url(app, record.docname),
        "project": record.display_project,
        "repository": record.repo,
        "repository_url": record.repo_url,
        "pr": record.pr,
        "pr_url": record.pr_url,
        "issues": [{"number": n, "url": url} for n, url in zip(record.issues, record.issue_urls, strict=True)],
        "status": record.status,
        "date": record.date,
        "tags": list(record.tags),
        "summary": record.summary,
        "impact": record.impact or None,
        "metrics": [metric.as_json() for metric in record.metrics],
    }
    if record.forge is not None:  # from contributions.lock.json; absent without an entry
        data["forge"] = record.forge.as_json()
        made = made_of(app, record)
        if made:  # what the header shows of how it was made, in English, each with where the forge shows it
            data["facts"] = [{"fact": fact.name, "text": fact.text, "url": fact.url} for fact in made]
    return data


def made_of(app: Sphinx, record: Contribution) -> tuple[Fact, ...]:
    """The facts of how the pull request was made that the site shows (``contributions_facts``), in the
    exports' English."""
    from ..render.header import made_facts

    return made_facts(record, app.config.contributions_facts, str)


def contributions_document(app: Sphinx, records: list[Contribution]) -> dict[str, Any]:
    return {
        "$schema": canonical_url(app.config) + SCHEMA_NAME,
        "version": SCHEMA_VERSION,
        "contributions": [record_json(app, record) for record in sort_records(records, "date")],
    }


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def script_json(data: object) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` survives as such."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def configured(app: Sphinx, name: str) -> str:
    """A setting of ``conf.py`` (``project``, ``author``), or "" where it is Sphinx's placeholder default."""
    value = getattr(app.config, name, "") or ""
    default = app.config.config_values[name].default if name in app.config.config_values else None
    return "" if not isinstance(value, str) or value == default else value


def feed_author(app: Sphinx) -> str:
    return app.config.contributions_author or configured(app, "author") or configured(app, "project")


def source_time(app: Sphinx, docname: str) -> datetime:
    """The modification time of a page's source (UTC, whole seconds): an undated page's time outside git."""
    stamp = int(Path(app.env.doc2path(docname)).stat().st_mtime)
    return datetime.fromtimestamp(stamp, UTC)


def build_timestamp(srcdir: Path) -> datetime | None:
    """``SOURCE_DATE_EPOCH`` if set, else the time of the sources' last commit; never the clock. A value
    that is not a Unix time a date can hold (``²``, ``99999999999999999``) is reported and ignored."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        stamp = _from_epoch(epoch)
        if stamp is not None:
            return stamp
        warn(
            ContribWarning.CONFIG,
            f"SOURCE_DATE_EPOCH={epoch!r} is not a Unix time in whole seconds (such as 1700000000) that a date "
            "can hold: it is ignored, as if unset",
            None,
        )
    try:
        done = subprocess.run(
            ["git", "log", "-1", "--format=%ct"], cwd=srcdir, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return _from_epoch(done.stdout.strip())


def _from_epoch(text: str) -> datetime | None:
    """Seconds since 1970 (ASCII digits only: ``str.isdigit`` also takes ``²``) as a UTC time, if a date
    can hold it."""
    if not (text.isascii() and text.isdigit()):
        return None
    try:
        return datetime.fromtimestamp(int(text), UTC)
    except (OverflowError, ValueError, OSError):
        return None


def report_shallow_history(app: Sphinx, history: History, lines: dict[str, int]) -> None:
    """A shallow clone must not change the feed in silence: a warning on each undated write-up's header
    (``lines``: docname → its line) whose entry would take the boundary commit's time, of a kind of its own
    (``contrib.shallow_history``: a CI build at depth 1 can silence it alone), else an information line."""
    if history.uncertain:
        for docname in sorted(history.uncertain):
            warn(
                ContribWarning.SHALLOW_HISTORY,
                "the git history is shallow: this write-up's feed entry (no 'date') would take the time of the "
                "clone's boundary commit, not of its last commit; fetch the whole history "
                "('git fetch --unshallow') or give the page a ':date:'",
                (docname, lines.get(docname) or None),
            )
    elif history.shallow:
        logger.info(f"the git history is shallow; every undated entry of {FEED_NAME} has its last commit in it")


# Not feedgen (ablog's writer), measured with feedgen 1.0.0, its newest release (2023-12) on this site's
# test-portfolio: its entries write each <link> with its href alone, dropping rel and type
# (lkiesow/python-feedgen#135, open since 2024-01), so an entry's pull request link (rel="related") turns
# into a second rel="alternate" link of the same type, which RFC 4287 (4.1.1) forbids, and a reader may
# open the pull request as the entry's page. The rest of what it changed carried no meaning (attribute
# order, '/>' for ' />', single quotes in the XML declaration) apart from an xml:lang. Revisit when a
# release writes entry links whole: tests/test_exports.py checks each entry's links, rel and type.
def _atom_time(value: datetime) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def atom_feed(app: Sphinx, records: list[Contribution]) -> bytes:
    """An Atom 1.0 feed, newest first by ``date``; undated pages last, dated by their page's last commit
    (so a commit that touches no write-up changes no entry), else by the build timestamp, else by the
    source file's modification time (never 1970)."""
    base = canonical_url(app.config)
    # only pages that are still sources of the site (a record outliving its page has no time or page to link)
    ordered = [r for r in sort_records(records, "date") if r.docname in app.env.found_docs]
    fallback = build_timestamp(Path(app.srcdir))
    undated = {r.docname: app.env.doc2path(r.docname, False).as_posix() for r in ordered if not r.date}
    history = last_updated_times(app.env, undated) or last_commits(Path(app.srcdir), undated)
    report_shallow_history(app, history, {r.docname: r.lineno for r in ordered})
    committed = history.times

    def updated_at(record: Contribution) -> datetime:
        if record.date:
            return datetime.fromisoformat(record.date).replace(tzinfo=UTC)
        return committed.get(record.docname) or fallback or source_time(app, record.docname)

    dated = [updated_at(r) for r in ordered]
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")

    def sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
        element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attrs)
        if text is not None:
            element.text = text
        return element

    sub(feed, "id", base + FEED_NAME)
    project = configured(app, "project")
    title = app.config.contributions_feed_title or (f"{project}: contributions" if project else "Contributions")
    sub(feed, "title", title)
    sub(feed, "updated", _atom_time(max(dated)))
    sub(feed, "link", rel="self", type="application/atom+xml", href=base + FEED_NAME)
    index = app.config.contributions_index
    if index in app.env.found_docs:
        sub(feed, "link", rel="alternate", type="text/html", href=page_url(app, index))
    if feed_author(app):
        sub(sub(feed, "author"), "name", feed_author(app))
    for record in ordered:
        url = page_url(app, record.docname)
        entry = sub(feed, "entry")
        sub(entry, "id", entry_id(base, record))
        sub(entry, "title", record.title)
        sub(entry, "link", rel="alternate", type="text/html", href=url)
        sub(entry, "link", rel="related", type="text/html", href=record.pr_url)
        sub(entry, "updated", _atom_time(updated_at(record)))
        sub(entry, "summary", record.description)
        for tag in record.tags:
            sub(entry, "category", term=tag)
        if record.forge is not None:  # the lock's facts, each a category of its own scheme
            scheme = base + JSON_NAME
            sub(entry, "category", term=record.forge.state, scheme=f"{scheme}#state", label=record.forge.state)
            if record.forge.first_release:
                tag = record.forge.first_release[0]
                sub(entry, "category", term=tag, scheme=f"{scheme}#first_release", label=f"first shipped in {tag}")
            made: dict[str, str] = {}
            for fact in made_of(app, record):  # one category per fact, its words as the header has them
                made[fact.name] = made[fact.name] + fact.separator + fact.text if fact.name in made else fact.text
            for name, words in made.items():
                sub(entry, "category", term=name, scheme=f"{scheme}#facts", label=words)
    ET.indent(feed)
    body: bytes = ET.tostring(feed, encoding="utf-8")
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + body + b"\n"


def json_ld(app: Sphinx, record: Contribution) -> dict[str, Any]:
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "TechArticle",
        "headline": record.title,
        "description": record.description,
        "identifier": record.key,
        "keywords": list(record.tags),
        "isBasedOn": record.pr_url,
        "about": {"@type": "SoftwareSourceCode", "name": record.display_project, "codeRepository": record.repo_url},
    }
    if canonical_url(app.config):  # an absolute URL, only where the canonical URL is known
        data["url"] = page_url(app, record.docname)
    # the write-up's author is the site's setting, never the host project's ``author`` (on a project's
    # docs that names the project's team as the author of every pull request)
    author = app.config.contributions_author
    if author:
        data["author"] = {"@type": "Person", "name": author}
    if record.date:
        data["datePublished"] = record.date
    if record.forge is not None and record.forge.first_release:  # the first release that shipped the change
        data["about"]["version"] = record.forge.first_release[0]
    made = made_of(app, record) if record.forge is not None else ()
    if made:  # how the pull request was made, each fact with the forge's page that shows it
        data["mentions"] = [{"@type": "WebPage", "name": fact.text, "url": fact.url} for fact in made]
    return data


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context``: the feed link on every page (where there is a feed); description and JSON-LD
    on write-ups."""
    if not is_site_builder(app.builder):
        return
    domain = get_domain(app.env)
    if not domain.has_published():
        return
    tags = []
    if canonical_url(app.config):
        feed = escape(canonical_url(app.config) + FEED_NAME)
        tags.append(f'<link rel="alternate" type="application/atom+xml" title="Contributions" href="{feed}">')
    record = domain.contributions.get(pagename)
    if record is not None:
        tags.append(f'<meta name="description" content="{escape(record.description)}">')
        tags.append(f'<script type="application/ld+json">{script_json(json_ld(app, record))}</script>')
    context["metatags"] = context.get("metatags", "") + "\n".join(tags) + "\n"


def write_exports(app: Sphinx) -> list[tuple[str, dict[str, Any], str]]:
    """``html-collect-pages``: write the JSON, its schema and the feed; no pages of its own."""
    if not shows_work(app):  # nothing of the extension's here, nor in this output
        return []
    if not is_site_builder(app.builder):
        return []
    outdir = Path(app.outdir)
    domain = get_domain(app.env)
    records = domain.published()
    if not records:  # nothing to export; the files of an earlier build with write-ups go
        for name in EXPORT_NAMES:
            (outdir / name).unlink(missing_ok=True)
        return []
    (outdir / JSON_NAME).write_text(dumps(contributions_document(app, records)), encoding="utf-8")
    schema = resources.files("sphinx_contributions") / "schema" / SCHEMA_NAME
    with resources.as_file(schema) as path:
        shutil.copyfile(path, outdir / SCHEMA_NAME)
    if canonical_url(app.config):  # the feed needs absolute URLs; without them it is left out (see .canonical)
        (outdir / FEED_NAME).write_bytes(atom_feed(app, records))
    return []
