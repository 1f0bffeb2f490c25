"""``contributions serve``: the live preview, drafts included, into ``_build/serve``: each save rebuilds the
pages it touched and reloads the browser. Not strict: the warnings show in the terminal and on the served pages
(``contributions check`` is the strict build). It needs sphinx-autobuild (the ``serve`` extra, which the
``requirements.txt`` of ``contributions init`` installs): its server and live reload serve the pages.

By default the builds run in the serving process, which keeps everything imported (:mod:`.preview`);
``--cold`` runs sphinx-autobuild itself, which starts a new ``python -m sphinx`` for each save.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..forges.cache import CACHE_DIR
from .common import PROG, CommandError, site_root

if TYPE_CHECKING:
    import argparse


def install_command() -> str:
    """``pip install 'sphinx-autobuild<2026,>=2025.8.25'``: what the ``serve`` extra brings, as this copy's
    metadata says (it resolves before sphinx-contributions is on PyPI; the extra's name would not)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    try:
        wanted = [Requirement(line) for line in metadata.requires("sphinx-contributions") or ()]
    except (metadata.PackageNotFoundError, ValueError):
        wanted = []
    for requirement in wanted:
        if requirement.name == "sphinx-autobuild" and requirement.marker and "serve" in str(requirement.marker):
            return f"pip install '{requirement.name}{requirement.specifier}'"
    return "pip install sphinx-autobuild"


#: what a rebuild does not watch: the output, environments, version control, and ``sync``'s cache of
#: the forges' answers (``.contributions-cache/``, which no page reads: before, each ``sync`` rebuilt)
IGNORED = rf"(^|/)(_build|\.venv|venv|\.git|node_modules|__pycache__|{re.escape(CACHE_DIR)})(/|$)"


def autobuild_command(root: Path, host: str, port: int) -> list[str]:
    """The sphinx-autobuild command line for the site at ``root``."""
    build = root / "_build"
    return [
        sys.executable,
        "-m",
        "sphinx_autobuild",
        "--host",
        host,
        "--port",
        str(port),
        "--re-ignore",
        IGNORED,
        "-D",
        "contributions_include_drafts=1",
        "-d",
        str(build / "serve-doctrees"),
        str(root),
        str(build / "serve"),
    ]


def port_free(host: str, port: int) -> None:
    """Refuse a port that another server holds, before anything is built or said: sphinx-autobuild would
    build the site, print "Serving on …", and only then fail with "address already in use"."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise CommandError(f"{PROG} serve: cannot serve on {host!r}: {error.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds it
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise CommandError(
                    f"{PROG} serve: port {port} on {host} is in use (another preview?); stop that server or "
                    f"choose another port: {PROG} serve --port {port + 1}"
                ) from None
            raise CommandError(f"{PROG} serve: cannot serve on {host}:{port}: {error.strerror}") from None


def command_serve(args: argparse.Namespace) -> int:
    root = site_root(args.root, "serve")
    if importlib.util.find_spec("sphinx_autobuild") is None:
        raise CommandError(
            f"{PROG} serve: the live preview needs sphinx-autobuild, which is not installed; "
            f"install it with: {install_command()}"
        )
    port_free(args.host, args.port)
    print(f"preview on http://{args.host}:{args.port}/ with drafts, rebuilt on every save (stop it with Ctrl-C)")
    sys.stdout.flush()
    if not args.cold:
        from .preview import run_warm

        again = [sys.executable, "-m", "sphinx_contributions", "serve", "--root", str(root.resolve())]
        run_warm(root, args.host, args.port, [*again, "--host", args.host, "--port", str(args.port)], IGNORED)
        return 0
    # sphinx-autobuild takes this process's place: a signal that stops the command stops the server
    command = autobuild_command(root, args.host, args.port)
    os.chdir(root)
    os.execv(command[0], command)


def add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser(
        "serve",
        help="preview the site live, drafts included",
        description=(
            "Build the site with its drafts into _build/serve and serve it on http://127.0.0.1:8000 "
            "(sphinx-autobuild's server, the serve extra): each save rebuilds in this process and reloads the "
            "browser, and a line says what was read and written. Not strict: warnings show here and on the "
            f"pages; '{PROG} check' is the strict build."
        ),
    )
    serve.add_argument(
        "--root", default=".", metavar="DIR", help="the site's folder, the one holding conf.py (default: .)"
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to serve on (default: 127.0.0.1)")
    serve.add_argument("--port", default=8000, type=int, help="the port (default: 8000)")
    serve.add_argument(
        "--cold",
        action="store_true",
        help="run sphinx-autobuild itself: a new 'python -m sphinx' process for each save (slower)",
    )
    serve.set_defaults(handler=command_serve)
