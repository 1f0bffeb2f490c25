"""The build's report, ``contributions-report.<builder>.json``, in the doctree folder (never watched by
sphinx-autobuild): the records, the drafts left out and every warning shown."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass
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
    """Write ``text`` to ``path`` whole unless it holds these bytes already; whether it wrote."""
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
    """The last filter on Sphinx's warning handler: it notes every warning shown and lets it through."""

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
        """A shown path's page and site-relative path, worked out once per path."""
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
        return sorted(shown, key=lambda w: (w.path or "", w.line or 0, w.type or "", w.message, w.level))


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
        "warnings": [asdict(warning) for warning in warnings],
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
