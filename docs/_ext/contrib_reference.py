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
from sphinx import addnodes
from sphinx.domains.rst import ReSTDirective, ReSTRole
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


#: each directive: (its argument, its content, an example in MyST); the options are the directive's own
#: table (``option_doc``, beside its ``option_spec``)
DIRECTIVE_DOCS: dict[str, tuple[str, str, str]] = {
    "contribution": (
        "none",
        "options only (``:name: value`` lines): one header per page, under its title, before its sections",
        ":::{contribution}\n:repo: example-org/demo\n:pr: 7\n:status: merged\n"
        ":summary: Requests with different options no longer share one cache entry.\n:tags: caching\n:::",
    ),
    "problem": (
        "optional: the heading (default: Problem)",
        "the write-up's first section: what was wrong, for whom, and how it showed",
        ":::{problem}\nTwo requests with different options got one answer.\n:::",
    ),
    "root-cause": (
        "optional: the heading (default: Root cause)",
        "the second section: why it happened",
        ":::{root-cause}\nThe cache key left the options out.\n:::",
    ),
    "fix": (
        "optional: the heading (default: Fix)",
        "the third section: what changed, and why this way",
        ":::{fix}\nThe key includes the options.\n:::",
    ),
    "verification": (
        "optional: the heading (default: Verification)",
        "the fourth section: how you know it works; it usually holds the ``metric`` figures (then its fence "
        "takes four colons)",
        "::::{verification}\nA test checks both answers.\n\n:::{metric} Wrong answers\n:before: 12\n:after: 0\n"
        ":unit: of 100\n:::\n::::",
    ),
    "metric": (
        "optional: the figure's label",
        "none: options only",
        ":::{metric} Time to first token\n:before: 180\n:after: 95\n:unit: ms\n:headline:\n:::",
    ),
    "known-limits": (
        "optional: the title (default: Known limits)",
        "what the change does not do, as a callout, usually at the end of ``verification``",
        ":::{known-limits}\nfloat16 on GPU still fails, as before the change.\n:::",
    ),
    "contributions": (
        "none",
        "none: options only; the listing is built from every write-up when the page is written",
        ":::{contributions}\n:layout: cards\n:sort: date\n:limit: 3\n:::",
    ),
    "projects": (
        "none",
        "``project`` intros only; one section per project that has a write-up",
        "::::{projects}\n:::{project} demo\n:heading: The demo project\nA small library the write-ups fix.\n:::\n::::",
    ),
    "project": (
        "the project (display name or repository name, any case)",
        "the project's intro, Markdown; inside a ``projects`` listing",
        ":::{project} demo\n:heading: The demo project\nA small library the write-ups fix.\n:::",
    ),
}

#: each role: (what it links to, the forms of its target, an example in MyST)
ROLE_DOCS: dict[str, tuple[str, str, str]] = {
    "contrib": (
        "a write-up of the site, or one of its sections, titled with the write-up's title",
        "``KEY`` or ``KEY#section`` (``demo#7``, ``demo#7#fix``), any case; ``text <KEY>`` for your own text",
        "{contrib}`demo#7` and {contrib}`the fix <demo#7#fix>`",
    ),
    "pr": (
        "a pull request (a merge request on GitLab)",
        "``owner/repo#N``, ``gitlab.com/group/name#N``, ``codeberg.org/owner/repo#N``, or ``#N`` on a write-up "
        "for its own repository; ``text <…>`` for your own text",
        "{pr}`example-org/demo#12` or, on the write-up, {pr}`#12`",
    ),
    "issue": (
        "an issue",
        "the same forms as ``pr``: ``owner/repo#N``, or ``#N`` on a write-up for its own repository",
        "{issue}`example-org/demo#5`",
    ),
    "export": (
        "an export the extension writes beside the site (the text alone in books)",
        "``contributions.json``, ``contributions.schema.json`` or ``contributions.atom``",
        "{export}`the feed <contributions.atom>`",
    ),
}

#: each event: (when it fires, its arguments after ``app``, what a handler may do, what it must not)
EVENT_DOCS: dict[str, tuple[str, str, str, str]] = {
    "contributions-record": (
        "once for each write-up, when the page has been read and its record made (in the process that read "
        "the page: a parallel build's worker)",
        "``docname``: the page; ``record``: its ``sphinx_contributions.records.Contribution``, a frozen "
        "dataclass (key, repository, pull request, title, summary, status, tags, date, sections, figures)",
        "read the record; warn about it (``sphinx.util.logging``, with the page as location); keep data of its "
        "own keyed by ``docname`` (in its own domain or env-collector, with their purge and merge steps)",
        "change the record or the page (it is frozen; listings, exports and the feed read it as is); keep state "
        "in module globals (a parallel build would lose it)",
    ),
}


def myst_form(example: str) -> str:
    """The reST form of a MyST example: ``:::{name} arg`` → ``.. contrib:name:: arg``, options indented."""
    lines, out = example.splitlines(), []
    depth = 0
    for line in lines:
        opening = re.match(r"^(:{3,})\{(?P<name>[\w-]+)\}\s*(?P<arg>.*)$", line)
        if opening:
            out.append("   " * depth + f".. {opening['name']}::" + (f" {opening['arg']}" if opening["arg"] else ""))
            depth += 1
        elif re.match(r"^:{3,}$", line):
            depth -= 1
        else:
            out.append(("   " * depth + line) if line else "")
    return "\n".join(out)


