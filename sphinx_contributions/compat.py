"""Where the extension relies on another package's private shape: each such use checks the shape at run
time, and when it is missing says so in a ``[contrib.compat]`` warning that names the package, its
version, what is missing and what the build loses, rather than writing wrong output in silence (the
next release of Sphinx may rename an attribute no public API promises)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .warnings import ContribWarning, warn


def installed(package: str) -> str:
    """The installed version of ``package`` (its distribution name), or ``"?"``."""
    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def compat_message(package: str, missing: str, effect: str) -> str:
    """The message: ``package`` (at its installed version) no longer has ``missing``, and what that costs."""
    return f"{package} {installed(package)} has no {missing}: {effect} (sphinx-contributions needs an update)"


def incompatible(package: str, missing: str, effect: str) -> None:
    """Warn (``[contrib.compat]``) that ``package`` no longer has ``missing``, and what that costs: said
    once per build, as the same shape is missing on every page that asks for it."""
    warn(ContribWarning.COMPAT, compat_message(package, missing, effect), None, once=True)
