"""``contributions init DIR``: a new portfolio site, ready to build strictly as html, dirhtml, epub and PDF.

The files come from the Jinja templates in ``scaffold/`` (one template per file, its path the file's
path; ``dot-`` stands for a leading ``.``): ``conf.py``, the home page (a profile and a cards listing),
``about.md``, ``contributions/index.md`` (every write-up, with filters), a sample write-up as a draft,
``README.md``, ``requirements.txt``, ``.readthedocs.yaml``, ``.pre-commit-config.yaml`` and
``.gitignore``. Every file says it is free to use (MIT).

``requirements.txt`` installs the extension (with the ``serve`` extra) and the theme, and must resolve as
written, here and on Read the Docs, which installs from a fresh clone of the site: sphinx-contributions is
not on PyPI yet, so by default its line is where this copy was installed from (``direct_url.json``, PEP
610). A wheel or sdist is copied into the site (``vendor/``, to be committed) and named by its path
relative to the site's root (``./vendor/NAME.whl[serve]``), which pip reads from the folder it runs in: the
site here, the clone's root on Read the Docs. A Git URL is kept with its commit; a source folder stays a
``file://`` URL, which resolves only on this machine (``init`` says so, and what to do). A copy installed
from a package index gives the released name (``sphinx-contributions[serve]>=VERSION``). ``--requirement``
sets it: a path (a wheel or sdist is vendored the same way), a Git URL or the released name.

In a terminal (standard input a TTY) it asks for what the options did not give; otherwise, or with
``--yes``, it takes the options and the defaults and reads nothing. It writes nothing when a file it
would write is already there.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import sys
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..settings import SETTINGS
from ..themes import THEMES
from ..write.title_page import shown_url
from .common import PROG, CommandError, UsageError, shown

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    import jinja2

DEFAULT_NAME = "Your Name"
DEFAULT_THEME = "furo"
_GITHUB_USER = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$")


@dataclass(frozen=True)
class Answers:
    name: str
    role: str
    github: str
    theme: str
    links: tuple[str, ...] = ()

    @property
    def profile_links(self) -> list[str]:
        github = [f"https://github.com/{self.github}"] if self.github else []
        return [*github, *self.links]


#: which names to write, said once by ``init`` (AUTHORING.md, "Adding write-ups to an existing site")
NAMES_NOTE = (
    "write-ups here use the short names ({pr}, :::{fix}); on a documentation site you share with other "
    "extensions, write the contrib: forms ({contrib:pr}, :::{contrib:fix}), which never collide"
)


def theme_name(text: str) -> str:
    """``pydata-sphinx-theme`` or ``pydata_sphinx_theme`` → ``pydata_sphinx_theme``; others refused."""
    name = text.strip().lower().replace("-", "_")
    if name not in THEMES:
        raise UsageError(f"{PROG} init: unknown theme {text!r}; choose one of {', '.join(THEMES)}")
    return name


def github_user(text: str) -> str:
    """A GitHub user name, as written (``ada``, ``@ada``) or as the profile's address
    (``https://github.com/ada``)."""
    user = text.strip().removeprefix("@")
    if profile := re.match(r"^(?:https?://)?(?:www\.)?github\.com/([^/?#]+)/?(?:[?#].*)?$", user, re.I):
        user = profile[1]
    if user and not _GITHUB_USER.match(user):
        raise UsageError(f"{PROG} init: {text!r} is not a GitHub user name (letters, digits and single hyphens)")
    return user


def profile_link(text: str) -> str:
    url = text.strip()
    if not re.match(r"^https?://[^\s/]+\.[^\s/]+", url):
        raise UsageError(f"{PROG} init: --link takes a web address (https://…); got {text!r}")
    return url


def slug(name: str) -> str:
    """The PDF's file name: ``Ada Lovelace`` → ``ada-lovelace``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "portfolio"


def ask(prompt: str, default: str, check: Callable[[str], str]) -> str:
    """One question on the terminal; Enter takes the default; an invalid answer is asked again."""
    while True:
        shown_default = f" [{default}]" if default else " (optional)"
        answer = input(f"{prompt}{shown_default}: ").strip() or default
        try:
            return check(answer)
        except UsageError as error:
            print(str(error).removeprefix(f"{PROG} init: "), file=sys.stderr)


def answers(args: argparse.Namespace) -> Answers:
    """The options, and in a terminal (without ``--yes``) the answers to what they left out."""
    name, role = (args.name or "").strip(), (args.role or "").strip()
    github = github_user(args.github or "")
    theme = theme_name(args.theme or DEFAULT_THEME)
    links = tuple(profile_link(url) for url in args.link or ())
    if sys.stdin is not None and sys.stdin.isatty() and not args.yes:
        if args.name is None:
            name = ask("Your name", DEFAULT_NAME, str.strip)
        if args.role is None:
            role = ask("Your role, one line (such as 'Backend engineer · Python')", "", str.strip)
        if args.github is None:
            github = ask("Your GitHub user name", "", github_user)
        if args.theme is None:
            theme = ask(f"Theme ({', '.join(THEMES)})", DEFAULT_THEME, theme_name)
    return Answers(name or DEFAULT_NAME, role, github, theme, links)


#: the extension's distribution, and the extra a site's requirements add (``contributions serve``)
DISTRIBUTION = "sphinx-contributions"
SITE_EXTRA = "serve"
_ARCHIVE = (".whl", ".tar.gz", ".zip")
_MACHINE_ONLY = (
    "; that resolves on this machine only: for Read the Docs, build a wheel there (python -m build) and give "
    "it to init (--requirement dist/….whl: init copies it into vendor/), give a Git URL it can reach "
    "(--requirement git+https://…), or the released name once sphinx-contributions is on PyPI"
)
#: what ``check`` says to do about such a line of an existing site's requirements.txt
MACHINE_ONLY_FIX = (
    ": Read the Docs installs from a clone of the site, where it is not; commit a wheel of it in vendor/ and "
    "write ./vendor/NAME.whl[serve], write a Git URL it can reach (sphinx-contributions[serve] @ "
    "git+https://…), or the released name once sphinx-contributions is on PyPI"
)
#: where a wheel or sdist goes in the site, committed with it: Read the Docs installs from the clone
VENDOR = "vendor"


@dataclass(frozen=True)
class SiteRequirement:
    """The extension's line in ``requirements.txt``, what ``init`` says about it, and the archive it
    copies into the site (``vendor/``) for that line to resolve from a clone."""

    line: str
    note: str
    vendored: Path | None = None

    @property
    def vendored_name(self) -> str | None:
        return f"{VENDOR}/{self.vendored.name}" if self.vendored else None


def machine_only(target: str, root: Path | None = None) -> bool:
    """Whether a requirement's URL or path resolves on this machine only (Read the Docs installs from a
    fresh clone): a ``file:`` URL; with the site's ``root``, also an absolute path, a path outside the site,
    or one to nothing there (``init`` and ``check`` ask this one rule)."""
    if target.startswith("file:"):
        return True
    if root is None or re.match(r"^[a-z][a-z0-9+.-]*://", target):
        return False
    path = Path(target.split("[", 1)[0]).expanduser()
    if path.is_absolute() or target.startswith("~"):
        return True
    found = (root / path).resolve()
    return not found.is_relative_to(root.resolve()) or not found.exists()


def machine_only_lines(root: Path) -> list[tuple[int, str]]:
    """(line number, line) of each line of the site's ``requirements.txt`` that installs the extension
    from where only this machine can: what ``contributions check`` refuses to call publishable."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        lines = (root / "requirements.txt").read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    found = []
    for number, text in enumerate(lines, start=1):
        line = re.sub(r"(^|\s)#.*$", "", text).strip()
        if not line or line.startswith("-"):
            continue
        try:
            wanted = Requirement(line)
        except InvalidRequirement:  # a path: ./vendor/sphinx_contributions-….whl[serve]
            name = Path(line.split("[", 1)[0]).name
            if canonicalize_name(re.split(r"-[0-9]", name, maxsplit=1)[0]) == DISTRIBUTION and machine_only(line, root):
                found.append((number, text.strip()))
            continue
        if canonicalize_name(wanted.name) == DISTRIBUTION and wanted.url and machine_only(wanted.url, root):
            found.append((number, text.strip()))
    return found


