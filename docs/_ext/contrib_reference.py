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
from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from sphinx import addnodes
from sphinx.domains.rst import ReSTDirective, ReSTRole
from sphinx.util.docutils import SphinxDirective

from sphinx_contributions.warnings import ContribWarning

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


class WarningDoc(NamedTuple):
    """One warning kind, as the manual's reference shows it beside its cause (the member's comment)."""

    #: the message as a build shows it, for one case (the part before ``[contrib.KIND]``)
    example: str
    #: how to fix it
    fix: str


#: each warning kind (:class:`ContribWarning`): a message as a user sees it, and the fix
WARNING_DOCS: dict[ContribWarning, WarningDoc] = {
    ContribWarning.MISSING_OPTION: WarningDoc(
        "contribution is missing required option(s): repo; the page is not listed",
        "Add the option named to the `contribution` header: `:repo:`, `:pr:` and `:summary:` are required.",
    ),
    ContribWarning.BAD_OPTION: WarningDoc(
        "option ignored: date '2023-02-30' does not exist (day is out of range for month)",
        "Write the value in the form the message gives; a required option's bad value leaves the page unlisted.",
    ),
    ContribWarning.PLACEHOLDER: WarningDoc(
        "contribution repo#1: the title is not written yet (it is still a 'TODO' placeholder)",
        "Replace the `TODO: …` title or summary that `contributions new` wrote with your own words.",
    ),
    ContribWarning.MISSING_TITLE: WarningDoc(
        "contribution repo#1 has no heading; its key is used as title",
        "Give the page a `# Title` line above the header.",
    ),
    ContribWarning.BAD_STATUS: WarningDoc(
        "option ignored: status must be one of merged, open, closed, draft; got 'landed'",
        "Write one of `merged`, `open`, `closed` or `draft`, or remove `:status:`.",
    ),
    ContribWarning.BAD_METRIC: WarningDoc(
        "metric not shown: before must be a number such as 0.5 or 1.03e-1, got 'fast'",
        "Give the figure a label and two numbers (`:before:`, `:after:`); `:better:` is `lower` or `higher`.",
    ),
    ContribWarning.BAD_EVIDENCE: WarningDoc(
        "metric 'Latency': evidence left out: 'PR #12' is not a pull request, issue, commit or URL",
        "Write each item as `PR 12`, `issue 3`, `commit 0123abc`, `owner/repo#N`, `owner/repo@SHA` or an address.",
    ),
    ContribWarning.MISSING_SECTION: WarningDoc(
        "contribution repo#1 is missing section(s): fix, verification",
        "Add the sections named: a write-up has `problem`, `root-cause`, `fix` and `verification`, in order.",
    ),
    ContribWarning.DUPLICATE_SECTION: WarningDoc(
        "section 'problem' is given twice on this page; only the first has the anchor '#problem'",
        "Merge the two sections into one.",
    ),
    ContribWarning.SECTION_OUTSIDE: WarningDoc(
        "'fix' belongs on a contribution page, after the 'contribution' directive",
        "Add a `contribution` header above the sections, or use an ordinary heading on this page.",
    ),
    ContribWarning.UNWRITTEN_SECTION: WarningDoc(
        "section 'fix' is not written yet (it holds only comments or nothing)",
        "Replace the section's `%` prompt lines with the write-up, or mark it `:unknown:`.",
    ),
    ContribWarning.DUPLICATE_HEADER: WarningDoc(
        "a page holds one contribution; this second 'contribution' directive is ignored",
        "Move the second write-up to a page of its own (`contributions new` starts one).",
    ),
    ContribWarning.DUPLICATE_KEY: WarningDoc(
        "contribution good#1 is already declared in good.md; this page is not listed",
        "Delete one of the two pages, or give this one a key of its own (`:key:`).",
    ),
    ContribWarning.UNKNOWN_KEY: WarningDoc(
        "{contrib} target not found: 'godo#9'; the closest existing keys: 'good#1'",
        "Write an existing key (`<repository name>#<pr>`); where the message names a page that is not listed, "
        "fix that page's own warning first.",
    ),
    ContribWarning.UNKNOWN_SECTION: WarningDoc(
        "{contrib} target not found: 'good#1#causes': good#1 has no section 'causes' (its sections: problem, "
        "root-cause, fix, verification)",
        "Write one of the sections the message lists after the key.",
    ),
    ContribWarning.DUPLICATE_LABEL: WarningDoc(
        "contribution good#1: the label 'good-1-fix' is already defined in bad.md; {ref} links to that one",
        "Rename the other label: the write-up's labels are `<repository name>-<pr>` and `…-<section>`.",
    ),
    ContribWarning.TAG_CLASH: WarningDoc(
        "contribution b#2: the tag 'C#' and 'C' of a.md share one tag page (c); spell them the same, or tell "
        "them apart",
        "Spell the tag one way on every page, or rename one so their addresses differ.",
    ),
    ContribWarning.DRAFT_LINK: WarningDoc(
        "{contrib} links to draft#4, a draft (draft) that the published site leaves out",
        "Publish the draft (set its `:status:`), or link to it once it is published.",
    ),
    ContribWarning.DRAFT_NOT_EXCLUDED: WarningDoc(
        "contribution a#1 is a draft but its header was not found before the build (is it nested in another "
        "directive?), so it would be published; put the 'contribution' directive at the top level of the page",
        "Put the `contribution` header at the top level of the page, not inside another directive.",
    ),
    ContribWarning.BAD_TARGET: WarningDoc(
        "{pr} target not linked: expected 'owner/repo#N' or '#N', got 'transformers#1'",
        "Write `owner/repo#N`, or `#N` on a write-up for its own repository.",
    ),
    ContribWarning.UNKNOWN_EXPORT: WarningDoc(
        "{export} 'feed.xml' is not one of the exports (contributions.json, contributions.schema.json, "
        "contributions.atom); shown as text",
        "Name one of the exports the message lists.",
    ),
    ContribWarning.BAD_LISTING: WarningDoc(
        "contributions listing: layout must be one of table, cards, proof, got 'card': did you mean 'cards'?",
        "Write the option's value as the message says; a `projects` listing holds `project` intros only.",
    ),
    ContribWarning.UNKNOWN_PROJECT: WarningDoc(
        "project intro 'numpy' names no project with a write-up; it is not shown",
        "Name a project that has a write-up (its display name or repository name), inside a `projects` listing.",
    ),
    ContribWarning.CONFIG: WarningDoc(
        'myst_enable_extensions has no "colon_fence": write-ups\' ":::" directives would be read as plain text; '
        'add "colon_fence" to myst_enable_extensions in conf.py',
        "Change the setting of `conf.py` the message names, at the line it gives.",
    ),
    ContribWarning.OPAQUE_SLUG: WarningDoc(
        "tag '注意' has no Latin letter or digit, so its page gets an opaque address, tags/tag-4ffef8f3: add Latin "
        "letters or digits to the tag (a transliteration, say) for a readable one",
        "Add Latin letters or digits to the tag or project name.",
    ),
    ContribWarning.STRUCTURE: WarningDoc(
        "content at line 17 is outside the sections, between the 'root-cause' and 'verification' sections: a "
        "write-up's text goes inside its four sections; move it into one of them",
        "Keep the page to its title, the header, then the four sections in order, everything inside them.",
    ),
    ContribWarning.NESTING: WarningDoc(
        "the 'fix' section opened at line 17 is not closed before the 'verification' section (line 21), so "
        "'verification' is inside it: close 'fix' with ':::' on a line before ':::{verification}'",
        "Close each section with its own fence; a section that holds a `metric` takes four colons.",
    ),
    ContribWarning.COMPAT: WarningDoc(
        "sphinx 9.1 has no EventManager.listeners: …",
        "Install the versions the extension supports, or update the extension; the message says what the build "
        "loses meanwhile.",
    ),
    ContribWarning.DUPLICATE_ID: WarningDoc(
        "the id 'problem' is given twice on this page, to the heading 'Problem' (line 9) and the 'problem' "
        "section (line 11): ids must be unique; rename or remove the heading",
        "Rename or remove the heading or label that repeats a section's name.",
    ),
    ContribWarning.FORGE_MISMATCH: WarningDoc(
        "contribution demo#1: the status 'open' is not what contributions.lock.json says: merged",
        "Correct the page, or run `contributions sync` to fetch the forge's facts again.",
    ),
    ContribWarning.LOCK: WarningDoc(
        "contributions.lock.json cannot be read: …",
        "Run `contributions sync` to write the lock again, or delete it.",
    ),
    ContribWarning.UNKNOWN_NAME: WarningDoc(
        "'contribution' has no option 'state': did you mean 'status'? Write ':status:'",
        "Write the name the message suggests.",
    ),
    ContribWarning.SHORT_NAME: WarningDoc(
        "{pr} is another extension's role on this site (extlinks or sphinx-issues, say, holds the short name "
        "'pr'), so this is not a link of sphinx-contributions: write {contrib:pr}",
        "Write the namespaced form the message names; the site's own role stays as it is.",
    ),
    ContribWarning.FILE_NAME: WarningDoc(
        "the file name numpy-27001.md gives another number than ':pr:', so the page is published as "
        "numpy#27010: correct ':pr:', or rename the file to numpy-27010.md",
        "Correct `:pr:`, or rename the file as the message says.",
    ),
    ContribWarning.EMPTY_PAGE: WarningDoc(
        "the page is empty: write the contribution here ('contributions new' starts one from its pull request) "
        "or delete the file",
        "Write the page, or delete the file.",
    ),
    ContribWarning.LONG_TITLE: WarningDoc(
        "contribution demo#1: the title is 142 characters long; listings, cards and the browser's tab show "
        "about 120: shorten it and say the rest in the summary or the sections",
        "Shorten the title; say the rest in the summary.",
    ),
    ContribWarning.MISSING_THEME: WarningDoc(
        "html_theme 'no_such_theme' is not installed; install it with: pip install no-such-theme (this build "
        "uses alabaster instead)",
        "Install the theme (add it to `requirements.txt`), or correct `html_theme`.",
    ),
    ContribWarning.SHALLOW_HISTORY: WarningDoc(
        "the git history is shallow: this write-up's feed entry (no 'date') would take the time of the clone's "
        "boundary commit, not of its last commit; fetch the whole history ('git fetch --unshallow') or give the "
        "page a ':date:'",
        "Fetch the whole history (`git fetch --unshallow`), or give the write-up a `:date:`.",
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
