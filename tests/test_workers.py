"""How ``make test`` spreads the suite over workers (``tests/workers.py``): whole runs of one module's tests,
in the collection's order, so that each worker runs its builds before its browser tests."""

from __future__ import annotations

import pytest

from .conftest import REPO
from .workers import runs

pytest_plugins = ("pytester",)


def test_each_run_of_a_modules_tests_is_one_unit() -> None:
    collection = ["a.py::one", "a.py::two", "b.py::three", "a.py::browser", "c.py::browser"]
    assert runs(collection) == {
        "a.py::one": "a.py#1",
        "a.py::two": "a.py#1",
        "b.py::three": "b.py#1",
        "a.py::browser": "a.py#2",
        "c.py::browser": "c.py#1",
    }


#: a suite like this one's: modules with builds, a module with both, browser tests sorted last as
#: ``tests/conftest.py`` sorts them, and xdist's scheduler replaced by ours
CONFTEST = f"""
import os, sys
import pytest
sys.path.insert(0, {str(REPO)!r})

def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)

@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from tests.workers import FileRunScheduling
    return FileRunScheduling(config, log)

@pytest.fixture(autouse=True)
def _log(request):
    with open(os.environ["RUN_LOG"], "a") as log:
        log.write(os.environ["PYTEST_XDIST_WORKER"] + " " + request.node.nodeid + "\\n")
"""
TESTS = """
import pytest
def test_build_1(): pass
def test_build_2(): pass
def test_build_3(): pass
def test_build_4(): pass
@pytest.mark.browser
def test_page(): pass
"""


def test_every_worker_runs_its_builds_before_its_browser_tests(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With xdist's own ``loadfile``, ``test_mixed.py`` (the most tests) went first as one unit: its browser
    test ran on a worker that then ran the other modules' builds."""
    pytester.makeconftest(CONFTEST)
    pytester.makeini("[pytest]\nmarkers =\n    browser: a browser test\n")
    pytester.makepyfile(
        test_mixed=TESTS.replace("pass\n@", "pass\ndef test_build_5(): pass\ndef test_build_6(): pass\n@"),
        test_other=TESTS,
        test_third=TESTS.replace("@pytest.mark.browser\n", ""),
    )
    log = pytester.path / "run.log"
    monkeypatch.setenv("RUN_LOG", str(log))
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=17)
    order: dict[str, list[str]] = {}
    for line in log.read_text().splitlines():
        worker, nodeid = line.split(" ")
        order.setdefault(worker, []).append(nodeid)
    assert set(order) == {"gw0", "gw1"}
    for nodeids in order.values():
        kinds = ["page" in nodeid for nodeid in nodeids]
        assert kinds == sorted(kinds), nodeids  # no build after a browser test
    workers: dict[str, set[str]] = {}  # each module's workers for its builds
    for worker, nodeids in order.items():
        for nodeid in nodeids:
            if "build" in nodeid:
                workers.setdefault(nodeid.split("::")[0], set()).add(worker)
    assert sorted(workers) == ["test_mixed.py", "test_other.py", "test_third.py"]
    assert all(len(found) == 1 for found in workers.values()), workers  # a module's builds on one worker