def _direct(url: str, origin: str) -> SiteRequirement:
    line = f"{DISTRIBUTION}[{SITE_EXTRA}] @ {url}"
    return SiteRequirement(
        line,
        f"requirements.txt installs sphinx-contributions from {url}, {origin}"
        + (_MACHINE_ONLY if machine_only(url) else ""),
    )


def _vendored(archive: Path, origin: str) -> SiteRequirement:
    """A wheel or sdist: copied into ``vendor/`` and named by that relative path (pip reads a path in a
    requirements file from the folder it runs in: the site's root here, the clone's root on Read the Docs;
    a ``file://`` URL or an absolute path resolves on this machine only)."""
    name = f"{VENDOR}/{archive.name}"
    return SiteRequirement(
        f"./{name}[{SITE_EXTRA}]",
        f"requirements.txt installs sphinx-contributions from {name}, a copy of {archive}, {origin}; commit "
        f"{VENDOR}/ with the site: Read the Docs installs it from the clone (once sphinx-contributions is on "
        f"PyPI: --requirement {DISTRIBUTION})",
        archive,
    )


def _archive_path(url: str) -> Path | None:
    """The local wheel or sdist a ``file://`` URL names, if it is one and it is there."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme != "file" or not parts.path.endswith(_ARCHIVE):
        return None
    path = Path(unquote(parts.path))
    return path if path.is_file() else None


def requirement_of(text: str) -> SiteRequirement:
    """``--requirement``: a Git URL (``git+https://…``; an ``https://`` address of a repository gets the
    ``git+``), the address of a wheel or sdist, a path to one or to a source folder, or a requirement on
    the released package (``sphinx-contributions``, ``sphinx-contributions==0.1.0``)."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    value = text.strip()
    given = "as given (--requirement)"
    if re.match(r"^[a-z]+\+[a-z]+://", value):  # git+https://, hg+https:// …
        return _direct(value, given)
    if re.match(r"^https?://", value):
        return _direct(value if value.endswith(_ARCHIVE) else f"git+{value}", given)
    path = Path(value).expanduser()
    if value and path.is_file() and path.name.endswith(_ARCHIVE):
        return _vendored(path.resolve(), given)
    if value and path.exists():
        return _direct(path.resolve().as_uri(), given)
    try:
        wanted = Requirement(value)
    except InvalidRequirement:
        wanted = None
    if wanted is None or canonicalize_name(wanted.name) != DISTRIBUTION:
        raise UsageError(
            f"{PROG} init: --requirement takes a path (a wheel, an sdist or a source folder), a Git URL "
            f"(git+https://…) or the released name ({DISTRIBUTION}, {DISTRIBUTION}==VERSION); got {text!r}"
        )
    extras = ",".join(sorted({*wanted.extras, SITE_EXTRA}))
    line = f"{DISTRIBUTION}[{extras}]{wanted.specifier}"
    if wanted.url:
        return _direct(wanted.url, given)
    if wanted.marker:
        line += f"; {wanted.marker}"
    return SiteRequirement(line, f"requirements.txt installs sphinx-contributions from PyPI: {line}")


