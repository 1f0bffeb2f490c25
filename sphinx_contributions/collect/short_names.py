"""The bare names (``{pr}``, ``:::{fix}``) beside the ``contrib`` domain's, added last only where nothing holds
them; a write-up that uses a taken one gets a ``[contrib.short_name]`` warning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..read.names import is_known
from .domain import ContributionsDomain, get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx


#: the short names this extension registered in this process (docutils keeps them for the next build in it)
ADDED: set[tuple[str, str]] = set()


def add_short_names(app: Sphinx) -> None:
    """``builder-inited``, last: each of the domain's names, bare, where nothing holds it."""
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
