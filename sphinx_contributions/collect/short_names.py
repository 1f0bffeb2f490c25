"""The bare names (``{pr}``, ``:::{fix}``): a convenience beside the ``contrib`` domain's names, which work
on any site (``{contrib:pr}``, ``:::{contrib:fix}``).

Bare role and directive names are shared ground: sphinx-issues defines ``:issue:`` and ``:pr:``, a site's
``extlinks`` may name its links ``pr`` or ``issue`` (sphinx-design's own docs do), and ``fix`` or
``project`` are words any extension may take. So each name of the domain's tables
(:attr:`~.domain.ContributionsDomain.directives`, :attr:`~.domain.ContributionsDomain.roles`, the one
registry of the extension's names) is added bare only where nothing holds it yet, checked once everything
else has registered its own: every extension's ``setup()`` and the site's own (``conf.py``) run before
``builder-inited``, and ``sphinx.ext.extlinks`` registers its roles at ``builder-inited`` (priority 500),
before this handler (the last one). A name that is taken stays the site's: nothing is overridden
(Sphinx's "already registered" warning would fail a strict build), and a write-up that uses it gets one
``[contrib.short_name]`` warning naming the namespaced form to write (:mod:`..check.structure`). The setting
``contributions_short_names = False`` adds none.

The names are registered in the build's own process before any page is read, so parallel readers (forked
from it) have them too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..read.names import is_known
from .domain import ContributionsDomain, get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx


#: the short names this extension registered in this process: docutils keeps a build's registrations for
#: the next build in the same process where nothing restores its registries (a test, a warm preview)
ADDED: set[tuple[str, str]] = set()


def add_short_names(app: Sphinx) -> None:
    """``builder-inited``, last: each of the domain's names, bare, where no extension, extlink, docutils
    or domain (``std``, the primary one) holds it."""
    if not app.config.contributions_short_names:
        return
    taken = set()
    for kind, names, add in (
        ("directive", ContributionsDomain.directives, app.add_directive),
        ("role", ContributionsDomain.roles, app.add_role),
    ):
        for name, ours in names.items():
            if not is_known(app.env, kind, name):
                add(name, ours)
                ADDED.add((kind, name))
            elif (kind, name) not in ADDED:  # held by another extension, not by this one's earlier build
                taken.add((kind, name))
    get_domain(app.env).taken_short_names = frozenset(taken)
