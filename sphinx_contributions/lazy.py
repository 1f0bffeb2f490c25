"""What the extension loads only when it is used.

A site that lists the extension and holds no write-up (a guest's site, issue 32) must build at about the
cost of the same site without it. Most of the package is the work of write-ups: their directives and
options, records, forges, renderers and outputs; importing it all at ``setup()`` cost a small site more
than every handler of its build together. So the wiring names what it registers by reference,
``".module:name"`` (relative to the package), and each is imported when Sphinx first calls it:

- :func:`function`: an event handler or a role, a stand-in that imports its target on its first call;
- :func:`directive`: a directive class, a stand-in class that becomes its target when docutils or MyST
  reads its options or runs it;
- :func:`resolve`: the object a reference names (the domain's tables, :mod:`.collect.domain`).

This module imports nothing of the package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

PACKAGE = "sphinx_contributions"


def resolve(ref: str) -> Any:
    """The object ``".module:name"`` names (the module relative to the package), imported now."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module, PACKAGE), name)


def module_of(ref: str) -> str:
    """The absolute name of the module a reference names: ``".write.report:x"`` → ``…write.report``."""
    module = ref.partition(":")[0]
    return PACKAGE + module if module.startswith(".") else module


def function(ref: str, when: str | None = None, otherwise: Any = None) -> Callable[..., Any]:
    """A stand-in for the function (or callable object) ``ref`` names: its first call imports it, every
    call passes the arguments on. With ``when`` (a reference to a predicate of the same arguments), a call
    first asks it, and where it says no, returns ``otherwise`` without importing the function. The stand-in
    carries the target's name and module (Sphinx names a handler that fails by them) and the reference
    (``.ref``)."""
    target: Callable[..., Any] | None = None
    gate: Callable[..., Any] | None = None

    def call(*args: Any, **kwargs: Any) -> Any:
        nonlocal target, gate
        if when is not None:
            if gate is None:
                gate = resolve(when)
            if not gate(*args, **kwargs):
                return otherwise() if callable(otherwise) else otherwise
        if target is None:
            target = resolve(ref)
        return target(*args, **kwargs)

    call.__name__ = call.__qualname__ = ref.partition(":")[2]
    call.__module__ = module_of(ref)
    call.ref = ref  # type: ignore[attr-defined]
    return call


class _StandIn(type):
    """The type of a directive's stand-in: what docutils and MyST ask of a directive class (its
    ``option_spec``, ``has_content``, … and an instance) is asked of the class it stands for."""

    def resolved(cls) -> type:
        found: type | None = cls.__dict__.get("_resolved")
        if found is None:
            found = resolve(cls.__dict__["ref"])
            type.__setattr__(cls, "_resolved", found)
        return found

    def __getattr__(cls, name: str) -> Any:  # only for names the stand-in itself lacks
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return getattr(cls.resolved(), name)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls.resolved()(*args, **kwargs)


def directive(ref: str) -> type:
    """A stand-in class for the directive class ``ref`` names (it derives from nothing, so that each of
    the directive's attributes is its target's)."""
    return _StandIn(ref.partition(":")[2], (), {"ref": ref, "__module__": module_of(ref)})


def transform(ref: str, base: type, priority: int, when: str | None = None, **attributes: Any) -> type:
    """A stand-in for the transform class ``ref`` names, of ``base`` (docutils' ``Transform`` or Sphinx's
    ``SphinxPostTransform``) at ``priority``: applied to a page, it asks ``when`` (a reference to a
    predicate of the transform, as ``made_here``) and, where there is work, makes the transform itself on
    the same document (``attributes`` set on it) and applies it, which keeps its own checks (a post
    transform's ``builders``)."""

    gate = function(when) if when is not None else None  # imported once, on the first page

    def apply(self: Any, **kwargs: Any) -> None:
        if gate is not None and not gate(self):
            return
        real = resolve(ref)(self.document, startnode=self.startnode)
        real.__dict__.update(attributes)
        real.apply(**kwargs)

    name = ref.partition(":")[2]
    return type(name, (base,), {"default_priority": priority, "apply": apply, "ref": ref, "__module__": module_of(ref)})
