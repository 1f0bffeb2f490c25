"""``make mutate``'s list (tests/mutate.py) against the package as it is: each mutation's text occurs exactly
once in its file, so that the run applies every one of them, and each area names test modules that exist.
A rule rewritten without its mutation (as ``commit-after-exception`` was, when the output's memory learnt to
drop an output's last write-up) stops ``make mutate`` at its start; here it fails ``make test``."""

from __future__ import annotations

import pytest

from tests.conftest import REPO
from tests.mutate import AREAS, MUTATIONS, Mutation

PACKAGE = REPO / "sphinx_contributions"


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[mutation.name for mutation in MUTATIONS])
def test_each_mutation_applies_to_the_package_as_it_is(mutation: Mutation) -> None:
    text = (PACKAGE / mutation.path).read_text(encoding="utf-8")
    assert text.count(mutation.old) == 1


def test_each_area_names_test_modules_that_exist() -> None:
    missing = sorted({test for tests in AREAS.values() for test in tests if not (REPO / test).is_file()})
    assert missing == []
    unmatched = sorted(area for area in AREAS if not (PACKAGE / area).exists())
    assert unmatched == []