def installed_requirement() -> SiteRequirement:
    """The default: where this copy of the extension came from (PEP 610's ``direct_url.json``), else,
    installed from a package index, the released name at this version or later."""
    from ..version import __version__

    for dist in metadata.distributions(name=DISTRIBUTION):  # a source folder's egg-info has none: skip it
        try:
            direct = json.loads(dist.read_text("direct_url.json") or "null")
        except ValueError:
            continue
        if not isinstance(direct, dict) or not isinstance(direct.get("url"), str):
            continue
        url, vcs = direct["url"], direct.get("vcs_info")
        if isinstance(vcs, dict) and vcs.get("vcs") and vcs.get("commit_id"):
            url = f"{vcs['vcs']}+{url}@{vcs['commit_id']}"
        origin = "where this copy was installed from (it is not on PyPI yet)"
        if archive := _archive_path(url):
            return _vendored(archive, origin)
        return _direct(url, origin)
    line = f"{DISTRIBUTION}[{SITE_EXTRA}]>={__version__}"
    return SiteRequirement(line, f"requirements.txt installs the released sphinx-contributions: {line}")


def install_step(theme: str) -> str:
    """The first of the next steps, and what it brings."""
    package = THEMES[theme]
    brings = f"sphinx-contributions, sphinx-autobuild (for serve) and {package}"
    if not package:
        brings = f"sphinx-contributions and sphinx-autobuild (for serve); {theme} comes with Sphinx"
    return f"pip install -r requirements.txt    # {brings}"


def scaffold_templates() -> dict[str, str]:
    """Each template's path in ``scaffold/`` → the path of the file it writes."""
    root = resources.files("sphinx_contributions") / "scaffold"
    found: dict[str, str] = {}

    def walk(folder: resources.abc.Traversable, prefix: str) -> None:
        for entry in sorted(folder.iterdir(), key=lambda item: item.name):
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".jinja"):
                target = entry.name.removesuffix(".jinja")
                target = "." + target.removeprefix("dot-") if target.startswith("dot-") else target
                found[f"{prefix}{entry.name}"] = prefix + target

    walk(root, "")
    return found


