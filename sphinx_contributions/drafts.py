"""Drafts: a page whose ``contribution`` says ``:status: draft`` is left out of the published build.

The published build must not hold a draft anywhere (page, listings, feed, JSON, sitemap, search,
``objects.inv``), so drafts are found before Sphinx reads anything, by a scan of the sources, and added
to ``exclude_patterns``. ``contributions_include_drafts = True`` (``make serve``) keeps them in, with a
banner. The scan's keys let ``{contrib}`` say "links to a draft" rather than "not found".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.project import Project

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

_HEADER = re.compile(
    r"^(?P<fence>:{3,}|`{3,})[ \t]*\{contribution\}[^\n]*\n(?P<options>(?:[ \t]*:[\w-]+:[^\n]*\n)*)",
    re.MULTILINE,
)
_OPTION = re.compile(r"^[ \t]*:(?P<name>[\w-]+):[ \t]*(?P<value>[^\n]*?)[ \t]*$", re.MULTILINE)


def header_options(text: str) -> dict[str, str] | None:
    """The ``:name: value`` options of the first ``contribution`` directive in a MyST source."""
    match = _HEADER.search(text)
    if match is None:
        return None
    return {m["name"]: m["value"] for m in _OPTION.finditer(match["options"])}


def find_drafts(srcdir: Path, config: Config) -> dict[str, str]:
    """docname → key of every draft among the sources Sphinx would read."""
    project = Project(srcdir, config.source_suffix)
    docnames = project.discover(config.exclude_patterns, config.include_patterns)
    drafts: dict[str, str] = {}
    for docname in sorted(docnames):
        path = project.doc2path(docname, absolute=True)
        if path.suffix != ".md":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "{contribution}" not in text:
            continue
        options = header_options(text)
        if options and options.get("status", "").strip().lower() == "draft":
            repo = options.get("repo", "").strip()
            drafts[docname] = f"{repo.rpartition('/')[2]}#{options.get('pr', '').strip().lstrip('#')}"
    return drafts


def exclude_drafts(app: Sphinx, config: Config) -> None:
    """``config-inited``: unless drafts are included, leave every draft's source out of the build."""
    if config.contributions_include_drafts:
        config.contributions_draft_keys = {}
        return
    drafts = find_drafts(Path(app.srcdir), config)
    project = Project(Path(app.srcdir), config.source_suffix)
    config.exclude_patterns = [
        *config.exclude_patterns,
        *(project.doc2path(docname, absolute=False).as_posix() for docname in drafts),
    ]
    config.contributions_draft_keys = {key.lower(): docname for docname, key in drafts.items()}


def setup_drafts(app: Sphinx) -> None:
    app.add_config_value("contributions_include_drafts", False, "env", types=frozenset({bool}))
    # computed at config-inited from the sources, never set by hand
    app.add_config_value("contributions_draft_keys", {}, "", types=frozenset({dict}))
    app.connect("config-inited", exclude_drafts)
