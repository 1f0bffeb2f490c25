"""Sphinx shows a page's warnings only in the build that reads it: a page that warned is read again until it no longer
warns (the extension's warnings always, others with ``contributions_lasting_warnings``).

Workaround ``lasting_warnings``: sphinx ``>=7.4,<10``; upstream: no upstream issue found."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.build_phase import BuildPhase
from sphinx.util.logging import NAMESPACE, get_node_location, is_suppressed_warning

from ...collect.domain import get_domain
from ...compat import build_phase, current_docname, needed
from ..report import read_report, record_message, report_path

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: the domain data key: docname → the warnings logged while that page was read
DATA_KEY = "warnings"
#: the type of the extension's own warnings (``contrib.<subtype>``), kept whatever the setting
OWN_TYPE = "contrib"


def lasting(app: Sphinx, kind: str | None) -> bool:
    """Whether a warning of ``type.subtype`` ``kind`` makes its page be read again on the next build."""
    own = kind is not None and (kind == OWN_TYPE or kind.startswith(OWN_TYPE + "."))
    return own or bool(app.config.contributions_lasting_warnings)


@dataclass(frozen=True)
class PageWarning:
    """A warning logged while a page was read: where (as logged), its ``type.subtype`` and message."""

    location: str | None
    type: str | None
    message: str


class PageWarnings(logging.Handler):
    """Notes, under the page being read, each warning logged while it is read (not suppressed)."""

    def __init__(self, app: Sphinx) -> None:
        super().__init__(logging.WARNING)
        self.app = app

    def install(self) -> None:
        """On Sphinx's logger; again in each parallel reader, which starts with no handler of its own."""
        logger = logging.getLogger(NAMESPACE)
        if self not in logger.handlers:
            logger.addHandler(self)

    def uninstall(self) -> None:
        logging.getLogger(NAMESPACE).removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        app = self.app
        env = getattr(app, "env", None)
        builder = getattr(app, "builder", None)
        # reading only: resolving a page later sets the same "current document" for a while
        if env is None or builder is None or build_phase(app) != BuildPhase.READING:
            return
        docname = current_docname(env)
        if not docname:
            return
        kind, subtype = getattr(record, "type", None) or "", getattr(record, "subtype", None) or ""
        if not lasting(app, kind) or is_suppressed_warning(kind, subtype, app.config.suppress_warnings):
            return
        location = getattr(record, "location", None)
        if isinstance(location, nodes.Node):
            location = get_node_location(location)
        elif isinstance(location, tuple):
            location = f"{location[0]}:{location[1] or ''}"
        kind = f"{kind}.{subtype}" if subtype else kind
        warning = PageWarning(None if location is None else str(location), kind or None, record_message(record))
        get_domain(env).data.setdefault(DATA_KEY, {}).setdefault(docname, []).append(warning)


def including_pages(env: BuildEnvironment, path: str) -> set[str]:
    """The pages that include the file at ``path`` (a snippet left out of the build is no page)."""
    wanted = (env.srcdir / path).resolve()
    return {
        docname
        for docname, files in env.dependencies.items()
        if any((env.srcdir / file).resolve() == wanted for file in files)
    }


def pages_that_warned(app: Sphinx, env: BuildEnvironment) -> set[str]:
    """The pages whose reading warned, and those the last report's lasting warnings name."""
    pages = set(get_domain(env).data.get(DATA_KEY, {}))
    last = read_report(report_path(app.doctreedir, app.builder.name))
    for warning in last.get("warnings", ()) if last is not None else ():
        if not isinstance(warning, dict) or not lasting(app, warning.get("type")):
            continue
        if warning.get("page") in env.found_docs:
            pages.add(warning["page"])
        elif isinstance(warning.get("path"), str):  # not a page of the build: a file pages include
            pages.update(including_pages(env, warning["path"]))
    return pages


def read_again(app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]) -> list[str]:
    """``env-get-outdated``: the pages that warned in the last build are read again."""
    if not needed("lasting_warnings"):
        return []
    return sorted((pages_that_warned(app, env) & env.found_docs) - set(added) - set(removed) - set(changed))


def page_warnings(app: Sphinx) -> PageWarnings:
    """This application's handler of the warnings logged while pages are read."""
    for handler in logging.getLogger(NAMESPACE).handlers:
        if isinstance(handler, PageWarnings) and handler.app is app:
            return handler
    return PageWarnings(app)


def install(app: Sphinx, *args: object) -> None:
    """At setup, ``env-before-read-docs`` and ``source-read`` (a parallel reader starts without it): the handler on."""
    page_warnings(app).install()


def uninstall_when_done(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, late: the handler leaves Sphinx's logger with the build."""
    page_warnings(app).uninstall()