def environment() -> jinja2.Environment:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("sphinx_contributions", "scaffold"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,  # Python, Markdown and YAML, not HTML
    )
    # a Python literal for conf.py: JSON strings and lists of strings are valid Python, in double quotes
    env.filters["py"] = functools.partial(json.dumps, ensure_ascii=False)
    env.filters["shown_url"] = shown_url
    return env


def render(given: Answers, requirement: SiteRequirement) -> dict[str, str]:
    """The site's files: path → text."""
    from ..version import __version__

    context = {
        "requirement": requirement.line,
        "vendored": requirement.vendored_name or "",
        "filter_min": next(row.default for row in SETTINGS if row.name == "contributions_filter_min"),
        "name": given.name,
        "role": given.role,
        "github": given.github,
        "links": given.profile_links,
        "theme": given.theme,
        "theme_package": THEMES[given.theme],
        "slug": slug(given.name),
        "version": __version__,
    }
    env = environment()
    return {target: env.get_template(template).render(context) for template, target in scaffold_templates().items()}


def command_init(args: argparse.Namespace) -> int:
    folder = Path(args.dir).expanduser()
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{PROG} init: {args.dir!r} is a file, not a folder")
    given = answers(args)
    requirement = requirement_of(args.requirement) if args.requirement is not None else installed_requirement()
    files = render(given, requirement)
    vendored = requirement.vendored_name
    there = sorted(name for name in [*files, *([vendored] if vendored else [])] if (folder / name).exists())
    if there:
        raise CommandError(f"{PROG} init: {shown(folder)} already has {', '.join(there)}; nothing written")
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if requirement.vendored is not None and vendored is not None:
        (folder / VENDOR).mkdir(exist_ok=True)
        shutil.copyfile(requirement.vendored, folder / vendored)
    where = shown(folder)
    count = len(files) + (vendored is not None)
    print(f"wrote a portfolio site in {where} ({count} files): {given.name}, theme {given.theme}")
    print(requirement.note)
    print(NAMES_NOTE)
    go = "" if where == "." else f"cd {where}\n  "
    print(
        "next:\n"
        f"  {go}{install_step(given.theme)}\n"
        f"  {PROG} serve    # live preview on http://127.0.0.1:8000\n"
        f"  {PROG} new https://github.com/OWNER/REPO/pull/NUMBER   # your first write-up\n"
        f"  {PROG} check    # the strict build: exit 0 = would publish"
    )
    return 0


def add_init(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    init = commands.add_parser(
        "init",
        help="start a new portfolio site",
        description=(
            "Write a new portfolio site into DIR: conf.py, a home page with your profile and a cards listing, "
            "an about page, contributions/index.md with filters, a sample write-up (a draft), README.md, "
            "requirements.txt, .readthedocs.yaml (PDF and ePub), .pre-commit-config.yaml and .gitignore. It "
            "builds strictly as html, dirhtml, epub and PDF as written. In a terminal it asks for what the "
            "options leave out; otherwise (or with --yes) it takes the defaults. Nothing is overwritten."
        ),
        epilog=f"example: {PROG} init my-portfolio --name 'Ada Lovelace' --role 'Compiler engineer' --github ada --yes",
    )
    init.add_argument("dir", metavar="DIR", help="the folder to write the site into (made if missing)")
    init.add_argument("--name", help=f"your name: the site's title and author (default: {DEFAULT_NAME!r})")
    init.add_argument("--role", help="your role, one line, under your name (default: none)")
    init.add_argument("--github", metavar="USER", help="your GitHub user name, linked from the home page")
    init.add_argument(
        "--link",
        action="append",
        metavar="URL",
        help="another profile to link (GitLab, Codeberg, LinkedIn …); repeatable",
    )
    init.add_argument(
        "--theme", help=f"the HTML theme: {', '.join(THEMES)} (default: {DEFAULT_THEME}; install it with pip)"
    )
    init.add_argument(
        "--requirement",
        metavar="SPEC",
        help=(
            "where requirements.txt installs sphinx-contributions from: a path (a wheel or an sdist, copied "
            "into the site's vendor/ folder and named by that relative path, so that Read the Docs installs it "
            "from a clone; or a source folder), a Git URL (git+https://…) or the released name "
            "(sphinx-contributions==VERSION); default: where this copy was installed from, or the released "
            "name when it came from a package index"
        ),
    )
    init.add_argument("--yes", "-y", action="store_true", help="ask nothing: the options and the defaults")
    init.set_defaults(handler=command_init)
