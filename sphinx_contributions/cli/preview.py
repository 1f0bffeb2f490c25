"""The warm preview of ``contributions serve``: one process that keeps Sphinx, the theme and the extensions
imported, builds in that process on each save, and serves the output with sphinx-autobuild's own server and
live reload.

sphinx-autobuild starts ``python -m sphinx`` for every save: Python, Sphinx, MyST, the theme and the
extensions are imported again and the environment unpickled before the one changed page is read (about as
long as the build itself on a small site). Here each save makes a new :class:`~sphinx.application.Sphinx`
application in this process, wrapped as ``sphinx-build`` wraps its one build (:func:`build_once`):
``patch_docutils`` and ``docutils_namespace`` save docutils' global registries and restore them when the
build ends, and ``sys.path`` (which a ``conf.py`` often extends) is restored too. So each build starts from
what the last one left on disk (the pickled environment, the output folder), exactly as a new process's
would, and nothing of it stays in memory.

What a warm process cannot see, it does not guess:

- ``conf.py`` saved: the build starts a fresh environment (``sphinx-build -E``), since a ``conf.py`` can
  change what Sphinx does not compare (a function it connects, a file it reads).
- a module this process has imported changed on disk (an extension upgraded, a site's own extension
  edited): the process starts again (``exec``) and the next build imports the new code, as a new process
  would. The browser's page then reloads by hand once.

A build that stops (a ``conf.py`` that does not run, an extension that crashes) prints one line; the server
keeps serving the last output with the error in a box at the foot of every page (and a request that comes
during a build waits for its end), and the next save builds again.
The warnings of the last build show the same way, from the build's report (:mod:`..write.report`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .sphinx_process import exception_line

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from starlette.types import ASGIApp, Receive, Scope, Send

#: how many names a terminal line shows of a list before "… and N more"
SHOWN_NAMES = 5


@dataclass
class Outcome:
    """What one build did: the pages it read and wrote, its time, and why it stopped (or "")."""

    read: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stopped: str = ""
    details: str = ""
    warnings: list[dict[str, Any]] = field(default_factory=list)


def names(items: Sequence[str]) -> str:
    """``3 (a, b, c)``, or ``9 (a, b, c, d, e and 4 more)``."""
    if not items:
        return "0"
    shown = ", ".join(items[:SHOWN_NAMES])
    more = f" and {len(items) - SHOWN_NAMES} more" if len(items) > SHOWN_NAMES else ""
    return f"{len(items)} ({shown}{more})"


def build_once(root: Path, outdir: Path, doctreedir: Path, overrides: dict[str, Any], *, fresh: bool) -> Outcome:
    """One HTML build of the site at ``root`` in this process, as ``sphinx-build`` runs one
    (:func:`sphinx.cmd.build.build_main`): not strict, Sphinx's progress left out, warnings on stderr."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    from ..write.report import read_report, report_path

    outcome = Outcome()
    start = time.perf_counter()
    saved_path = sys.path[:]
    app: Sphinx | None = None
    try:
        with patch_docutils(root), docutils_namespace():
            app = Sphinx(
                srcdir=root,
                confdir=root,
                outdir=outdir,
                doctreedir=doctreedir,
                buildername="html",
                confoverrides=overrides,
                status=None,
                warning=sys.stderr,
                freshenv=fresh,
            )
            # last, to see the list as the other handlers left it
            app.connect("env-before-read-docs", lambda app, env, docnames: outcome.read.extend(docnames), 1000)
            app.connect("html-page-context", lambda app, pagename, *rest: outcome.written.append(pagename), 1000)
            app.build()
    except Exception as error:  # the build stopped: said, shown, and the next save builds again
        outcome.stopped = exception_line(error)
        outcome.details = "".join(traceback.format_exception(error))
    else:
        report = read_report(report_path(doctreedir, "html"))
        outcome.warnings = list(report["warnings"]) if report else []
    finally:
        sys.path[:] = saved_path
        forget_checksums()
        app = None  # the application is let go before children are looked for
        release_children()
    outcome.seconds = time.perf_counter() - start
    return outcome


def release_children() -> None:
    """Let the processes a build started go: sphinx-sitemap starts a ``multiprocessing`` manager (a process)
    in each build, stopped only when the application that holds it is collected, and an application is
    held in reference cycles, which only a full collection frees: without one, a process stayed per save
    (with one, the last build's at most). A full collection takes about 0.1 s: only when such a process is
    alive."""
    import gc
    import multiprocessing

    if multiprocessing.active_children():
        gc.collect()


