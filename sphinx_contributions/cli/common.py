"""What every subcommand of ``contributions`` shares: its name, the two kinds of error it ends with (one
line on stderr; exit status 2 for bad input, 1 for a refused or failed operation), the site folder it works
in, how it shows a path and a table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..collect.drafts import SourcePage, scan_sources
from ..read.sources import markdown_parser

if TYPE_CHECKING:
    from collections.abc import Sequence

PROG = "contributions"


class UsageError(Exception):
    """Invalid input: one line on stderr, exit status 2."""


class CommandError(Exception):
    """A refused or failed operation: one line on stderr, exit status 1."""


def site_pages(root: Path) -> dict[str, SourcePage]:
    """Every contribution page of the site at ``root`` (drafts included), read from the sources."""
    from sphinx.config import Config
    from sphinx.errors import ConfigError
    from sphinx.util.tags import Tags

    try:
        config = Config.read(root, overrides={}, tags=Tags())
        exclude, include = list(config.exclude_patterns), list(config.include_patterns)
    except (ConfigError, OSError) as error:
        reason = next((line for line in reversed(str(error).splitlines()) if line.strip()), type(error).__name__)
        raise CommandError(f"{PROG} new: cannot read {shown(root / 'conf.py')}: {one_line(reason)}") from None
    return scan_sources(root, exclude, include, (".md", ".rst"), markdown_parser())


def one_line(text: str) -> str:
    return " ".join(text.split())


def shown(path: Path) -> str:
    """``path`` relative to the working directory when it is inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
    except ValueError:
        return str(path)


def site_root(value: str, command: str) -> Path:
    root = Path(value).expanduser()
    if not (root / "conf.py").is_file():
        empty = not root.exists() or (root.is_dir() and not any(root.iterdir()))
        hint = f"; to start a site there, run: {PROG} init {value}" if empty else ""
        raise UsageError(
            f"{PROG} {command}: no Sphinx site at {value!r} (no conf.py); run it in the site's folder or pass "
            f"--root{hint}"
        )
    return root.resolve()


def table(headings: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  ") -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headings, *rows, strict=False)]
    lines = []
    for row in (headings, *rows):
        cells = [str(cell).ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(lines)
