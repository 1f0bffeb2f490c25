"""Every setting in one table (as MyST-Parser's ``MdParserConfig``); a wrong type or misspelt name is one
``[contrib.config]`` warning at its line of ``conf.py``."""

from __future__ import annotations

import ast
import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


def is_preview(config: Config | None = None) -> bool:
    """Whether this is a Read the Docs pull-request build (its documented ``external`` version type)."""
    return os.environ.get("READTHEDOCS_VERSION_TYPE") == "external"


#: the lock file ``contributions sync`` writes beside ``conf.py`` (:mod:`.lock` reads and writes it)
LOCK_NAME = "contributions.lock.json"


@dataclass(frozen=True)
class Setting:
    """One ``contributions_*`` setting."""

    name: str
    #: the value, or a function of the site's configuration that gives it (Sphinx calls it)
    default: Any
    #: what Sphinx rebuilds when the value changes: ``"env"`` (every page is read again) or ``"html"``
    rebuild: Literal["env", "html"]
    types: tuple[type, ...]
    description: str
    #: the words a list setting may hold (none: any)
    choices: tuple[str, ...] = ()

    @property
    def type_words(self) -> str:
        names = {bool: "True or False", int: "a whole number", str: "a string", list: "a list", tuple: "a tuple"}
        return " or ".join(names.get(kind, kind.__name__) for kind in self.types)


#: every setting, in the order AUTHORING.md lists them
SETTINGS: tuple[Setting, ...] = (
    Setting("contributions_index", "contributions/index", "env", (str,), "the page of the list of every write-up"),
    Setting("contributions_sidebar_limit", 10, "html", (int,), "how many write-ups the sidebar lists"),
    Setting("contributions_include_drafts", False, "env", (bool,), "build drafts too, each with a banner"),
    Setting("contributions_feed_title", "", "html", (str,), "the feed's title (default: '<project>: contributions')"),
    Setting("contributions_author", "", "html", (str,), "the write-ups' author, in the feed and their structured data"),
    Setting("contributions_tags_path", "tags", "env", (str,), "the folder of the generated tag pages"),
    Setting("contributions_projects_path", "projects", "env", (str,), "the folder of the generated project pages"),
    Setting("contributions_filter_min", 6, "html", (int,), "write-ups a listing needs to show its filter"),
    Setting("contributions_tag_page_min", 2, "html", (int,), "write-ups a tag needs for a page of its own"),
    Setting("contributions_project_page_min", 2, "html", (int,), "write-ups a project needs for a page of its own"),
    Setting("contributions_social_cards", False, "html", (bool,), "a 1200×630 PNG card for every page"),
    Setting("contributions_lock", LOCK_NAME, "env", (str,), "the lock file 'contributions sync' writes"),
    Setting("contributions_check_titles", False, "env", (bool,), "warn when a title is not the pull request's"),
    Setting("contributions_tagline", "", "env", (str,), "your role, one line, on the PDF's title page"),
    Setting("contributions_profile_links", [], "env", (list, tuple), "your profiles' addresses, on the title page"),
    Setting("contributions_noindex", is_preview, "html", (bool,), "tell search engines not to index the pages"),
    Setting("contributions_short_names", True, "env", (bool,), "the bare names ({pr}, :::{fix}) where none took them"),
    # a portfolio's site-wide choices (on in what `contributions init` writes); a guest's pages stay
    Setting("contributions_assets_everywhere", False, "html", (bool,), "the stylesheet and scripts on every page"),
    Setting("contributions_external_rel", False, "html", (bool,), 'rel="noopener noreferrer" on every outbound link'),
    Setting("contributions_hide_empty_index", False, "html", (bool,), "no Index page where no page holds an entry"),
    Setting("contributions_sitemap", False, "html", (bool,), "the extension writes sitemap.xml, every page listed"),
    Setting("contributions_book_fixes", False, "html", (bool,), "Sphinx's one-page and ePub fixes on every page"),
    Setting("contributions_pdf_card_styles", False, "env", (bool,), "sphinx-design's card titles bold in the PDF"),
    Setting("contributions_lasting_warnings", False, "env", (bool,), "a page that warned is read again until fixed"),
    Setting(
        "contributions_facts",
        ["size", "tests", "commits", "approvals", "closes", "time"],
        "html",
        (list, tuple),
        "which facts of how a pull request was made the header shows, from the lock: size, tests, commits, "
        "approvals, closes, time",
        choices=("size", "tests", "commits", "approvals", "closes", "time"),
    ),
)

BY_NAME = {setting.name: setting for setting in SETTINGS}
#: the prefixes a setting of this extension is written with (the singular is a common slip)
PREFIXES = ("contributions_", "contribution_")


def register_settings(app: Sphinx) -> None:
    for setting in SETTINGS:
        app.add_config_value(
            setting.name,
            setting.default,
            setting.rebuild,
            types=frozenset(setting.types),
            description=setting.description,
        )


def _lines(confdir: str | Path) -> dict[str, int]:
    """The line of each name ``conf.py`` assigns at its top level (the last); none when it cannot be parsed."""
    path = Path(confdir, "conf.py")
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    lines: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                lines[target.id] = node.lineno
    return lines


