"""The ``contributions`` command: start a site, preview it, scaffold a write-up from a pull request, check
the site, list it.

- ``contributions init DIR`` writes a new site (:mod:`.init`); ``contributions serve`` previews it live,
  drafts included (:mod:`.serve`);
- ``contributions new <PR URL or owner/repo#N>`` writes ``contributions/<repo>-<N>.md``, a draft with
  the header filled in and a prompt (a MyST comment) in each section;
- ``contributions check`` builds the site strictly (``python -m sphinx -W --keep-going -b html``) into a
  temporary folder, prints the contributions, the drafts left out and the warnings, each with its
  ``file:line`` and ``[type.subtype]``, and exits 0 only when the site would publish. It reads all of it
  from the report the build writes (:mod:`.report`), not from Sphinx's output. ``--builders
  html,epub,latex`` builds each format a release publishes (and compiles the PDF when latexmk is
  there: a failed compile and each character the PDF leaves out are warnings too). When Sphinx stops
  on an exception, it prints that exception's line and the path of the full log;
- ``contributions list`` prints the published contributions as a table, or (``--json``) the same
  document as the built site's ``contributions.json``.

Also ``python -m sphinx_contributions``. Bad input gives one line on stderr and exit status 2; a check
that fails, or a page that ``new`` refuses to overwrite, exit status 1. Never a traceback (set
``CONTRIBUTIONS_DEBUG=1`` to see one).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..builders import JSON_NAME, SCHEMA_NAME
from ..keys import SECTION_NAMES
from ..write.exports import SCHEMA_VERSION, dumps
from ..write.report import read_report, report_path
from .common import PROG, CommandError, UsageError, one_line, site_root, table
from .new import ACCEPTED_FORMS, command_new
from .sphinx_process import read_stopped

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

#: the subcommands, in the order of a site's life
COMMANDS = ("init", "serve", "discover", "new", "check", "list", "sync")


class _Parser(argparse.ArgumentParser):
    """argparse, with each error as one line (``<prog>: <message> (see <prog> --help)``)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


# -- building -----------------------------------------------------------------------------------------


@dataclass
class Build:
    """A build's exit status, its output, its report (None when it stopped before writing one), the
    exception it stopped on (:mod:`.sphinx_process`), the records of the drafts it left out (see
    :func:`draft_records`) and its output folder."""

    builder: str
    returncode: int
    stdout: str
    stderr: str
    report: dict[str, Any] | None
    stopped: dict[str, str] | None
    drafts: list[dict[str, Any]]
    outdir: Path

    @property
    def html(self) -> Path:
        return self.outdir

    @property
    def warnings(self) -> list[dict[str, Any]]:
        return list(self.report["warnings"]) if self.report else []

    @property
    def records(self) -> list[dict[str, Any]]:
        return list(self.report["records"]) if self.report else []


def draft_records(root: Path, workdir: Path, docnames: Iterable[str]) -> list[dict[str, Any]]:
    """The records of the drafts ``docnames``, from a build of them alone (``dummy``: nothing written,
    drafts included): each column is what the build shows of a published page (its sections written by
    the same rule, :func:`.directives.is_written`), not a second reading of the sources."""
    patterns = [
        f"{docname}{suffix}"
        for docname in sorted(docnames)
        for suffix in (".md", ".rst")
        if (root / f"{docname}{suffix}").is_file()
    ]
    if not patterns:
        return []
    workdir.mkdir(parents=True, exist_ok=True)
    result = build(root, workdir, strict=False, include_drafts=True, builder="dummy", only=patterns)
    wanted = set(docnames)
    return [record for record in result.records if record["docname"] in wanted]


