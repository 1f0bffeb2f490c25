"""A test's way to take a handler out of the extension's wiring table (``sphinx_contributions/extension.py``),
as a guard test does to show that a fix is still needed: the builds the test starts afterwards run without
it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sphinx_contributions import extension


def unwire(monkeypatch: pytest.MonkeyPatch, *callbacks: Callable[..., Any]) -> None:
    """The wiring table without the rows of ``callbacks`` (each must be in it)."""
    rows = extension.HANDLERS
    missing = [callback for callback in callbacks if not any(row.callback is callback for row in rows)]
    assert not missing, f"not in the wiring table: {missing}"
    monkeypatch.setattr(extension, "HANDLERS", tuple(row for row in rows if row.callback not in callbacks))
