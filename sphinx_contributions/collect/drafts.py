"""Drafts: a page whose ``contribution`` says ``:status: draft`` is left out of the published build.

The published build must not hold a draft anywhere (page, listings, feed, JSON, sitemap, search,
``objects.inv``), so drafts are found before Sphinx reads anything, by a scan of the sources Sphinx found
new or changed, and taken out of the build as if their files were not there (:func:`leave_out_drafts`).
The scan parses Markdown with MyST's own parser and the site's MyST settings, so a ``contribution``
shown inside a code block is not mistaken for a header, and both option forms (``:status: draft``
lines and a ``---`` YAML block) are read. ``contributions_include_drafts = True`` (``make serve``)
keeps drafts in, with a banner. The scan's keys let ``{contrib}`` say "links to a draft" rather than
"not found".

A page the scan cannot see as a draft (its header nested in another directive, say) would be published:
once everything is read, any ``draft`` record left in the build is reported as
``[contrib.draft_not_excluded]``, which fails the strict build.

The scan is also what the ``contributions`` command line reads (:mod:`.cli`) for every page's key,
without building; what it shows of a draft comes from a build of the drafts (:func:`.cli.main.draft_records`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.project import Project

from ..files import read_json, write_whole
from ..keys import key_lookup, make_key, split_target
from ..read.sources import block_tokens, directive_name, markdown_parser, site_config
from ..warnings import ContribWarning, warn
from .domain import ContributionsDomain, did_you_mean, get_domain

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from myst_parser.config.main import MdParserConfig
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.domains import Domain
    from sphinx.environment import BuildEnvironment

#: reStructuredText: ``.. contribution::`` and its indented ``:name: value`` options
_RST_HEADER = re.compile(
    r"^\.\.[ \t]+contribution::[^\n]*\n(?P<options>(?:[ \t]+:[\w-]+:[^\n]*\n)*)",
    re.MULTILINE,
)
_RST_OPTION = re.compile(r"^[ \t]*:(?P<name>[\w-]+):[ \t]*(?P<value>[^\n]*?)[ \t]*$", re.MULTILINE)

#: what a scan finds in a page: the ``contribution`` header's options, or None
Scan = dict[str, str] | None


@dataclass(frozen=True)
class SourcePage:
    """The header of one contribution page, read from its source without building it."""

    docname: str
    path: Path
    options: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        given = self.options.get("key", "").strip()  # the header's :key:, as written
        return given or make_key(self.options.get("repo", "").strip(), self.options.get("pr", ""))

    @property
    def status(self) -> str | None:
        status = self.options.get("status", "").strip().lower()
        return status or None

    @property
    def is_draft(self) -> bool:
        return self.status == "draft"


def _header_options(token: Token) -> dict[str, str]:
    """The options of a ``contribution`` fence, as MyST reads them."""
    from docutils.parsers.rst.states import MarkupError
    from myst_parser.parsers.directives import parse_directive_text

    from ..read.directives import ContributionDirective

    first_line = token.info.strip()[token.info.strip().index("}") + 1 :].strip()
    try:
        parsed = parse_directive_text(ContributionDirective, first_line, token.content)
    except MarkupError:
        return {}
    return {key: str(value) for key, value in parsed.options.items()}


def scan_markdown(text: str, md: MarkdownIt) -> Scan:
    """The header options of a MyST page (its first ``contribution`` fence; one shown in a code block is
    no header), from its block tokens: no inline parse."""
    for token in block_tokens(text, md):
        if directive_name(token) == "contribution":
            return _header_options(token)
    return None


def scan_rst(text: str) -> Scan:
    """The same for a reStructuredText page, read with patterns."""
    match = _RST_HEADER.search(text)
    if match is None:
        return None
    return {m["name"]: m["value"] for m in _RST_OPTION.finditer(match["options"])}


#: the word, in any case (a quick look at a page's bytes: a page without it is no draft)
_DRAFT = re.compile(rb"draft", re.IGNORECASE)


def scan_file(path: Path, docname: str, md: Callable[[], MarkdownIt], drafts_only: bool = False) -> SourcePage | None:
    """The page at ``path`` if it declares a contribution (a draft, with ``drafts_only``), else None. ``md``
    gives the Markdown parser, asked only for a page that may be one (a site of no write-up makes none)."""
    data = path.read_bytes()
    if b"contribution" not in data or (drafts_only and _DRAFT.search(data) is None):
        return None  # cheap tests first, on the bytes: parsing every page is most of a one-page rebuild at N = 1000
    text = data.decode("utf-8", errors="replace")
    options = scan_markdown(text, md()) if path.suffix == ".md" else scan_rst(text)
    return SourcePage(docname, path, options) if options is not None else None


def scan_sources(
    srcdir: Path,
    exclude_patterns: Iterable[str],
    include_patterns: Iterable[str] = ("**",),
    source_suffix: Iterable[str] = (".md", ".rst"),
    md: MarkdownIt | None = None,
    drafts_only: bool = False,
) -> dict[str, SourcePage]:
    """docname → :class:`SourcePage` of every contribution page among the sources Sphinx would read
    (with ``drafts_only``: at least those that are drafts; pages without the word are not parsed)."""
    parser = cache(markdown_parser) if md is None else lambda: md
    suffixes = {suffix: "" for suffix in source_suffix if suffix in (".md", ".rst")}
    project = Project(srcdir, suffixes)
    pages: dict[str, SourcePage] = {}
    for docname in sorted(project.discover(list(exclude_patterns), list(include_patterns))):
        page = scan_file(project.doc2path(docname, absolute=True), docname, parser, drafts_only)
        if page is not None:
            pages[docname] = page
    return pages


def leave_out_drafts(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated`` (first): unless drafts are included, the drafts among the pages Sphinx found
    new or changed are taken out of the build, as if their files were not there.

    Only those pages are scanned: a page Sphinx read before and that did not change is no draft (it was
    scanned when it changed). A draft is never read, so it is "added" in every build: the drafts found are
    remembered with their files' times and sizes (:func:`remembered_drafts`), and a draft whose file did
    not change is not read again, so a build with nothing to do reads no source. ``exclude_patterns``
    stays as the site wrote it: changing it would make Sphinx read every page again whenever the drafts
    change."""
    if app.config.contributions_include_drafts:
        get_domain(env).draft_keys = {}
        return []
    candidates = sorted(added | changed)
    config = site_config(env) if candidates else None
    settings = _settings(config)
    known = remembered_drafts(app, settings)
    parser = cache(partial(markdown_parser, config))  # made for the first page that may be a draft
    drafts: dict[str, tuple[int, int, str]] = {}  # docname → (mtime, size, key)
    for docname in candidates:
        path = env.doc2path(docname)
        try:
            stat = path.stat()
        except OSError:
            continue
        stamp = (stat.st_mtime_ns, stat.st_size)
        seen = known.get(docname)
        if seen is not None and (seen[0], seen[1]) == stamp:
            drafts[docname] = seen
            continue
        page = scan_file(path, docname, parser, drafts_only=True)
        if page is not None and page.is_draft:
            drafts[docname] = (*stamp, page.key)
    for docname in drafts:
        env.found_docs.discard(docname)
        added.discard(docname)
        changed.discard(docname)
        if docname in env.all_docs:  # published until now: its output goes (.write.manifest)
            removed.add(docname)
    if drafts != known:
        _save(app, settings, drafts)
    get_domain(env).draft_keys = {key_lookup(key): docname for docname, (_, _, key) in drafts.items()}
    return []


