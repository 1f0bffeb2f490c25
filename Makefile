# Two commands on a fresh machine: `make html` builds the site, `make test` runs the whole suite.
# Both create .venv if missing and install the pinned set (requirements/constraints.txt).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BUILDDIR ?= _build
# strict: warnings are errors (nitpicky is on in conf.py); -T: full tracebacks on a crash
SPHINXOPTS ?= -W --keep-going -T

.PHONY: html test test-edits test-sdist test-latest test-matrix serve clean lint bench bench-serve audit linkcheck mutate mutate-sample gallery

$(STAMP): pyproject.toml requirements/constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt pip setuptools
	$(PY) -m pip install --quiet -c requirements/constraints.txt -e '.[site,test]'
	touch $@

html: $(STAMP)
	$(PY) -m sphinx -b html $(SPHINXOPTS) -d $(BUILDDIR)/doctrees . $(BUILDDIR)/html

# the whole suite, each test once (tests/test_packaging.py proves that the sdist ships and runs the same tests),
# over every core (pytest-xdist; whole modules per worker, browser tests last: tests/workers.py);
# PYTEST_WORKERS=0 runs it in this process
PYTEST_WORKERS ?= auto
test: $(STAMP)
	$(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# random edits of a site, each followed by an incremental and a clean build compared whole (tests/test_edits.py;
# `make test` runs a few): CONTRIB_EDITS edits, CONTRIB_EDITS_SEED to run a failure again
CONTRIB_EDITS ?= 200
test-edits: $(STAMP)
	CONTRIB_EDITS=$(CONTRIB_EDITS) $(PY) -m pytest -n 0 tests/test_edits.py $(PYTEST_ARGS)

# the sdist built, unpacked into a temporary folder and its whole suite run there (this venv; axe-core from
# tests/node/node_modules): it passes with at most two skips (tests/sdist_suite.py); not part of `make test`
test-sdist: $(STAMP)
	$(PY) -m tests.sdist_suite $(PYTEST_ARGS)

# each of a set of small mutations of the package, in a temporary copy, against the tests that must catch
# it (tests/mutate.py); not part of `make test`
mutate: $(STAMP)
	$(PY) -m tests.mutate $(MUTATE_ARGS)

# cosmic-ray (the mutation extra) over write/ and collect/, in a copy of the repository, each mutant against the
# test modules of its area (tests/cosmic_ray_area.py, tests/mutate.py's AREAS); cosmic-ray executes the
# session's mutants in a random order it draws itself: stop it (Ctrl-C) once enough have run, and
# `cr-report $(BUILDDIR)/cosmic-ray/session.sqlite` counts them. Not part of `make test`: hours for all.
CR_WORK ?= $(BUILDDIR)/cosmic-ray
CR_BIN := $(abspath $(VENV))/bin
mutate-sample: $(STAMP)
	$(PY) -m pip install --quiet -c requirements/constraints.txt -e '.[mutation]'
	rm -rf $(CR_WORK) && mkdir -p $(CR_WORK)
	$(PY) -c "from pathlib import Path; from tests.mutate import copy_repository as c; \
		c(Path('$(CR_WORK)/repo')); c(Path('$(CR_WORK)/pristine'))"
	cd $(CR_WORK)/repo && $(CR_BIN)/cosmic-ray init tests/cosmic-ray.toml ../session.sqlite
	cd $(CR_WORK)/repo && CR_PRISTINE=$(abspath $(CR_WORK))/pristine PATH=$(CR_BIN):$$PATH \
		nice $(CR_BIN)/cosmic-ray exec tests/cosmic-ray.toml ../session.sqlite
	$(CR_BIN)/cr-report $(CR_WORK)/session.sqlite

# the suite against the newest Sphinx, MyST-Parser, furo, sphinx-design, sphinx-sitemap and sphinxext-opengraph
# the registry has, on the newest Python 3.12 or later the machine has (PATH or pyenv, tests/newest_python.py:
# Read the Docs builds a new site on 3.12, where it installs Sphinx 9.1; 3.11 stops at the pinned 9.0.4), in a
# venv of its own (the pinned set for everything else); pip says where the newest releases leave the package's
# own version ranges, and the test report's header names each version (pip and setuptools pinned first, as
# for .venv: the venv's own setuptools cannot build this package). Without such a Python: one line says so.
LATEST_VENV ?= $(BUILDDIR)/latest-venv
LATEST := sphinx myst-parser furo sphinx-design sphinx-sitemap sphinxext-opengraph
LATEST_PYTHON ?= $(shell $(PYTHON) tests/newest_python.py)
test-latest:
	@if [ -z "$(LATEST_PYTHON)" ]; then \
		echo "test-latest: SKIPPED: no Python 3.12 or later on this machine (PATH, pyenv); install one (pyenv install 3.12)"; \
		exit 0; fi; \
	set -e; \
	test -x $(LATEST_VENV)/bin/python || $(LATEST_PYTHON) -m venv $(LATEST_VENV); \
	$(LATEST_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt pip setuptools; \
	$(LATEST_VENV)/bin/python -m pip install --quiet -c requirements/constraints.txt -e '.[site,test]'; \
	$(LATEST_VENV)/bin/python -m pip install --quiet --upgrade $(LATEST); \
	$(LATEST_VENV)/bin/python -m mypy; \
	CONTRIB_UPGRADED="$(LATEST)" $(LATEST_VENV)/bin/python -m pytest $(PYTEST_ARGS)

# the three sessions of noxfile.py: oldest (pyproject's lower bounds, Python 3.11), pinned (constraints.txt),
# newest (the newest releases, Python 3.13). oldest and newest run the extension's own tests (-m extension,
# tests/conftest.py's PINNED_ONLY); measured 2026-12-06 on eba40e4 (`nox -s oldest newest -- -n auto`, as CI
# runs them, beside a make test on the same 2 cores): oldest 9 min (Sphinx 8.2.0, MyST-Parser 5.2.0,
# docutils 0.21, markdown-it-py 4.2.0), newest 12 min (Sphinx 9.2.0, docutils 0.23.1, Python 3.13.0):
# 1,310 passed, 1 skipped each. pinned is make test's suite. CI (.ci/run) runs oldest and newest after make test.
test-matrix: $(STAMP)
	$(PY) -m nox

# live preview on http://127.0.0.1:8000, drafts included, built on save in one warm process (not strict:
# shows warnings); an edit of the package's own modules starts that process again (contributions serve)
serve: $(STAMP)
	$(PY) -m sphinx_contributions serve --root .

# the preview's edit -> served against a new process's rebuild, and its memory over 200 saves
# (benchmarks/serve.py; not part of `make test`)
bench-serve: $(STAMP)
	$(PY) benchmarks/serve.py --cold-preview

lint: $(STAMP)
	$(PY) -m ruff check sphinx_contributions tests benchmarks conf.py docs
	$(PY) -m ruff format --check sphinx_contributions tests benchmarks conf.py docs
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) benchmarks/run.py

# Lighthouse and the Nu HTML checker (needs Node 20, Java, Chromium; installs into _build/audit-tools)
audit: html
	$(PY) tests/audit.py --html $(BUILDDIR)/html

# every link, external ones included (needs the network); CONTRIBUTIONS_OFFLINE=1: the site's own links only
linkcheck: $(STAMP)
	$(PY) -m sphinx -b linkcheck $(SPHINXOPTS) -d $(BUILDDIR)/doctrees . $(BUILDDIR)/linkcheck

clean:
	rm -rf $(BUILDDIR)

# the manual's themes gallery (docs/how-to/gallery/*.webp): the init site's sample write-up under each
# supported theme at 390x844 and 1280x900, built and shot in Chromium (docs/gallery.py); not part of `make test`
gallery: $(STAMP)
	$(PY) docs/gallery.py