def code(language: str, text: str) -> str:
    return f".. code-block:: {language}\n\n" + indent(text) + "\n"


class DirectivesReference(GeneratedDirective):
    def text(self) -> str:
        from sphinx_contributions.options import OptionDoc

        out = []
        for name, cls in extension_names()[0].items():
            argument, content, example = DIRECTIVE_DOCS.get(name, ("", "", ""))
            out.append(f".. rst:directive:: contrib:{name}\n")
            body = [f"{first_line(cls.__doc__)} Short name: ``{name}``.\n"]
            body.append(f":Argument: {argument or '(no description)'}\n:Content: {content or '(no description)'}\n")
            body.append("MyST:\n\n" + code("markdown", example or "(no example)"))
            body.append("reStructuredText:\n\n" + code("rst", myst_form(example)))
            docs: dict[str, OptionDoc] = getattr(cls, "option_doc", {})
            for option in sorted(getattr(cls, "option_spec", None) or {}):
                found = docs.get(option)
                body.append(f".. rst:directive:option:: {option}\n")
                if found is None:
                    body.append(indent("(no description)") + "\n")
                    continue
                body.append(indent(f":type: {found.type}\n:default: {found.default}\n"))
                body.append(indent(self.markdown(found.meaning)) + "\n")
            out.append(indent("\n".join(body)))
            out.append("")
        return "\n".join(out)

    @staticmethod
    def markdown(text: str) -> str:
        """The option tables' `code` as reST's ``code``."""
        return re.sub(r"(?<!`)`([^`]+)`(?!`)", r"``\1``", text)


class RolesReference(GeneratedDirective):
    def text(self) -> str:
        out = []
        for name in extension_names()[1]:
            target, forms, example = ROLE_DOCS.get(name, ("(no description)", "(no description)", ""))
            out.append(f".. rst:role:: contrib:{name}\n")
            body = [f"Links to {target}. Short name: ``{name}``.\n", f":Target: {forms}\n"]
            body.append("MyST:\n\n" + code("markdown", example or "(no example)"))
            rst = re.sub(r"\{(\w+)\}`", r":\1:`", example)
            body.append("reStructuredText:\n\n" + code("rst", rst))
            out.append(indent("\n".join(body)))
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

        from sphinx_contributions.warnings import WARNING_DOCS, ContribWarning

        comments = ModuleAnalyzer.for_module("sphinx_contributions.warnings").find_attr_docs()
        out = []
        for member in ContribWarning:
            cause = " ".join(comments.get(("ContribWarning", member.name), ["(no description)"])).strip()
            cause = _PY_ROLE.sub(r"``\1``", cause)  # the comments' Python cross-references, as code here
            found = WARNING_DOCS.get(member)
            kind = f"contrib.{member.value}"
            out.append(f".. contrib-warning:: {kind}\n")
            body = [f":Cause: {cause[0].upper()}{cause[1:]}.\n"]
            if found is None:
                body.append(":Fix: (no description)\n")
            else:
                body.append(
                    "The message, for one case:\n\n" + code("text", f"page.md:7: WARNING: {found.example} [{kind}]")
                )
                body.append(f":Fix: {DirectivesReference.markdown(found.fix)}\n")
            body.append(f':Silence: ``suppress_warnings = ["{kind}"]`` in ``conf.py`` (this kind alone).\n')
            out.append(indent("\n".join(body)))
            out.append("")
        return "\n".join(out)


class EventsReference(GeneratedDirective):
    def text(self) -> str:
        from sphinx_contributions.extension import EVENTS

        out = []
        for name, arguments in EVENTS.items():
            when, args, may, may_not = EVENT_DOCS.get(name, ("(no description)",) * 4)
            out.append(f".. contrib-event:: {name}\n")
            body = [
                f":When: {when}\n",
                f":Arguments: ``app, {arguments}``: {args}\n",
                f":A handler may: {may}\n",
                f":A handler must not: {may_not}\n",
                "Connect to it in your extension's ``setup``:\n",
                code("python", f"def setup(app):\n    app.connect({name!r}, on_record)"),
            ]
            out.append(indent("\n".join(body)))
        return "\n".join(out)


class MystDirectiveSignature(ReSTDirective):
    """``rst:directive``, its signature in MyST's form first (``:::{contrib:metric}``), reST's beside it; the
    target and the inventory's name stay Sphinx's (``contrib:metric``)."""

    def handle_signature(self, sig: str, signode: addnodes.desc_signature) -> str:
        name = ReSTDirective.handle_signature(self, sig, addnodes.desc_signature(sig, ""))
        myst = f":::{{{name}}}"
        signode["fullname"] = name
        signode += addnodes.desc_name(myst, myst)
        signode += addnodes.desc_annotation(f"   reST: .. {name}::", f"   reST: .. {name}::")
        return name


class MystRoleSignature(ReSTRole):
    """``rst:role``, its signature in MyST's form first (``{contrib:pr}```…```), reST's beside it."""

    def handle_signature(self, sig: str, signode: addnodes.desc_signature) -> str:
        myst = f"{{{sig}}}`…`"
        signode["fullname"] = sig
        signode += addnodes.desc_name(myst, myst)
        signode += addnodes.desc_annotation(f"   reST: :{sig}:`…`", f"   reST: :{sig}:`…`")
        return sig


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive_to_domain("rst", "directive", MystDirectiveSignature, override=True)
    app.add_directive_to_domain("rst", "role", MystRoleSignature, override=True)
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
