"""What the extension knows about the versions of the packages it works with.

:data:`WORKAROUNDS` names every patch of another package's behaviour (``write/fixes/``): the package, the
versions whose behaviour it corrects (``">=A,<B"``; the upper bound is the next release not checked yet),
and the upstream issue. :func:`needed` is the one question a patch asks: outside its range it does nothing,
and says nothing. A changed private shape inside the range is caught by the guard tests
(``tests/test_workarounds.py``), not by a warning in a user's build. ``docs/explanation/workarounds.md``
describes each one, with the change that would fix it upstream.

What differs between the supported releases (Sphinx 8.2 to 9.x, pyproject.toml) is read through the
functions below, each by ``sphinx.version_info``, each branch naming the releases it is for; the oldest
session of noxfile.py runs the branches for the lower bounds.

Where a shape is still checked at run time (:func:`incompatible`), a ``[contrib.compat]`` warning names the
package, its version, what is missing and what the build loses.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

import sphinx
from packaging.version import InvalidVersion, Version

from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.build_phase import BuildPhase


@dataclass(frozen=True)
class Workaround:
    """A patch of ``package``'s behaviour in the ``versions`` it corrects (``">=A,<B"``, either bound may be
    left out); ``issue``: upstream's report."""

    package: str
    versions: str
    issue: str


#: every workaround of ``write/fixes/``, by its module's name (what each corrects:
#: ``docs/explanation/workarounds.md``)
WORKAROUNDS: dict[str, Workaround] = {
    "empty_index": Workaround("sphinx", ">=7.4,<10", ""),
    "epub_bookkeeping": Workaround("sphinx", ">=7.4,<10", ""),
    "epub_svg": Workaround("sphinx", ">=7.4,<10", ""),
    "lasting_warnings": Workaround("sphinx", ">=7.4,<10", ""),
    "opengraph_fields": Workaround(
        "sphinxext-opengraph", ">=0.6,<0.14", "https://github.com/sphinx-doc/sphinxext-opengraph/pull/49"
    ),
    "opengraph_json": Workaround("sphinxext-opengraph", ">=0.6,<0.14", ""),
    "search_index": Workaround("sphinx", ">=7.4,<10", ""),
    "search_objects": Workaround("sphinx", ">=7.4,<10", ""),
    "singlehtml_anchors": Workaround("sphinx", ">=8.2,<10", "https://github.com/sphinx-doc/sphinx/issues/14221"),
    "sitemap": Workaround("sphinx-sitemap", ">=2.9,<3", "https://github.com/jdillard/sphinx-sitemap/issues/13"),
}


#: the module of each package a workaround corrects: its ``__version__`` is read where it is imported
#: already (a look-up in the installed packages' metadata costs ~25 ms, once a process)
MODULES = {"sphinx": "sphinx", "sphinxext-opengraph": "sphinxext.opengraph", "sphinx-sitemap": "sphinx_sitemap"}


def installed(package: str) -> str:
    """The installed version of ``package`` (its distribution name), or ``"?"``."""
    found = getattr(sys.modules.get(MODULES.get(package, "")), "__version__", None)
    if isinstance(found, str):
        return found
    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


@cache
def in_range(package: str, versions: str) -> bool:
    """Whether the installed ``package`` is in ``versions`` (``">=7.4,<10"``; a pre-release counts as its
    release); not installed: no."""
    try:
        release = Version(installed(package)).release
    except InvalidVersion:
        return False
    for bound in versions.split(","):
        bound = bound.strip()
        if bound.startswith(">=") and release < _release(bound[2:]):
            return False
        if bound.startswith("<") and release >= _release(bound[1:]):
            return False
    return True


def needed(name: str) -> bool:
    """Whether the workaround ``name`` (:data:`WORKAROUNDS`) applies to the installed package."""
    workaround = WORKAROUNDS[name]
    return in_range(workaround.package, workaround.versions)


def current_docname(env: BuildEnvironment) -> str:
    """The page being read (``""`` between pages): ``env.current_document``, which every supported Sphinx
    has (from 8.2, the floor; before it ``env.temp_data``)."""
    return env.current_document.docname


def build_phase(app: Sphinx) -> BuildPhase:
    """The phase of the build (reading, resolving, writing): the builder's from Sphinx 9, which deprecates
    ``Sphinx.phase``; before it the application's."""
    if sphinx.version_info >= (9, 0):
        return app.builder.phase
    return app.phase  # pragma: no cover - Sphinx < 9 (the oldest session, issue 44)


def compat_message(package: str, missing: str, effect: str) -> str:
    """The message: ``package`` (at its installed version) no longer has ``missing``, and what that costs."""
    return f"{package} {installed(package)} has no {missing}: {effect} (sphinx-contributions needs an update)"


def incompatible(package: str, missing: str, effect: str) -> None:
    """Warn (``[contrib.compat]``) that ``package`` no longer has ``missing``, and what that costs: said
    once per build, as the same shape is missing on every page that asks for it."""
    warn(ContribWarning.COMPAT, compat_message(package, missing, effect), None, once=True)