def forget_checksums() -> None:
    """Sphinx keeps each output asset's checksum (``portfolio.css?v=…``) for the life of the process
    (``functools.cache`` on the file's path, ``sphinx.builders.html._assets``): a warm process forgets
    them after each build, or an edited stylesheet keeps its first checksum in every page."""
    try:
        from sphinx.builders.html import _assets
    except ImportError:  # a Sphinx without that module: nothing kept there
        return
    cached = getattr(_assets, "_file_checksum_inner", None)
    if callable(getattr(cached, "cache_clear", None)):
        cached.cache_clear()  # type: ignore[union-attr]


def module_files() -> set[str]:
    """The file of each imported module."""
    return {path for module in list(sys.modules.values()) if isinstance(path := getattr(module, "__file__", None), str)}


class WarmBuilder:
    """sphinx-autobuild's builder callable (``builder(changed_paths=…)``), building in this process."""

    def __init__(
        self, root: Path, outdir: Path, doctreedir: Path, overrides: dict[str, Any], restart: Callable[[str], None]
    ) -> None:
        self.root, self.outdir, self.doctreedir, self.overrides = root, outdir, doctreedir, overrides
        self.restart = restart
        self.last = Outcome()
        self.imported: dict[str, int] = {}

    def changed_code(self) -> str | None:
        """The first module file imported here that changed on disk since it was imported, or None."""
        for path, mtime in self.imported.items():
            try:
                if os.stat(path).st_mtime_ns != mtime:
                    return path
            except OSError:
                return path
        return None

    def shown(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def __call__(self, *, changed_paths: Sequence[Path]) -> None:
        changed = [self.shown(Path(path)) for path in changed_paths]
        said = ", ".join(changed[:SHOWN_NAMES])
        said += f" and {len(changed) - SHOWN_NAMES} more" if len(changed) > SHOWN_NAMES else ""
        code = self.changed_code()
        if code is not None:
            print(f"{said}: {self.shown(Path(code))} changed since it was imported: starting again", flush=True)
            self.restart(code)
            return
        fresh = "conf.py" in changed
        outcome = build_once(self.root, self.outdir, self.doctreedir, self.overrides, fresh=fresh)
        self.last = outcome
        for path in module_files() - self.imported.keys():  # what this build imported for the first time
            try:
                self.imported[path] = os.stat(path).st_mtime_ns
            except OSError:
                continue
        head = f"{said}: " if changed else "first build: "
        if fresh:
            head += "a fresh environment (conf.py); "
        if outcome.stopped:
            line = f"{head}the build stopped after {outcome.seconds:.2f} s: {outcome.stopped}"
            line += " (the pages served are the last build's; save again to rebuild)"
        else:
            line = f"{head}read {names(outcome.read)}, wrote {names(outcome.written)} in {outcome.seconds:.2f} s"
            if outcome.warnings:
                line += f", {len(outcome.warnings)} warning(s)"
        print(line, flush=True)


def banner(outcome: Outcome) -> str:
    """The last build's failure or warnings, as a box at the foot of every served page; "" when clean."""
    from markupsafe import escape

    if outcome.stopped:
        title = "The last build stopped; these pages are from the build before it."
        body = f"<p>{escape(outcome.stopped)}</p><details><summary>Traceback</summary>"
        body += f"<pre>{escape(outcome.details)}</pre></details>"
    elif outcome.warnings:
        title = f"The last build warned ({len(outcome.warnings)})."
        lines = []
        for warning in outcome.warnings:
            place = ":".join(str(part) for part in (warning.get("path"), warning.get("line")) if part)
            kind = f" [{warning['type']}]" if warning.get("type") else ""
            lines.append(f"<li>{escape(place)}: {escape(warning.get('message', ''))}{escape(kind)}</li>")
        body = f"<ul>{''.join(lines)}</ul>"
    else:
        return ""
    style = (
        "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;max-height:40vh;overflow:auto;margin:0;"
        "padding:.75rem 1rem;background:#fff4e5;color:#1f1f1f;border-top:3px solid #b45309;"
        "font:14px/1.45 system-ui,sans-serif;white-space:normal"
    )
    return (
        f'<div id="contributions-preview" role="alert" style="{style}">'
        f"<strong>contributions serve: {escape(title)}</strong>{body}</div>"
    )


class ShowLastBuild:
    """sphinx-autobuild's middleware, which adds its reload script to each HTML page, given the last
    build's :func:`banner` too (taken once per request). A request that comes during a build waits for
    its end: no page is served half-written, or from two builds."""

    def __init__(self, app: ASGIApp, ws_url: str, builder: WarmBuilder, watcher: Any) -> None:
        self.app, self.ws_url, self.builder, self.watcher = app, ws_url, builder, watcher

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from sphinx_autobuild.middleware import JavascriptInjectorMiddleware  # type: ignore[import-untyped]

        if scope["type"] == "http":
            await self.watcher.idle.wait()
        injector = JavascriptInjectorMiddleware(self.app, self.ws_url)
        injector.script += banner(self.builder.last).encode("utf-8")
        await injector(scope, receive, send)


def transient(changes: set[tuple[Any, str]]) -> set[Path]:
    """Files made and removed within one batch of changes (an editor's or ``sed -i``'s temporary file)."""
    from watchfiles import Change

    made = {path for kind, path in changes if kind == Change.added}
    gone = {path for kind, path in changes if kind == Change.deleted}
    return {Path(path).resolve() for path in made & gone if not os.path.lexists(path)}


def warm_server_class(ready: str) -> type:
    """sphinx-autobuild's :class:`~sphinx_autobuild.server.RebuildServer`, calling the builder in this
    process (a thread, so the server's loop goes on) rather than in a new process pool; it prints ``ready``
    when it starts watching."""
    import watchfiles
    from sphinx_autobuild.server import RebuildServer  # type: ignore[import-untyped]

    class WarmServer(RebuildServer):  # type: ignore[misc]
        def __init__(self, *args: Any, **options: Any) -> None:
            super().__init__(*args, **options)
            self.idle = asyncio.Event()  # no build running (set and cleared in the server's event loop)
            self.idle.set()

        async def watch(self) -> None:
            print(ready, flush=True)  # when the server starts (its lifespan), watching from now on
            async for changes in watchfiles.awatch(*self.paths, watch_filter=lambda _, path: not self.ignore(path)):
                changed = sorted({Path(path).resolve() for _, path in changes} - transient(changes))
                if not changed:
                    continue
                self.idle.clear()
                try:
                    await asyncio.to_thread(self.change_callback, changed_paths=changed)
                finally:
                    self.idle.set()
                self.flag.set()

    return WarmServer


def run_warm(root: Path, host: str, port: int, restart_argv: list[str], ignored: str) -> None:
    """Build the site at ``root`` once, then serve it on ``host:port`` and build again on every save of a
    file whose path ``ignored`` (a regular expression) does not match."""
    import uvicorn
    from sphinx.util.console import color_terminal, nocolor
    from sphinx_autobuild.filter import IgnoreFilter  # type: ignore[import-untyped]
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount, WebSocketRoute
    from starlette.staticfiles import StaticFiles

    # a package may configure the root logger at import (accessible-pygments, furo's: INFO), which would
    # print each batch of changes watchfiles sees
    logging.getLogger("watchfiles").setLevel(logging.WARNING)
    if not color_terminal():  # as sphinx-build does
        nocolor()
    root = root.resolve()
    build = root / "_build"
    outdir, doctreedir = build / "serve", build / "serve-doctrees"
    outdir.mkdir(parents=True, exist_ok=True)

    def restart(_changed: str) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(sys.executable, restart_argv)

    builder = WarmBuilder(root, outdir, doctreedir, {"contributions_include_drafts": "1"}, restart)
    builder(changed_paths=())
    url_host = f"{host}:{port}"
    ready = f"serving on http://{url_host}/; waiting for changes"
    watcher = warm_server_class(ready)([root], IgnoreFilter([outdir, doctreedir], [ignored]), builder)
    app = Starlette(
        routes=[
            WebSocketRoute("/websocket-reload", watcher, name="reload"),
            Mount("/", app=StaticFiles(directory=outdir, html=True), name="static"),
        ],
        middleware=[Middleware(ShowLastBuild, ws_url=url_host, builder=builder, watcher=watcher)],
        lifespan=watcher.lifespan,
    )
    uvicorn.run(app, host=host, port=port, log_level="warning")