def build(
    root: Path,
    workdir: Path,
    *,
    strict: bool,
    include_drafts: bool = False,
    html: Path | None = None,
    builder: str = "html",
    only: Sequence[str] = (),
    canonical_url: str | None = None,
) -> Build:
    """Build the site at ``root`` with Sphinx, in a subprocess (the command a release runs, wrapped by
    :mod:`.sphinx_process` to learn the exception a stopped build stopped on); ``only``: the source
    files to read (as ``include_patterns``), all by default; ``canonical_url``: the site's address as Read
    the Docs gives it (``READTHEDOCS_CANONICAL_URL``, which a site's ``conf.py`` reads into
    ``html_baseurl``). The drafts it leaves out are built alone (:func:`draft_records`)."""
    outdir = html or workdir / builder
    doctreedir = workdir / f"doctrees-{builder}"
    stopped = workdir / f"stopped-{builder}.json"
    command = [sys.executable, "-m", "sphinx_contributions.cli.sphinx_process", str(stopped)]
    command += ["-b", builder, "-q", "--no-color"]
    if strict:
        command += ["-W", "--keep-going"]
    if include_drafts:
        command += ["-D", "contributions_include_drafts=1"]
    if only:  # the first of them stands as the root document (Sphinx requires that one)
        patterns = ",".join(glob.escape(path) for path in only)
        command += ["-D", f"include_patterns={patterns}", "-D", f"root_doc={Path(only[0]).with_suffix('')}"]
    command += ["-d", str(doctreedir), str(root), str(outdir)]
    env = None if canonical_url is None else os.environ | {CANONICAL_VARIABLE: canonical_url}
    done = subprocess.run(
        command, capture_output=True, text=True, check=False, cwd=root, stdin=subprocess.DEVNULL, env=env
    )
    report = read_report(report_path(doctreedir, builder))
    drafts = [d["docname"] for d in report["drafts"]] if report and not include_drafts else []
    return Build(
        builder,
        done.returncode,
        done.stdout,
        done.stderr,
        report,
        read_stopped(stopped),
        draft_records(root, workdir / "drafts", drafts) if drafts else [],
        outdir,
    )


#: Sphinx's words for an extension it cannot import (``sphinx.registry.load_extension``)
_NOT_IMPORTED = re.compile(
    r"Could not import extension (?P<name>\S+) \(exception: No module named '(?P<module>[^']+)'\)"
)


def not_installed(root: Path, reason: str) -> str | None:
    """An extension of ``conf.py`` that is not installed, in one line: where ``conf.py`` names it, and the
    installed module its name is a typo of (``did you mean 'sphinx_contributions'?``), else how to fix it;
    None for another reason."""
    import ast
    import pkgutil

    from ..warnings import closest

    found = _NOT_IMPORTED.search(reason)
    if found is None or found["module"] not in (found["name"], found["name"].split(".")[0]):
        return None  # the extension is there, and a module it imports is not: Sphinx's line says which
    name = found["name"]
    where = "conf.py"
    try:
        tree = ast.parse((root / "conf.py").read_text(encoding="utf-8"))
        line = next(n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value == name)
        where = f"conf.py:{line}"
    except (OSError, SyntaxError, ValueError, StopIteration):
        pass
    # this package itself too: an editable install is no module on sys.path
    installed = ({module.name for module in pkgutil.iter_modules()} | {__name__.split(".")[0]}) - {name}
    meant = closest(name, sorted(installed))
    fix = (
        f"did you mean {meant!r}?"
        if meant is not None
        else "install the package that provides it, or remove it from extensions"
    )
    return f"{where}: extensions names {name!r}, which is not installed: {fix}"


def crashed(result: Build, command: str, root: Path) -> CommandError:
    """The build stopped: an extension that is not installed in one line with its fix; else the
    exception's own line (``ConfigError: …``), else Sphinx's last line, and how to see the rest. No log
    file is left behind: ``CONTRIBUTIONS_DEBUG=1`` prints Sphinx's whole output and the traceback."""
    if result.stopped and result.stopped.get("line"):
        reason = result.stopped["line"]
    else:
        reason = next((line for line in reversed(result.stderr.splitlines()) if line.strip()), "no output")
    if (line := not_installed(root, reason)) is not None:
        return CommandError(f"{PROG} {command}: {line}")
    if os.environ.get("CONTRIBUTIONS_DEBUG"):
        traceback = (result.stopped or {}).get("traceback", "")
        print(result.stdout + result.stderr + traceback, file=sys.stderr)
    return CommandError(
        f"{PROG} {command}: the Sphinx build ({result.builder}) stopped (exit status {result.returncode}): "
        f"{one_line(reason)}\n{PROG} {command}: to see Sphinx's whole output and the traceback, run it again "
        "with CONTRIBUTIONS_DEBUG=1"
    )


# -- tables -------------------------------------------------------------------------------------------


def clip(text: str, width: int = 56) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def row(record: dict[str, Any]) -> tuple[str, ...]:
    """A contribution's line in ``check``'s tables: key, title, state, sections written (as the build
    counts them: the record's ``sections``), metrics, page."""
    sections = f"{len(set(record['sections']) & set(SECTION_NAMES))}/{len(SECTION_NAMES)}"
    state = record["status"] or "-"
    return (record["key"], clip(record["title"]), state, sections, str(len(record["metrics"])), record["docname"])


# -- check --------------------------------------------------------------------------------------------


