"""How ``make test`` spreads the suite over the machine's cores (pytest-xdist, ``-n auto``).

xdist's ``--dist loadfile`` hands each worker whole test modules, so a module-scoped build runs once. Two
things it does not keep:

- the order: it sends the modules with the most tests first (``loadscope-reorder``), and a worker that runs
  a browser test before a build can hang that build's fork (see ``conftest.pytest_collection_modifyitems``,
  which puts every browser test last);
- a module with browser tests and others (``tests/test_site.py``): its tests are one unit, so its browser
  tests would run before the builds of the modules that come after it.

:class:`FileRunScheduling` hands out work in the collection's order, one unit per run of consecutive tests
of one module: every worker runs its builds first and its browser tests last.
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadFileScheduling


class FileRunScheduling(LoadFileScheduling):  # type: ignore[misc]  # xdist has no types
    """``loadfile``, with a unit per run of one module's consecutive tests, in the collection's order."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        config.option.loadscopereorder = False  # the collection's order: builds first, browser tests last
        self._scopes: dict[str, str] = {}

    def _split_scope(self, nodeid: str) -> str:
        """The unit of ``nodeid``: its module and which run of that module's tests it is in."""
        if not self._scopes:
            self._scopes = runs(self.collection or [])
        return self._scopes[nodeid]


def runs(collection: list[str]) -> dict[str, str]:
    """Each test id's unit: ``module#N`` for the N-th run of consecutive tests of that module."""
    scopes: dict[str, str] = {}
    counts: dict[str, int] = {}
    previous = ""
    for nodeid in collection:
        module = nodeid.split("::", 1)[0]
        if module != previous:
            counts[module] = counts.get(module, 0) + 1
            previous = module
        scopes[nodeid] = f"{module}#{counts[module]}"
    return scopes