#: the drafts found by the last build, beside the environment: docname → [mtime, size, key]
MEMORY_NAME = "contributions-drafts.json"
MEMORY_VERSION = 1


def _settings(config: MdParserConfig | None) -> list[object]:
    """The MyST settings a header's reading depends on (the memory is void when they change)."""
    if config is None:
        return []
    return [
        sorted(config.enable_extensions),
        sorted(config.fence_as_directive),
        sorted(config.disable_syntax),
        config.commonmark_only,
        config.gfm_only,
    ]


def remembered_drafts(app: Sphinx, settings: list[object]) -> dict[str, tuple[int, int, str]]:
    """The drafts the last build found (read under the same MyST settings), by docname; an unreadable or
    missing memory is none (every candidate is scanned)."""
    data = read_json(Path(app.doctreedir) / MEMORY_NAME)
    if not isinstance(data, dict) or data.get("version") != MEMORY_VERSION or data.get("settings") != settings:
        return {}
    drafts = data.get("drafts")
    if not isinstance(drafts, dict):
        return {}
    return {
        docname: (entry[0], entry[1], entry[2])
        for docname, entry in drafts.items()
        if isinstance(entry, list) and len(entry) == 3
    }


def _save(app: Sphinx, settings: list[object], drafts: dict[str, tuple[int, int, str]]) -> None:
    document = {"version": MEMORY_VERSION, "settings": settings, "drafts": drafts}
    write_whole(Path(app.doctreedir) / MEMORY_NAME, json.dumps(document, indent=1, sort_keys=True) + "\n")


def check_no_draft_left(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-check-consistency``: a draft the scan did not see must not be published silently."""
    if env.config.contributions_include_drafts:
        return
    domain = get_domain(env)
    for docname in sorted(domain.contributions):
        record = domain.contributions[docname]
        if record.status == "draft":
            warn(
                ContribWarning.DRAFT_NOT_EXCLUDED,
                f"contribution {record.key} is a draft but its header was not found before the build "
                "(is it nested in another directive?), so it would be published; "
                "put the 'contribution' directive at the top level of the page",
                (docname, record.lineno),
            )


def warn_missing_contrib(app: Sphinx, domain: Domain | None, node: pending_xref) -> bool | None:
    """``warn-missing-reference``: a ``{contrib}`` link that no write-up of this site, no intersphinx
    inventory and no ``nitpick_ignore`` entry answered; our own words (a draft, or an unknown key)."""
    if not isinstance(domain, ContributionsDomain) or node.get("reftype") != "contrib":
        return None
    target = node["reftarget"]
    draft = (domain.draft_keys or {}).get(key_lookup(split_target(target)[0]))
    if draft is not None:
        warn(
            ContribWarning.DRAFT_LINK,
            f"{{contrib}} links to {target}, a draft ({draft}) that the published site leaves out",
            node,
        )
    else:
        cause = unlisted_cause(domain, target) or did_you_mean(domain, target)
        warn(ContribWarning.UNKNOWN_KEY, f"{{contrib}} target not found: {target!r}{cause}", node)
    return True


def unlisted_cause(domain: ContributionsDomain, target: str) -> str:
    """``: bad.md declares it, but that page is not listed: <its own warning>``: the page whose header
    declares the key and was rejected, and why; "" when no page does. A rejected header always warns, so
    only the pages that warned while being read are looked at, and only on this warning's path."""
    from ..read.sources import site_markdown_parser

    env = domain.env
    wanted = key_lookup(split_target(target)[0])
    for docname, said in sorted(domain.data.get("warnings", {}).items()):
        own = [warning.message for warning in said if (warning.type or "").startswith("contrib.")]
        if docname in domain.contributions or not own or docname not in env.found_docs:
            continue
        page = scan_file(env.doc2path(docname), docname, lambda: site_markdown_parser(env))
        if page is not None and key_lookup(page.key) == wanted:
            return f": {env.doc2path(docname, False)} declares it, but that page is not listed: {own[0]}"
    return ""