def _has_type(value: object, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:  # True is an int to Python, not a number of write-ups
        return False
    return isinstance(value, types)


def conf_location(app: Sphinx, *names: str) -> str | None:
    """``conf.py:LINE`` where the site sets the first of ``names``: a warning's location; None where unset."""
    if not app.confdir:
        return None
    lines = _lines(app.confdir)
    line = next((lines[name] for name in names if name in lines), None)
    return f"{Path(app.confdir, 'conf.py')}:{line}" if line else None


#: a canonical URL: ``http://`` or ``https://``, a host, then anything without spaces
_BASE_URL = re.compile(r"https?://[^/\s?#]+(/\S*)?", re.IGNORECASE)


def canonical_url(config: Config) -> str:
    """The site's canonical URL ending in ``/``, or ``""``: the base of every absolute URL the extension writes."""
    base = str(config.html_baseurl or "").strip()
    return base if not base or base.endswith("/") else base + "/"


def check_html_baseurl(app: Sphinx, config: Config) -> None:
    """``config-inited``: ``html_baseurl`` is an ``http(s)://`` URL ending in ``/``, or empty (warned)."""
    value = config.html_baseurl
    if not isinstance(value, str) or not value:
        return
    base = value.strip()
    if base and _BASE_URL.fullmatch(base):
        config.html_baseurl = canonical_url(config)
        return
    why = "is blank" if not base else "is not an http:// or https:// URL (such as 'https://example.org/')"
    warn(
        ContribWarning.CONFIG,
        f"html_baseurl = {value!r} {why}: no canonical URL is used, so the feed, the sitemap, canonical "
        "links and social cards are left out",
        conf_location(app, "html_baseurl"),
    )
    config.html_baseurl = ""


def check_settings(app: Sphinx, config: Config) -> None:
    """``config-inited``, first: a wrong type warns and takes the default; a misspelt name warns."""
    lines = _lines(app.confdir) if app.confdir else {}
    for setting in SETTINGS:
        value = getattr(config, setting.name)
        if _has_type(value, setting.types) and setting.choices:
            wrong = [item for item in value if item not in setting.choices]
            if wrong:
                warn(
                    ContribWarning.CONFIG,
                    f"{setting.name} = {value!r}: {', '.join(map(repr, wrong))} {'is' if len(wrong) == 1 else 'are'} "
                    f"not one of {', '.join(setting.choices)}; left out",
                    conf_location(app, setting.name),
                )
                setattr(config, setting.name, [item for item in value if item in setting.choices])
            continue
        if _has_type(value, setting.types):
            continue
        default = setting.default(config) if callable(setting.default) else setting.default
        warn(
            ContribWarning.CONFIG,
            f"{setting.name} = {value!r}: it takes {setting.type_words} ({setting.description}); the default "
            f"{default!r} is used",
            conf_location(app, setting.name),
        )
        setattr(config, setting.name, default)
    for name in sorted(lines):  # the names conf.py assigns, as written
        if name in BY_NAME or not name.startswith(PREFIXES):
            continue
        # compared without the prefix, which every name shares and which would make any two look alike
        rest = name.removeprefix("contributions_").removeprefix("contribution_")
        meant = difflib.get_close_matches(
            rest, [key.removeprefix("contributions_") for key in BY_NAME], n=1, cutoff=0.8
        )
        meant = ["contributions_" + found for found in meant]
        hint = f"did you mean {meant[0]}?" if meant else "the settings are listed in AUTHORING.md, 'Settings'"
        warn(
            ContribWarning.CONFIG,
            f"{name} is not a setting of sphinx-contributions and is ignored; {hint}",
            conf_location(app, name),
        )


#: the settings of the generated pages' folders (:mod:`.write.generated`), and their defaults
FOLDERS = {"contributions_tags_path": "tags", "contributions_projects_path": "projects"}


def check_folders(app: Sphinx, config: Config) -> None:
    """``config-inited``: the generated pages' folders are inside the site and apart; else the defaults."""
    for name, default in FOLDERS.items():
        value = str(config[name]).strip().rstrip("/")  # "tags/" is "tags"; "/tags" is outside the site
        if not value or value.startswith((".", "/")) or any(part in ("", ".", "..") for part in value.split("/")):
            warn(
                ContribWarning.CONFIG,
                f"{name} = {config[name]!r} is not a folder inside the site (such as {default!r}): {default!r} is used",
                conf_location(app, name),
            )
            value = default
        setattr(config, name, value)
    tags, projects = config.contributions_tags_path, config.contributions_projects_path
    if tags == projects or tags.startswith(projects + "/") or projects.startswith(tags + "/"):
        warn(
            ContribWarning.CONFIG,
            f"contributions_tags_path = {tags!r} and contributions_projects_path = {projects!r} are "
            f"{'one folder' if tags == projects else 'one folder inside the other'}: a tag named like a project "
            "would replace the project's page; the defaults 'tags' and 'projects' are used",
            conf_location(app, "contributions_projects_path", "contributions_tags_path"),
        )
        for name, default in FOLDERS.items():
            setattr(config, name, default)
