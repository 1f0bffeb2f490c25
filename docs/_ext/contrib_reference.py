"""The manual's reference, generated from the package's own tables (as MyST-Parser's ``_docs.py`` renders
``MdParserConfig``): nothing in the reference pages is copied from the code, so a directive option, a
setting, a command option or a warning kind added in the code appears here without editing a page.

- ``contrib-directives``: every directive of the extension (``rst:directive``) and each of its options
  (``rst:directive:option``), from each directive class's ``option_spec``;
- ``contrib-roles``: every role (``rst:role``);
- ``contrib-settings``: every row of :data:`sphinx_contributions.settings.SETTINGS` (``confval``);
- ``contrib-commands``: every subcommand of the ``contributions`` command (a ``command`` object of its own)
  and each of its options (``program`` / ``option``), from the argparse parser;
- ``contrib-warnings``: every :class:`~sphinx_contributions.warnings.ContribWarning` kind, ``[contrib.*]``,
  with what causes it (the enum member's own comment);
- ``contrib-events``: every event of :data:`sphinx_contributions.extension.EVENTS`.

Names are documented in the ``contrib:NAME`` form (the ``contrib`` domain's), with the short bare name
beside it. The one place that lists the extension's directives and roles is :func:`extension_names`.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: a Python cross-reference in the code's comments (``:func:`.warnings.closest```)
_PY_ROLE = re.compile(r":(?:py:)?\w+:`[~.]*([^`]+)`")


def extension_names() -> tuple[dict[str, type], dict[str, Any]]:
    """The extension's directives (name → class) and roles (name → role): the ``contrib`` domain's own
    tables, the one registry of its names (the bare short names are added from them where free)."""
    from sphinx_contributions.collect.domain import ContributionsDomain

    return dict(sorted(ContributionsDomain.directives.items())), dict(sorted(ContributionsDomain.roles.items()))


def first_line(text: str | None) -> str:
    return " ".join((text or "").strip().split("\n\n", 1)[0].split())


def indent(text: str, by: int = 3) -> str:
    return textwrap.indent(text, " " * by)


class GeneratedDirective(SphinxDirective):
    """A directive that writes reStructuredText and parses it here."""

    has_content = False

    def text(self) -> str:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        return self.parse_text_to_nodes(self.text())


class DirectivesReference(GeneratedDirective):
    def text(self) -> str:
        out = []
        for name, cls in extension_names()[0].items():
            out.append(f".. rst:directive:: contrib:{name}\n")
            out.append(indent(f"Short name: ``{name}``. {first_line(cls.__doc__)}") + "\n")
            for option in sorted(getattr(cls, "option_spec", None) or {}):
                out.append(indent(f".. rst:directive:option:: {option}\n"))
            out.append("")
        return "\n".join(out)


class RolesReference(GeneratedDirective):
    def text(self) -> str:
        out = []
        for name, role in extension_names()[1].items():
            out.append(f".. rst:role:: contrib:{name}\n")
            out.append(indent(f"Short name: ``{name}``. {first_line(type(role).__doc__ or role.__doc__)}") + "\n")
        return "\n".join(out)


class SettingsReference(GeneratedDirective):
    def text(self) -> str:
        from sphinx_contributions.settings import SETTINGS

        out = []
        for row in SETTINGS:
            default = "(worked out from other settings)" if callable(row.default) else f"``{row.default!r}``"
            out.append(f".. confval:: {row.name}\n   :type: {row.type_words}\n   :default: {default}\n")
            out.append(indent(f"{row.description[0].upper()}{row.description[1:]}. A change rebuilds: {row.rebuild}."))
            out.append("")
        return "\n".join(out)


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(sorted(action.choices.items()))
    return {}


class CommandsReference(GeneratedDirective):
    def text(self) -> str:
        from sphinx_contributions.cli.common import PROG
        from sphinx_contributions.cli.main import build_parser

        out = []
        for name, sub in subcommands(build_parser()).items():
            out.append(f".. contrib-command:: {PROG} {name}\n")
            out.append(indent(first_line(sub.description) or "") + "\n")
            out.append(f".. program:: {PROG} {name}\n")
            for action in sub._actions:
                if isinstance(action, argparse._HelpAction):
                    continue
                if action.option_strings:
                    metavar = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
                    signature = ", ".join(f"{flag}{metavar}" for flag in action.option_strings)
                else:
                    signature = str(action.metavar or action.dest)
                out.append(f".. option:: {signature}\n")
                out.append(indent((action.help or "").replace("*", r"\*") % {"default": action.default}) + "\n")
        return "\n".join(out)


class WarningsReference(GeneratedDirective):
    def text(self) -> str:
        from sphinx.pycode import ModuleAnalyzer

        from sphinx_contributions.warnings import ContribWarning

        comments = ModuleAnalyzer.for_module("sphinx_contributions.warnings").find_attr_docs()
        out = []
        for member in ContribWarning:
            cause = " ".join(comments.get(("ContribWarning", member.name), ["(no description)"])).strip()
            cause = _PY_ROLE.sub(r"``\1``", cause)  # the comments' Python cross-references, as code here
            out.append(f".. contrib-warning:: contrib.{member.value}\n")
            out.append(
                indent(f'Cause: {cause} Silence it alone with ``suppress_warnings = ["contrib.{member.value}"]``.')
            )
            out.append("")
        return "\n".join(out)


class EventsReference(GeneratedDirective):
    def text(self) -> str:
        from sphinx_contributions.extension import EVENTS

        out = []
        for name, arguments in EVENTS.items():
            out.append(f".. contrib-event:: {name}\n")
            out.append(indent(f"Arguments: ``app, {arguments}``.") + "\n")
            out.append(indent(f"Connect to it with ``app.connect({name!r}, handler)``.") + "\n")
        return "\n".join(out)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_object_type("contrib-command", "contrib-command", objname="command", indextemplate="pair: %s; command")
    app.add_object_type("contrib-warning", "contrib-warning", objname="warning kind", indextemplate="pair: %s; warning")
    app.add_object_type("contrib-event", "contrib-event", objname="event", indextemplate="pair: %s; event")
    app.add_directive("contrib-directives", DirectivesReference)
    app.add_directive("contrib-roles", RolesReference)
    app.add_directive("contrib-settings", SettingsReference)
    app.add_directive("contrib-commands", CommandsReference)
    app.add_directive("contrib-warnings", WarningsReference)
    app.add_directive("contrib-events", EventsReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