def warning_line(warning: dict[str, Any]) -> str:
    """A warning as Sphinx shows it, with the path relative to the site: ``path:line: WARNING: message
    [type.subtype]``."""
    where = warning["path"] or ""
    if where and warning["line"] is not None:
        where += f":{warning['line']}"
    kind = f" [{warning['type']}]" if warning["type"] else ""
    return f"{where + ': ' if where else ''}{warning['level']}: {warning['message']}{kind}"


#: what Read the Docs sets to the site's address, which a site's ``conf.py`` makes its ``html_baseurl``
#: (``contributions init`` writes that line); ``check`` sets it as Read the Docs does, so that what
#: needs the address (the feed, its dates from the git history, absolute URLs) is built and checked
CANONICAL_VARIABLE = "READTHEDOCS_CANONICAL_URL"
#: ``check``'s address where the environment gives none (``--canonical-url`` sets another)
CHECK_CANONICAL_URL = "https://example.readthedocs.io/en/latest/"


def canonical_url_of(text: str) -> str:
    if not re.match(r"^https?://[^\s/]+/", text):
        raise UsageError(f"{PROG} check: --canonical-url takes the site's address (https://…/); got {text!r}")
    return text


#: the builders ``check --builders`` knows: what a release publishes (the website, the ePub and PDF
#: downloads) and the site's other HTML form
CHECK_BUILDERS = ("html", "dirhtml", "epub", "latex")
#: xelatex and lualatex's line for a character the font lacks (the PDF shows nothing there, exit status 0)
_MISSING_CHARACTER = re.compile(r"^Missing character: There is no (?P<char>.+?) in font (?P<font>[^:!]+)")


def parse_builders(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in CHECK_BUILDERS]
    if not names or unknown:
        raise UsageError(
            f"{PROG} check: --builders takes a comma-separated list of {', '.join(CHECK_BUILDERS)}; got {text!r}"
        )
    return list(dict.fromkeys(names))


def missing_characters(log: str, tex: str) -> list[dict[str, Any]]:
    """Each character the fonts lack, once, as a warning (from the LaTeX log)."""
    seen: dict[tuple[str, str], None] = {}
    for line in log.splitlines():
        match = _MISSING_CHARACTER.match(line)
        if match:
            seen.setdefault((match["char"], match["font"].strip()), None)
    return [
        {
            "path": tex,
            "line": None,
            "level": "WARNING",
            "type": "latex.missing_character",
            "message": f"the PDF leaves out {char}: there is no such character in font {font} "
            "(choose a font that has it in latex_elements['fontpkg'])",
        }
        for char, font in seen
    ]


