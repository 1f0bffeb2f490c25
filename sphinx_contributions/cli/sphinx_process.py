"""Sphinx in a subprocess, for the ``contributions`` command: ``python -m sphinx_contributions.cli.sphinx_process
STOPPED.json SPHINX-ARGS…`` runs ``python -m sphinx SPHINX-ARGS…`` and, when Sphinx stops on an exception
(a syntax error in ``conf.py``, a theme or extension that is not installed, a crash), writes that
exception to ``STOPPED.json``: its class, its own message and the full traceback. The command shows the
exception's line rather than Sphinx's last one ("Please also report this if it was a user error…").

Sphinx catches the exception itself and hands it to ``sphinx._cli.util.errors.handle_exception`` (Sphinx 9),
which prints the long report and saves the traceback in a file under /tmp; the wrapper records the exception
there and prints the traceback instead, so that no file outlives the command. That module is private: where
a later Sphinx moves the function, the wrapper says so on stderr in a ``[contrib.compat]`` line (shown with
``CONTRIBUTIONS_DEBUG=1``), nothing is recorded, and the command falls back to Sphinx's last line.
"""

from __future__ import annotations

import importlib
import json
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import read_json

if TYPE_CHECKING:
    from collections.abc import Sequence


def exception_line(exception: BaseException) -> str:
    """``ConfigError: There is a syntax error in your configuration file: …``: the class and the first
    line of its message, as Python's traceback ends; a message that only introduces its cause ("There is
    a programmable error in your configuration file:") is followed by the cause's own line."""
    message = next((line.strip() for line in str(exception).splitlines() if line.strip()), "")
    line = f"{type(exception).__name__}: {message}" if message else type(exception).__name__
    cause = exception.__cause__
    if line.endswith(":") and cause is not None:
        line += " " + exception_line(cause)
    return line


def record(path: Path, exception: BaseException) -> None:
    data = {
        "line": exception_line(exception),
        "traceback": "".join(traceback.format_exception(exception)),
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def read_stopped(path: Path) -> dict[str, str] | None:
    """What :func:`record` wrote, or None (Sphinx did not stop on an exception)."""
    data = read_json(path)
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else None


#: the private module of Sphinx 9 whose ``handle_exception`` a stopped build calls
ERRORS_MODULE = "sphinx._cli.util.errors"


def main(argv: Sequence[str]) -> int:
    import sphinx.cmd.build

    stopped, args = Path(argv[0]), list(argv[1:])
    try:
        errors: Any = importlib.import_module(ERRORS_MODULE)
    except ImportError:
        errors = None
    original = getattr(errors, "handle_exception", None)
    if not callable(original):
        from ..compat import compat_message

        effect = "a build that stops is shown by Sphinx's last line, not by the exception it stopped on"
        sys.stderr.write(f"WARNING: {compat_message('sphinx', ERRORS_MODULE + '.handle_exception', effect)}")
        sys.stderr.write(" [contrib.compat]\n")
        return sphinx.cmd.build.main(args)

    def handle_exception(exception: BaseException, /, *rest: Any, **options: Any) -> None:
        """Sphinx's own would save the traceback in a file under /tmp that outlives the command: the
        traceback goes to stderr instead (``CONTRIBUTIONS_DEBUG=1`` shows it)."""
        record(stopped, exception)
        print("".join(traceback.format_exception(exception)), file=options.get("stderr") or sys.stderr)

    errors.handle_exception = handle_exception
    return sphinx.cmd.build.main(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
