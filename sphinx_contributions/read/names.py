"""Near misses of the extension's names: "did you mean" for a directive or role that no extension knows
and that is a typo (alike by :mod:`difflib`, see :func:`~.warnings.closest`) of one of the extension's.

MyST reports an unknown directive or role itself (``[myst.directive_unknown]``, ``[myst.role_unknown]``)
and drops what it held; this adds the name meant (``[contrib.unknown_name]``). A misspelt header
(``{contributon}``) makes the page no write-up: its sections, figures and ``{pr}`#N``` links would each
warn that they stand outside one, so the page is marked rejected the first time one of them asks
(:func:`misspelt_header`), and only the typo is reported. Option names are checked by the directives
themselves (:class:`~.directives.OptionsDirective`).

Pages are read with MyST's own block parser (:mod:`.sources`: the page's tokens, shared with the
structure checks), only when a quick look at the text finds a candidate: most pages cost one regular
expression.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docutils.parsers.rst.languages import en as rst_names
from sphinx.util.docutils import is_directive_registered, is_role_registered
from sphinx.util.logging import NAMESPACE, is_suppressed_warning

from ..keys import SECTION_NAMES
from ..warnings import closest
from .sources import DOMAIN, PageSource, bare_name, block_tokens, directive_name, page_being_read, source_lines

if TYPE_CHECKING:
    from collections.abc import Iterator

    from docutils import nodes
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


#: the extension's directives and roles, the names a typo is checked against
DIRECTIVES = ("contribution", *SECTION_NAMES, "metric", "contributions", "projects", "project")
ROLES = ("contrib", "pr", "issue", "export")

_FENCE_NAME = re.compile(r"^[ \t]*(?::{3,}|`{3,}|~{3,})[ \t]*\{(?P<name>[^{}\s]+)\}", re.M)
_ROLE_NAME = re.compile(r"\{(?P<name>[A-Za-z][\w+.:-]*)\}`")


@dataclass(frozen=True)
class NearMiss:
    """An unknown directive or role name in a page's source, and the extension's name it is a typo of."""

    kind: str  # "directive" or "role"
    name: str
    meant: str
    line: int
    #: the directive's opening line as written (``:::{contributon}``); "" for a role
    opening: str = ""

    @property
    def bare_meant(self) -> str:
        """The name meant, without the domain (``contrib:contribution`` → ``contribution``)."""
        return bare_name(self.meant)

    @property
    def message(self) -> str:
        if self.kind == "role":
            return (
                f"unknown role {self.name!r}: did you mean {self.meant!r}? Write '{{{self.meant}}}'; MyST leaves "
                "the text of an unknown role out of the page"
            )
        corrected = self.opening.replace(f"{{{self.name}}}", f"{{{self.meant}}}", 1)
        until = "; until then the page is not a write-up and is not listed" if self.bare_meant == "contribution" else ""
        return f"unknown directive {self.name!r}: did you mean {self.meant!r}? Write '{corrected}'{until}"


def _in_domains(env: BuildEnvironment, kind: str, name: str) -> bool:
    for domain_name in dict.fromkeys((env.config.primary_domain, "std")):
        if not domain_name:
            continue
        try:
            domain = env.domains[domain_name]
        except KeyError:
            continue
        if (domain.directive(name) if kind == "directive" else domain.role(name)) is not None:
            return True
    return False


def is_known(env: BuildEnvironment, kind: str, name: str) -> bool:
    """Whether some extension, docutils or a domain (``std``, the primary one) has this directive or role;
    a name with another domain (``py:function``) is taken as known, one of the ``contrib`` domain when that
    domain has it."""
    name = name.lower()
    if name.startswith(f"{DOMAIN}:"):
        domain = env.domains[DOMAIN]
        bare = bare_name(name)
        return bare in (domain.directives if kind == "directive" else domain.roles)  # not loaded to be named
    if ":" in name:
        return True
    # docutils' own names, as its English language module lists them (its registries are private)
    if kind == "directive":
        registered = is_directive_registered(name) or name in rst_names.directives
    else:
        registered = is_role_registered(name) or name in rst_names.roles
    return registered or _in_domains(env, kind, name)


def _meant(name: str, ours: tuple[str, ...]) -> str | None:
    """The extension's name that ``name`` is a typo of, in the form it was written (``contrib:…`` or bare)."""
    if name.startswith(f"{DOMAIN}:"):
        found = closest(bare_name(name), ours)
        return f"{DOMAIN}:{found}" if found is not None else None
    return closest(name, ours)


def _candidates(env: BuildEnvironment, text: str) -> bool:
    """Whether the text names an unknown directive or role near one of the extension's (a quick look)."""
    for pattern, kind, ours in ((_FENCE_NAME, "directive", DIRECTIVES), (_ROLE_NAME, "role", ROLES)):
        seen: set[str] = set()
        for match in pattern.finditer(text):
            name = match["name"]
            if name in seen:
                continue
            seen.add(name)
            # a known name (most are: another extension's, docutils') is no typo: asked first, it spares
            # the comparison with each of the extension's names
            if not is_known(env, kind, name) and _meant(name, ours) is not None:
                return True
    return False


_TICKS = re.compile(r"`+")
_LINE_END = re.compile(r"\r\n|\r|\n")


def _roles_in(text: str) -> Iterator[tuple[str, int]]:
    """(name, line offset) of every role in a paragraph's text: ``{name}`` right before a backtick, as
    MyST reads one, and not inside a code span (```:::{contributions}``` is code, no role). A role's own
    backticks are skipped as a code span is."""
    at = 0
    while (found := re.search(r"[{`]", text[at:])) is not None:
        at += found.start()
        role = _ROLE_NAME.match(text, at)
        if role is not None:
            yield role["name"], len(_LINE_END.findall(text, 0, at))
            at = role.end() - 1  # the backticks of its content, skipped as a code span below
        if text[at] != "`":
            at += 1
            continue
        run = _TICKS.match(text, at)
        assert run is not None
        closing = re.compile(rf"(?<!`){run[0]}(?!`)").search(text, run.end())
        at = closing.end() if closing is not None else run.end()