def compile_pdf(result: Build, kept: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """Compile the LaTeX output as Read the Docs does (latexmk with the site's latexmkrc): a line on
    what happened, and the warnings it gave (a failed compile, characters the PDF leaves out)."""
    latexmk = shutil.which("latexmk")
    if latexmk is None:
        return "latex: the PDF was not compiled (latexmk is not installed)", []
    warnings: list[dict[str, Any]] = []
    for tex in sorted(result.outdir.glob("*.tex")):
        command = [latexmk, "-r", "latexmkrc", "-pdf", "-f", "-dvi-", "-ps-", "-interaction=nonstopmode", tex.name]
        done = subprocess.run(
            command, cwd=result.outdir, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL
        )
        log_path = tex.with_suffix(".log")
        log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.is_file() else ""
        if done.returncode != 0 or not tex.with_suffix(".pdf").is_file():
            # no file left behind: the log stays with the output the site asked to keep (--outdir)
            where = f"the full log: {log_path}" if kept else "run it with --outdir DIR to keep the full log"
            error = next((line for line in log.splitlines() if line.startswith("!")), "see the log")
            warnings.append(
                {
                    "path": tex.name,
                    "line": None,
                    "level": "WARNING",
                    "type": "latex.failed",
                    "message": f"latexmk did not make the PDF (exit status {done.returncode}): {error}; {where}",
                }
            )
        warnings += missing_characters(log, tex.name)
    return "latex: the PDF compiled with latexmk", warnings


def requirement_warnings(root: Path) -> list[dict[str, Any]]:
    """A warning for each line of ``requirements.txt`` that installs the extension from where only this
    machine can (:func:`.init.machine_only`): Read the Docs, installing from a clone, would fail."""
    from .init import MACHINE_ONLY_FIX, machine_only_lines

    return [
        {
            "path": "requirements.txt",
            "line": number,
            "level": "WARNING",
            "type": "check.requirements",
            "message": f"{line!r} installs sphinx-contributions from this machine only{MACHINE_ONLY_FIX}",
        }
        for number, line in machine_only_lines(root)
    ]


def command_check(args: argparse.Namespace) -> int:
    root = site_root(args.root, "check")
    builders = parse_builders(args.builders)
    kept = Path(args.outdir).resolve() if args.outdir else None
    results: list[Build] = []
    notes: list[str] = []
    extra: dict[str, list[dict[str, Any]]] = {builders[0]: requirement_warnings(root)}
    # the stand-in address only for output that is thrown away: kept output holds no address but the site's
    canonical = args.canonical_url or os.environ.get(CANONICAL_VARIABLE) or (None if kept else CHECK_CANONICAL_URL)
    with tempfile.TemporaryDirectory(prefix="contributions-check-") as work:
        for builder in builders:
            # --outdir: the one builder's output there, or each builder's in a folder of its name
            outdir = None if kept is None else kept if len(builders) == 1 else kept / builder
            result = build(root, Path(work), strict=True, html=outdir, builder=builder, canonical_url=canonical)
            if result.report is None:
                raise crashed(result, "check", root)
            results.append(result)
            if builder == "latex" and not result.warnings and result.returncode == 0:
                note, extra[builder] = compile_pdf(result, kept is not None)
                notes.append(note)
    first = results[0]
    headings = ("key", "title", "state", "sections", "metrics", "page")
    # a page whose key another page owns is not published (its warning says so)
    rows = [row(record) for record in first.records if record["published"]]
    print(f"Contributions in the published site ({len(rows)}):")
    print(table(headings, rows) if rows else "  none")
    if first.drafts:
        print(f"\nDrafts, left out of the published site ({len(first.drafts)}):")
        print(table(headings, [row(record) for record in first.drafts]))
    lines: dict[str, None] = {}
    for result in results:  # each warning once; one that only a later builder gives says which
        for warning in [*result.warnings, *extra.get(result.builder, [])]:
            line = warning_line(warning)
            if result is not first and line not in lines:
                line = f"{result.builder}: {line}"
            lines.setdefault(line, None)
    if lines:
        count = len(lines)
        print(f"\nWarnings ({count}):")
        for line in lines:  # a message of several lines keeps them, indented
            print("  " + line.replace("\n", "\n    "))
        print(f"\nThe site would not publish: the strict build stops on {count} warning{'s' * (count != 1)}.")
        return 1
    for result in results:
        if result.returncode != 0:
            raise crashed(result, "check", root)
    if builders == ["html"]:
        print("\nThe site would publish: the strict build passes.")
    else:
        done = "; ".join(notes)
        print(f"\nThe site would publish: the strict builds pass ({', '.join(builders)}{'; ' + done if done else ''}).")
    return 0


# -- list ---------------------------------------------------------------------------------------------


def contributions_document_of(records: list[dict[str, Any]]) -> dict[str, Any]:
    """``contributions.json`` of a site without ``html_baseurl`` holding ``records``."""
    return {"$schema": SCHEMA_NAME, "version": SCHEMA_VERSION, "contributions": records}


def command_list(args: argparse.Namespace) -> int:
    root = site_root(args.root, "list")
    with tempfile.TemporaryDirectory(prefix="contributions-list-") as work:
        result = build(root, Path(work), strict=False, include_drafts=args.drafts)
        path = result.html / JSON_NAME
        if result.returncode != 0 or result.report is None:
            raise crashed(result, "list", root)
        # a site without write-ups has no contributions.json: the document it would hold
        text = path.read_text(encoding="utf-8") if path.is_file() else dumps(contributions_document_of([]))
    if args.json:
        sys.stdout.write(text)
    else:
        import json

        records: list[dict[str, Any]] = json.loads(text)["contributions"]
        rows = [
            (r["key"], r["status"] or "-", r["date"] or "-", r["project"], clip(r["title"]), r["pr_url"])
            for r in records
        ]
        print(table(("key", "state", "date", "project", "title", "pull request"), rows, indent="") if rows else "none")
    if result.warnings:
        count = len(result.warnings)
        said = f"{count} warning{'s' * (count != 1)}"
        if args.drafts:  # check leaves drafts out: the preview builds them and shows their warnings
            line = f"the build, drafts included, gave {said}; run '{PROG} serve' to see them "
            line += f"('{PROG} check' leaves drafts out)"
        else:
            line = f"the build gave {said}; run '{PROG} check' to see them"
        print(f"{PROG} list: {line}", file=sys.stderr)
    return 0


# -- the parser ---------------------------------------------------------------------------------------


def guide_path() -> str:
    """Where the guide, ``AUTHORING.md``, is in this installation (the wheel ships it in the package)."""
    from importlib import resources

    return str(resources.files("sphinx_contributions") / "AUTHORING.md")


def version_line() -> str:
    import sphinx

    from ..version import __version__

    return f"{PROG} (sphinx-contributions) {__version__}, Sphinx {sphinx.__version__}"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description=(
            "Write-ups of upstream pull requests: start a site, preview it, scaffold a page, check the\nsite, list it."
        ),
        # as written: the guide's path on a line of its own, never broken at a hyphen
        epilog=f"'{PROG} COMMAND --help' explains each command. The guide (the format of a page,\n"
        f"every warning and command):\n  {guide_path()}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=version_line())
    commands: argparse._SubParsersAction[argparse.ArgumentParser]
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def root_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--root", default=".", metavar="DIR", help="the site's folder, the one holding conf.py (default: .)"
        )

    new = commands.add_parser(
        "new",
        help="write a draft page for a pull request",
        description=(
            "Write contributions/<repo>-<number>.md for a pull request: the contribution header filled in "
            "(repo, pr, status: draft, a TODO title and summary), the four sections with a prompt each (MyST "
            "comments, which the build reports as unwritten until replaced) and a metric example. Refuses "
            "to overwrite a page, or to add a key that a page already declares."
        ),
        epilog=f"examples: {PROG} new https://github.com/sgl-project/sglang/pull/1 ; {PROG} new sgl-project/sglang#1",
    )
    new.add_argument("pr", metavar="PR", help=f"the pull request: {ACCEPTED_FORMS}")
    root_option(new)
    new.set_defaults(handler=command_new)

    check = commands.add_parser(
        "check",
        help="build the site strictly and say whether it would publish",
        description=(
            "Build the site strictly (python -m sphinx -W --keep-going -b html) into a temporary folder, as "
            f"Read the Docs does: with its address in {CANONICAL_VARIABLE} (which the site's conf.py makes "
            "html_baseurl), so that the feed and what it reads from the git history are checked too; "
            "print its contributions (key, title, state, sections written, metrics), the drafts left out, "
            "and the warnings, each with its file:line and [type.subtype], as the build's report "
            "(contributions-report.html.json) gives them. Exit status 0 only when the site would publish."
        ),
    )
    root_option(check)
    check.add_argument(
        "--outdir",
        metavar="DIR",
        help="keep the output in DIR (default: a temporary folder); with several --builders, each in DIR/<builder>",
    )
    check.add_argument(
        "--builders",
        default="html",
        metavar="LIST",
        help=(
            f"the formats to build, comma-separated, from {', '.join(CHECK_BUILDERS)} (default: html); "
            "html,epub,latex checks everything a release publishes, the PDF compiled when latexmk is installed"
        ),
    )
    check.add_argument(
        "--canonical-url",
        type=canonical_url_of,
        default=None,
        metavar="URL",
        help=(
            f"the site's address, set as {CANONICAL_VARIABLE} for the build, as Read the Docs sets it (default: "
            f"{CANONICAL_VARIABLE} from the environment, else {CHECK_CANONICAL_URL}; with --outdir, none: the "
            "output kept holds no stand-in address)"
        ),
    )
    check.set_defaults(handler=command_check)

    listing = commands.add_parser(
        "list",
        help="list the published contributions",
        description=(
            "Build the site (not strictly) into a temporary folder and list its contributions, newest first: "
            "as a table, or with --json as the site's contributions.json."
        ),
    )
    root_option(listing)
    listing.add_argument("--json", action="store_true", help="print the site's contributions.json instead of a table")
    listing.add_argument("--drafts", action="store_true", help=f"include drafts, as the preview ({PROG} serve) does")
    listing.set_defaults(handler=command_list)

    # the commands with a module of their own, one line each
    from .init import add_init
    from .serve import add_serve

    add_init(commands)
    add_serve(commands)

    from .sync import add_sync_command  # its own module (sync.py); it imports this one

    add_sync_command(commands, root_option)
    from .discover import add_discover_command

    add_discover_command(commands, root_option)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    command = "?"
    try:
        args, extra = parser.parse_known_args(argv)
        command = args.command or "?"
        if extra:
            prog = f"{PROG} {args.command}" if args.command else PROG
            raise UsageError(f"{prog}: unrecognized arguments: {' '.join(extra)} (see {prog} --help)")
        if args.command is None:
            raise UsageError(f"{PROG}: choose a command: {', '.join(COMMANDS)} (see {PROG} --help)")
        return int(args.handler(args))
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except CommandError as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if os.environ.get("CONTRIBUTIONS_DEBUG"):
            raise
        print(f"{PROG} {command}: {type(error).__name__}: {one_line(str(error))}", file=sys.stderr)
        return 1
