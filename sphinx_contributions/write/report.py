"""The build's report: one JSON file per builder, ``contributions-report.<builder>.json``, written when the
build ends, for every builder, into the doctree folder: ``_build/doctrees/`` for ``make html``, Sphinx's
default ``<output>/.doctrees/`` for ``sphinx-build -b html . _build/html``. That is the one folder that is
never in the source folder, whatever the command line, and that sphinx-autobuild never watches (it ignores
its output folder and the ``-d`` folder): a report written beside the output folder landed in the watched
source tree (``_build/``, or the site's own folder for ``sphinx-build -b html . _build``), and each build's
report started the next build. It is written only when its bytes change, so a watcher that does see it
(a wider ``--watch``) sees one change per change.

It holds what the build collected and every warning it showed:

- ``records``: each contribution (key, page, source path, title, state, sections written, metrics as in
  ``contributions.json``, and whether it owns its key);
- ``drafts``: the drafts the build left out (key and page);
- ``warnings``: each warning as shown, after ``suppress_warnings``: its page (docname, or null), source
  path (relative to the site's folder when inside it), line, level, ``type.subtype`` and message.

The same sources give the same bytes: lists are sorted and paths relative. ``contributions check``
reads it (:mod:`.cli`), and the next build of the same builder reads which pages warned, to read them
again (:mod:`.fixes.lasting_warnings`).

Warnings are taken from Sphinx's own warning handler: a filter added last to it sees each warning as it
is shown, whatever logged it (the extension, MyST, Sphinx, docutils).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util.logging import NAMESPACE, WarningStreamHandler

from ..collect.domain import get_domain
from ..files import read_json, write_whole

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: bump when a field changes meaning or disappears; adding a field keeps the version
REPORT_VERSION = 1


def report_path(doctreedir: str | os.PathLike[str], builder: str) -> Path:
    """Where the build with ``builder`` writes its report: the doctree folder."""
    return Path(doctreedir).absolute() / f"contributions-report.{builder}.json"


def write_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` (whole, :func:`.files.write_whole`) unless the file already holds these
    bytes; whether it wrote."""
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_whole(path, data)
    return True


@dataclass(frozen=True)
class ShownWarning:
    """One warning as the build showed it."""

    page: str | None
    path: str | None
    line: int | None
    level: str
    type: str | None  # "contrib.bad_metric", "myst.xref_missing", "toc" …
    message: str

    def sort_key(self) -> tuple[str, int, str, str, str]:
        return (self.path or "", self.line or 0, self.type or "", self.message, self.level)

    def as_json(self) -> dict[str, Any]:
        return {
            "page": self.page,
            "path": self.path,
            "line": self.line,
            "level": self.level,
            "type": self.type,
            "message": self.message,
        }


def record_message(record: logging.LogRecord) -> str:
    """The message of a log record with its arguments, without Sphinx's location prefix."""
    message = str(record.msg)
    if record.args:
        with contextlib.suppress(TypeError, ValueError):
            message = message % record.args
    return message


def _split_location(location: object) -> tuple[str | None, int | None]:
    """Sphinx's shown location (``path:line``, ``path:``, ``path``, ``<unknown>:line``) → (path, line)."""
    if not location:
        return None, None
    text = str(location)
    path, colon, tail = text.rpartition(":")
    if colon and (tail.isdigit() or not tail):
        return path or None, int(tail) if tail else None
    return text, None


class ShownWarnings(logging.Filter):
    """The last filter on Sphinx's warning handler: it keeps every warning that is shown (the filters
    before it drop suppressed ones and turn locations into ``path:line``), and lets each one through."""

    def __init__(self, app: Sphinx) -> None:
        super().__init__()
        self.app = app
        self.shown: list[ShownWarning] = []
        self._places: dict[tuple[int, str], tuple[str | None, str]] = {}

    def install(self) -> None:
        for handler in logging.getLogger(NAMESPACE).handlers:
            if isinstance(handler, WarningStreamHandler) and self not in handler.filters:
                handler.addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            self.shown.append(self.entry(record))
        except Exception:  # a warning is shown even if it cannot be understood here
            self.shown.append(ShownWarning(None, None, None, record.levelname, None, str(record.msg)))
        return True

    def entry(self, record: logging.LogRecord) -> ShownWarning:
        message = record_message(record)
        kind = getattr(record, "type", None) or None
        subtype = getattr(record, "subtype", None) or None
        kind = f"{kind}.{subtype}" if kind and subtype else kind
        if kind:  # show_warning_types (Sphinx's default) appended it to the message
            message = message.removesuffix(f" [{kind}]")
        path, line = _split_location(getattr(record, "location", None))
        page = None
        if path is not None:
            page, path = self.place(path)
        return ShownWarning(page, path, line, record.levelname, kind, message)

    def place(self, path: str) -> tuple[str | None, str]:
        """A shown path's page and its path relative to the site's folder, worked out once per path and
        environment (a site warns many times from one file; each time resolved two paths)."""
        env = getattr(self.app, "env", None)
        key = (id(env), path)
        found = self._places.get(key)
        if found is None:
            # a warning of the settings (conf.py) comes before there is an environment
            page = env.path2doc(path) if env is not None else None
            relative = path
            with contextlib.suppress(ValueError, OSError):
                relative = Path(path).resolve().relative_to(Path(self.app.srcdir).resolve()).as_posix()
            found = self._places[key] = (page, relative)
        return found

    def take(self) -> list[ShownWarning]:
        """This build's warnings, sorted; and start afresh for the next build of this application."""
        shown, self.shown = self.shown, []
        self._places.clear()
        return sorted(shown, key=ShownWarning.sort_key)


def report(app: Sphinx, warnings: list[ShownWarning]) -> dict[str, Any]:
    env = app.env
    domain = get_domain(env)
    records = []
    for docname in sorted(domain.contributions):
        record = domain.contributions[docname]
        records.append(
            {
                "key": record.key,
                "docname": docname,
                "path": env.doc2path(docname, False).as_posix(),
                "title": record.title,
                "status": record.status,
                "published": domain.by_key(record.key) is record,
                "sections": list(record.sections),
                "metrics": [metric.as_json() for metric in record.metrics],
            }
        )
    drafts = domain.draft_keys or {}
    return {
        "version": REPORT_VERSION,
        "builder": app.builder.name,
        "records": records,
        "drafts": [{"key": key, "docname": docname} for key, docname in sorted(drafts.items())],
        "warnings": [warning.as_json() for warning in warnings],
    }


def read_report(path: Path) -> dict[str, Any] | None:
    """A report as written, or None when there is none (or it cannot be read)."""
    data = read_json(path)
    return data if isinstance(data, dict) and data.get("version") == REPORT_VERSION else None


def shown_warnings(app: Sphinx) -> ShownWarnings:
    """This application's collector of shown warnings, on Sphinx's warning handlers."""
    for handler in logging.getLogger(NAMESPACE).handlers:
        for found in handler.filters:
            if isinstance(found, ShownWarnings) and found.app is app:
                return found
    collector = ShownWarnings(app)
    collector.install()
    return collector


def setup_report(app: Sphinx) -> None:
    """At setup: warnings shown while the site's settings are read are the build's too."""
    shown_warnings(app)


def write_report(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``, after the handlers whose warnings belong in it: the report of this build."""
    warnings = shown_warnings(app).take()
    if exception is not None:
        return
    text = json.dumps(report(app, warnings), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    write_changed(report_path(app.doctreedir, app.builder.name), text)