def _walk(
    text: str, md: MarkdownIt, first_line: int = 1, tokens: list[Token] | None = None
) -> Iterator[tuple[str, str, int, str]]:
    """(kind, name, line, opening) of every directive fence and every role in ``text`` (``tokens``: its
    block tokens, when already parsed), directive bodies included."""
    lines = source_lines(text)
    for token in block_tokens(text, md) if tokens is None else tokens:
        if token.map is None:
            continue
        start = token.map[0]
        if token.type == "inline":
            for role, offset in _roles_in(token.content):
                yield "role", role, first_line + start + offset, ""
            continue
        name = directive_name(token, bare=False)
        if name is None:
            continue
        yield "directive", name, first_line + start, lines[start].strip() if start < len(lines) else ""
        yield from _walk(token.content, md, first_line + start + 1)


def near_misses(env: BuildEnvironment, source: PageSource) -> list[NearMiss]:
    """Every near miss of the extension's names in a Markdown page, in page order."""
    text = source.text
    if "{" not in text or not _candidates(env, text):
        return []
    found = []
    for kind, name, line, opening in _walk(text, source.md, tokens=source.tokens):
        if is_known(env, kind, name):
            continue
        meant = _meant(name, DIRECTIVES if kind == "directive" else ROLES)
        if meant is not None:
            found.append(NearMiss(kind, name, meant, line, opening))
    return found


def taken_short_names(env: BuildEnvironment, source: PageSource, taken: frozenset[tuple[str, str]]) -> list[NearMiss]:
    """Each use in a Markdown page of a short name another extension holds on this site (``taken``:
    (kind, name)), in page order, as a near miss of the namespaced name (``{pr}`` → ``{contrib:pr}``)."""
    text = source.text
    if not taken or "{" not in text:
        return []
    return [
        NearMiss(kind, name, f"{DOMAIN}:{name}", line, opening)
        for kind, name, line, opening in _walk(text, source.md, tokens=source.tokens)
        if (kind, name) in taken
    ]


def misspelt_header(env: BuildEnvironment, document: nodes.document) -> bool:
    """Whether the page's header is misspelt (``{contributon}``): then the page is rejected, so that its
    sections, figures and links do not each warn that they stand outside a write-up (the typo itself is
    reported with the page's other near misses, :mod:`..check.structure`). Read once per page."""
    if "contrib_misspelt" not in document:
        source = Path(str(document.get("source") or ""))
        misspelt = False
        if dict(env.config.source_suffix).get(source.suffix) == "markdown":
            misspelt = any(m.bare_meant == "contribution" for m in near_misses(env, page_being_read(env)))
        document["contrib_misspelt"] = misspelt
        if misspelt:
            document["contrib_rejected"] = True
    return bool(document["contrib_misspelt"])


#: MyST's subtypes for an unknown name, by the kind of name
_MYST_UNKNOWN = {"directive_unknown": "directive", "role_unknown": "role"}
#: MyST's warning for a ``#`` comment in a directive's options, and the directive it names
_MYST_COMMENTS = "directive_comments"
_COMMENTED = re.compile(r"^'(?P<name>[^']+)': ")
#: the extension's directives that report each ``#`` comment in their options themselves
_REPORTING = ("contribution", "metric", "contributions", "project")


class OneWarningPerTypo(logging.Filter):
    """Drops MyST's ``Unknown directive type`` (``Unknown interpreted text role``) where the name is a typo
    of one of the extension's, which :func:`~..check.structure.check_names` reports with the name meant,
    and MyST's "Directive options has # comments" for the extension's directives, which report each ``#``
    at its option themselves (:meth:`.directives.OptionsDirective.warn_lost_comments`): one warning for one
    mistake. MyST's stays where the extension's is silenced (``suppress_warnings``)."""

    def __init__(self, app: Sphinx) -> None:
        super().__init__()
        self.app = app

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "type", None) == "myst" and getattr(record, "subtype", None) == _MYST_COMMENTS:
            named = _COMMENTED.match(record.getMessage())
            ours = named is not None and bare_name(named["name"]) in _REPORTING
            settings = getattr(getattr(self.app, "config", None), "suppress_warnings", [])
            return not ours or is_suppressed_warning("contrib", "bad_option", settings)
        kind = _MYST_UNKNOWN.get(getattr(record, "subtype", None) or "")
        location = getattr(record, "location", None)
        if kind is None or getattr(record, "type", None) != "myst" or not isinstance(location, tuple):
            return True
        env = getattr(self.app, "env", None)
        if env is None or location[0] != env.current_document.docname:
            return True
        if is_suppressed_warning("contrib", "unknown_name", self.app.config.suppress_warnings):
            return True
        misses = near_misses(env, page_being_read(env))
        return not any(miss.kind == kind and miss.line == location[1] for miss in misses)


def install_typo_filter(app: Sphinx) -> None:
    """``builder-inited``: :class:`OneWarningPerTypo` on the logger MyST warns through (a parallel
    reader, forked, has it too)."""
    from myst_parser import warnings_  # MyST logs through getLogger(__name__) of this module

    logger = logging.getLogger(f"{NAMESPACE}.{warnings_.__name__}")
    logger.filters = [f for f in logger.filters if not isinstance(f, OneWarningPerTypo)] + [OneWarningPerTypo(app)]
