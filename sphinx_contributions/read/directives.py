"""The page-level directives: ``contribution`` (the header) and the four sections, and the base of the
extension's directives with options (:class:`OptionsDirective`: option lines, did-you-mean for a
misspelt option, the hint for a ``#`` that MyST read as a comment).

Directives only validate their own options and build nodes; everything that needs the whole page
(which sections exist, the metrics for the header) happens in the domain once the page is read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from .. import nodes as cn
from ..i18n import _
from ..keys import SECTIONS, is_opaque_slug, label, make_key, names_another_pr, project_page, tag_page
from ..markup import inline_markup
from ..options import (
    OptionDoc,
    OptionError,
    comma_form,
    is_comment_only_html,
    parse_date,
    parse_int_list,
    parse_key,
    parse_positive_int,
    parse_repo,
    parse_status,
    parse_tags,
    parse_text,
)
from ..records import Inline, plain_text
from ..warnings import ContribWarning, closest, warn
from .marks import MarkingDirective
from .names import misspelt_header
from .sources import bare_name, closing_line, fence_markup, opening_line, page_being_read

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.util.typing import OptionSpec


_FIELD_OPTION = re.compile(r"^\s*:(?P<name>[A-Za-z][\w-]*):")
_YAML_OPTION = re.compile(r"^(?P<name>[A-Za-z][\w-]*)\s*:")
#: a ``#`` that starts a number (``#27001``), at the start of a value or after a space or comma
_HASH_NUMBER = re.compile(r"(?:^|(?<=[\s,]))#(?=[0-9])")
#: a hashtag in a ``:tags:`` value, which MyST reads as the start of a comment
_HASH_TAG = re.compile(r"(?:^|(?<=[\s,\[]))#(?=\S)")
#: a ``#`` that MyST reads as the start of a comment in a directive's options: at the start of a value or
#: after a space (its option tokenizer's rule)
_COMMENT = re.compile(r"(?:^|\s)#")
#: words of a ``:tags:`` value without commas from which on it is read as several tags written with spaces
SPACED_TAG_WORDS = 3


def _kept(value: object) -> object:
    """The converter of an option name the directive does not have: its value kept as written."""
    return value


class AnyOptionSpec(dict):  # type: ignore[type-arg]
    """An option table that takes any option name: a name it does not hold is passed on to the directive
    (converted by :func:`_kept`), which says what was meant in one warning of its own
    (``[contrib.unknown_name]``, with the did-you-mean) and ignores it. MyST (and docutils) would otherwise
    refuse the name first with a warning of their own (``[myst.directive_option]``): two warnings for one
    typo. Only the extension's directives with options use this table; every other directive keeps
    MyST's warning. Iterating, ``in`` and ``len`` see the directive's real options only."""

    def __missing__(self, name: str) -> Callable[[object], object]:
        return _kept


class OptionsDirective(MarkingDirective):
    """A directive of the extension with options: where each option is written, and the mistakes that
    lose an option before :meth:`run` sees it (a misspelt name, a ``#`` read as a comment).

    Each subclass's ``option_spec`` becomes an :class:`AnyOptionSpec`: an unknown option name reaches
    the directive, which reports it once (:meth:`warn_misspelt_options`) and drops it from
    ``self.options``."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("option_spec")
        if spec and not isinstance(spec, AnyOptionSpec):
            cls.option_spec = AnyOptionSpec(spec)
        run = cls.__dict__.get("run")
        if run is not None and not getattr(run, "reports_comments", False):

            def run_then_report(self: OptionsDirective) -> list[nodes.Node]:
                result: list[nodes.Node] = run(self)
                self.warn_lost_comments()
                return result

            run_then_report.reports_comments = True  # type: ignore[attr-defined]
            run_then_report.__doc__ = run.__doc__
            cls.run = run_then_report  # type: ignore[method-assign,assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        known = self.option_spec or {}
        #: option names as given that the directive does not have, in the order written
        self.unknown_options = [option for option in self.options if option not in known]
        self.options = {option: value for option, value in self.options.items() if option in known}
        #: the options a warning was given about (at their line): a ``#`` in them is reported there
        self.located: set[str] = set()

    def written_text(self) -> tuple[int, list[str]]:
        """The directive's text as written and the line of its first line: in a Markdown page, the page's
        lines from its fence's opening line to its closing line (as its parser got them; MyST 5.0 and 5.1
        give ``block_text`` without the option lines); elsewhere (reStructuredText, an included file),
        ``block_text``, which docutils gives whole."""
        source, _ = self.get_source_info()
        if source is not None and source == self.state.document.get("source"):  # not a string parsed alone
            lines = page_being_read(self.env).lines
            opening = opening_line(lines, self.lineno, bare_name(self.name))
            if 0 < opening <= len(lines) and fence_markup(lines[opening - 1]):
                close = closing_line(lines, opening) or len(lines) + 1
                return opening, lines[opening - 1 : close - 1]
        return self.lineno, self.block_text.splitlines()

    def option_line(self, name: str) -> int:
        """The source line of option ``name``: its line in the directive's text as written (MyST's
        ``:name: value`` lines or ``---`` YAML block, or reStructuredText's field list); the directive's own
        line when the option is not given."""
        pattern = re.compile(rf"^\s*:?{re.escape(name)}\s*:")
        first, lines = self.written_text()
        for offset, text in enumerate(lines[1:], start=1):
            if pattern.match(text):
                return first + offset
        return self.lineno

    def option_location(self, name: str) -> str:
        """``source:line`` of option ``name``, for warnings about its value."""
        self.located.add(name)
        source, _ = self.get_source_info()
        return f"{source}:{self.option_line(name)}"

    def written_options(self) -> list[tuple[str, str]]:
        """(name, text after the name) of each option line as written, before MyST drops an unknown one
        or a comment: the ``:name: value`` lines at the top of the body, or the keys of a ``---`` block."""
        lines = self.written_text()[1][1:]
        found: list[tuple[str, str]] = []
        if lines and lines[0].strip() == "---":
            for text in lines[1:]:
                if text.strip() == "---":
                    break
                if match := _YAML_OPTION.match(text):
                    found.append((match["name"], text[match.end() :].strip()))
            return found
        for text in lines:
            match = _FIELD_OPTION.match(text)
            if match is None:
                break
            found.append((match["name"], text[match.end() :].strip()))
        return found

    def misspelt_options(self) -> dict[str, str | None]:
        """Each option name given that the directive does not have → the option it is a typo of, or None
        where it is near none."""
        known = tuple(self.option_spec or {})
        return {name: closest(name, known) for name in self.unknown_options}

    def warn_misspelt_options(
        self, missing: tuple[str, ...] = (), effect: str = "the page is not listed"
    ) -> dict[str, str]:
        """One warning per unknown option name (the directive ignores the option), the only one for it:
        the option meant where the name is near one, else the directive's options; returns the near
        misses. A near miss of a required option in ``missing`` says its ``effect``."""
        misspelt = {}
        for name, found in self.misspelt_options().items():
            if found is None:
                known = ", ".join(sorted(self.option_spec or {}))
                message = f"{self.name!r} has no option {name!r}; its options are {known}. The option is ignored"
            else:
                misspelt[name] = found
                said = f"; {effect}" if found in missing else ""
                message = f"{self.name!r} has no option {name!r}: did you mean {found!r}? Write ':{found}:'{said}"
            warn(ContribWarning.UNKNOWN_NAME, message, self.option_location(name))
        return misspelt

    def warn_lost_comments(self) -> None:
        """After :meth:`run`: an option whose ``#`` MyST read as a comment, cutting its value, and about which
        no warning was given: one warning of its own. MyST's warning for it is not given
        (:class:`~.names.OneWarningPerTypo`), so each such ``#`` is said once, by the directive."""
        known = self.option_spec or {}
        for name, written in self.written_options():
            if name not in known or name in self.located or not _COMMENT.search(written):
                continue
            kept = " ".join(str(self.options.get(name) or "").split())
            if kept == " ".join(written.split()):
                continue
            warn(
                ContribWarning.BAD_OPTION,
                f"'#' starts a comment in directive options, so ':{name}:' is read as {kept!r} and the rest is "
                f"lost: remove the '#' (or quote the value)",
                self.option_location(name),
            )

    def comment_hint(self, name: str) -> str | None:
        """For an option whose ``#`` MyST read as the start of a comment (``:pr: #27001``), what to write
        instead; None when the option has no such ``#``."""
        written = next((text for option, text in self.written_options() if option == name), None)
        if written is None or not _HASH_NUMBER.search(written):
            return None
        return f"'#' starts a comment in directive options: write ':{name}: {_HASH_NUMBER.sub('', written)}'"

    def option_text(self, option: str, text: str, *children: nodes.Node, line: int) -> cn.option_text:
        """The author's words of an option (``text``, as written; ``children``: as parsed, else ``text``) as
        a translatable node at ``line`` of the page (:class:`~.nodes.option_text`)."""
        node = cn.option_text(text, "", *(children or [nodes.Text(text)]), option=option)
        node.source, node.line = self.get_source_info()[0], line
        return node


class ContributionDirective(OptionsDirective):
    """The header of a write-up: one per page, before its sections."""

    #: options only; a body is read to say what it is (an option after a blank line, which MyST ends the
    #: options at) rather than MyST's "Has content, but none permitted" and a missing option
    has_content = True
    option_spec: ClassVar[OptionSpec] = {
        "repo": directives.unchanged,
        "pr": directives.unchanged,
        "summary": directives.unchanged,
        "impact": directives.unchanged,
        "issue": directives.unchanged,
        "status": directives.unchanged,
        "tags": directives.unchanged,
        "project": directives.unchanged,
        "date": directives.unchanged,
        "key": directives.unchanged,
    }
    #: each option for the manual's reference (type, default, meaning)
    option_doc: ClassVar[dict[str, OptionDoc]] = {
        "repo": OptionDoc(
            "repository",
            "required",
            "The repository: `owner/name` on GitHub, `gitlab.com/group/name` (subgroups too) on GitLab, "
            "`codeberg.org/owner/name` on Codeberg, or its address. Every link of the page goes to that forge.",
        ),
        "pr": OptionDoc(
            "positive integer", "required", "The pull (merge) request's number. Write `27001`, not `#27001`."
        ),
        "summary": OptionDoc(
            "one sentence, inline Markdown",
            "required",
            "What the change is: shown in the header, and in listings, the feed and the page's description "
            "where there is no `:impact:`.",
        ),
        "impact": OptionDoc(
            "one sentence, inline Markdown",
            "none",
            "What the change means for the project's users: shown in proof rows, cards, tables, the "
            "description, `contributions.json` and the feed.",
        ),
        "issue": OptionDoc(
            "issue numbers, comma-separated", "none", "The issues the change addresses: `12` or `12, 34`."
        ),
        "status": OptionDoc(
            "one of `merged`, `open`, `closed`, `draft`",
            "not stated (the lock's state, when it has one)",
            "The pull request's state; `draft` leaves the page out of the published site.",
        ),
        "tags": OptionDoc(
            "tags, comma-separated",
            "none",
            "Topics: `caching, memory`. A tag enough write-ups carry gets a page of its own.",
        ),
        "project": OptionDoc("text", "the repository's name", "The project's display name."),
        "date": OptionDoc(
            "ISO date `YYYY-MM-DD`",
            "none (the feed takes the page's last commit)",
            "When the change landed; listings and the feed sort by it, newest first.",
        ),
        "key": OptionDoc(
            "`NAME#<pr>`",
            "`<repository name>#<pr>`",
            "The page's own key, for a repository name another owner's write-up already has (`ROCm-sglang#1`).",
        ),
    }

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        document = self.state.document
        if document.get("contrib_rejected") or any(True for _ in document.findall(cn.contribution_header)):
            warn(
                ContribWarning.DUPLICATE_HEADER,
                "a page holds one contribution; this second 'contribution' directive is ignored",
                location,
            )
            return []
        if self.content and self._body_is_options_after_a_blank_line():
            return []
        if self.content:
            warn(
                ContribWarning.BAD_OPTION,
                "the contribution header holds options only (':name: value' lines); the text in it is ignored",
                location,
            )
        missing = tuple(name for name in REQUIRED if not self.options.get(name, "").strip())
        misspelt = set(self.warn_misspelt_options(missing).values())
        if missing:
            unexplained = []
            for name in missing:
                hint = self.comment_hint(name)
                if hint is not None:
                    warn(ContribWarning.BAD_OPTION, f"contribution not listed: {hint}", self.option_location(name))
                elif name not in misspelt:
                    unexplained.append(name)
            if unexplained:
                warn(
                    ContribWarning.MISSING_OPTION,
                    f"contribution is missing required option(s): {', '.join(unexplained)}; the page is not listed",
                    location,
                )
            document["contrib_rejected"] = True  # reported once here, not again by each section
            return []
        attributes: dict[str, object] = {}
        for name, parse in _REQUIRED_PARSERS.items():
            try:
                attributes[name] = parse(self.options[name])
            except OptionError as error:
                warn(ContribWarning.BAD_OPTION, f"contribution not listed: {error}", self.option_location(name))
                document["contrib_rejected"] = True
                return []
        repo, pr = cast("str", attributes["repo"]), cast("int", attributes["pr"])
        if "key" in self.options:  # a key of its own (a repository name another owner's page has)
            try:
                attributes["key"] = parse_key(self.options["key"], pr)
            except OptionError as error:
                warn(ContribWarning.BAD_OPTION, f"option ignored: {error}", self.option_location("key"))
        self._check_file_name(repo, pr)
        markup, translatable, messages = self._summary(repo)
        attributes["summary"] = plain_text(markup) or attributes["summary"]
        attributes["summary_markup"] = markup
        translatables = [translatable]
        if " ".join(self.options.get("impact", "").split()):
            impact, impact_node, impact_messages = self._inline_option("impact", repo)
            attributes["impact"] = plain_text(impact) or " ".join(self.options["impact"].split())
            attributes["impact_markup"] = impact
            translatables.append(impact_node)
            messages += impact_messages
        attributes.update(self._parse_optional())
        node = cn.contribution_header(
            "",
            ids=["contribution"],
            docname=self.env.docname,
            summary_line=self.option_line("summary"),
            status_line=self.option_line("status"),
            **attributes,
        )
        self.set_source_info(node)
        node += translatables
        return [node, *messages]

    def _body_is_options_after_a_blank_line(self) -> bool:
        """A blank line among the header's options: MyST ends the options there and reads the rest as a
        body, so what follows was "missing". One warning, on the first option after the blank line."""
        first = next((index for index, text in enumerate(self.content) if text.strip()), None)
        if first is None or not _FIELD_OPTION.match(self.content[first]):
            return False
        name = _FIELD_OPTION.match(self.content[first])["name"]  # type: ignore[index]
        warn(
            ContribWarning.BAD_OPTION,
            f"contribution not listed: a blank line ends its options, so ':{name}:' and the lines after it are "
            "read as text; remove the blank line above it",
            self.option_location(name),
        )
        self.state.document["contrib_rejected"] = True
        return True

    def _check_file_name(self, repo: str, pr: int) -> None:
        """A write-up named after its repository and another number (``numpy-27001.md``, ``:pr: 27010``)."""
        if not names_another_pr(self.env.docname, repo, pr):
            return
        key = make_key(repo, pr)
        named = self.env.doc2path(self.env.docname, False).name
        warn(
            ContribWarning.FILE_NAME,
            f"the file name {named} gives another number than ':pr:', so the page is published as {key}: "
            f"correct ':pr:', or rename the file to {label(key)}{Path(named).suffix}",
            self.option_location("pr"),
        )

    def _summary(self, repo: str) -> tuple[tuple[Inline, ...], cn.option_text, list[nodes.system_message]]:
        """The summary's inline markup, read by the page's own parser (MyST's inline Markdown: code,
        emphasis, links; ``{pr}`#N``` in the page's repository), and the summary as a translatable node."""
        return self._inline_option("summary", repo)

    def _inline_option(
        self, name: str, repo: str
    ) -> tuple[tuple[Inline, ...], cn.option_text, list[nodes.system_message]]:
        """An option of inline Markdown (``summary``, ``impact``): its markup and its translatable node."""
        text = " ".join(self.options[name].split())
        line = self.option_line(name)
        parsed, messages = self.parse_inline(text, lineno=line)
        site_links: list[str] = []
        markup = inline_markup(parsed, repo, site_links)
        if site_links:
            warn(
                ContribWarning.BAD_OPTION,
                f"the {name} links within the site ({', '.join(map(repr, site_links))}): the {name} is also shown on "
                "other pages, in the feed and in contributions.json, where such a link cannot go, so each is shown "
                "as its text; link a full address (https://…), or put the link in a section",
                self.option_location(name),
            )
        return markup, self.option_text(name, text, *parsed, line=line), messages

    def _tags_as_written(self) -> bool:
        """Tags written as hashtags (``#a #b``: MyST keeps only what comes before the first ``#``) are a
        warning with the comma form, and ignored; tags written as three or more words without commas
        (``caching memory gpu``: one tag) a warning with the comma form, and kept as written. A tag of
        several words is written in quotes (``"seq2seq training loop"``) or beside another (``a b, c``).
        False when the option is to be ignored."""
        written = next((text for option, text in self.written_options() if option == "tags"), None)
        if written is None:
            return True
        if _HASH_TAG.search(written):
            warn(
                ContribWarning.BAD_OPTION,
                f"option ignored: '#' starts a comment in directive options: write ':tags: {comma_form(written)}'",
                self.option_location("tags"),
            )
            return False
        text = written.strip()
        spaced = "," not in text and ";" not in text and text[:1] not in "\"'["
        if spaced and len(text.split()) >= SPACED_TAG_WORDS:
            words = " ".join(text.split())
            warn(
                ContribWarning.BAD_OPTION,
                f"tags are separated by commas: ':tags: {words}' is one tag; write ':tags: {comma_form(text)}' "
                f"for {len(text.split())} tags, or ':tags: \"{words}\"' for one",
                self.option_location("tags"),
            )
        return True

    def _front_matter_tags(self) -> None:
        """A ``tags:`` key in the page's front matter (as ablog reads it) is not a write-up's tags: a hint."""
        metadata = self.env.metadata.get(self.env.docname, {})
        if "tags" not in metadata:
            return
        path = self.env.doc2path(self.env.docname)
        line = None
        lines = page_being_read(self.env).lines  # the page as its parser got it, not the file again
        if lines and lines[0].strip() == "---":
            for number, text in enumerate(lines[1:], start=2):
                if text.strip() == "---":
                    break
                if re.match(r"^tags\s*:", text):
                    line = number
                    break
        value = comma_form(str(metadata["tags"]))
        warn(
            ContribWarning.BAD_OPTION,
            f"front matter 'tags' is not read: a write-up's tags are its header's ':tags:' option; write "
            f"':tags: {value}' in the 'contribution' directive and remove 'tags' from the front matter",
            f"{path}:{line}" if line else (self.env.docname, None),
        )

    def _parse_optional(self) -> dict[str, object]:
        """Optional options: a bad value is reported and left out; the page stays listed."""
        result: dict[str, object] = {}
        self._front_matter_tags()
        for name, parse in _OPTIONAL_PARSERS.items():
            if name not in self.options:
                continue
            if name == "tags" and not self._tags_as_written():
                continue
            try:
                result[name] = parse(self.options[name])
            except OptionError as error:
                kind = ContribWarning.BAD_STATUS if name == "status" else ContribWarning.BAD_OPTION
                hint = self.comment_hint(name)
                warn(kind, f"option ignored: {hint if hint is not None else error}", self.option_location(name))
        for tag in cast("tuple[str, ...]", result.get("tags", ())):
            self._warn_if_opaque("tag", tag, tag_page(tag, self.env.config.contributions_tags_path), "tags")
        if "project" in result:
            project = cast("str", result["project"])
            folder = self.env.config.contributions_projects_path
            self._warn_if_opaque("project", project, project_page(project, folder), "project")
        return result

    def _warn_if_opaque(self, what: str, name: str, page: str, option: str) -> None:
        if is_opaque_slug(name):
            warn(
                ContribWarning.OPAQUE_SLUG,
                f"{what} {name!r} has no Latin letter or digit, so its page gets an opaque address, {page}: "
                f"add Latin letters or digits to the {what} (a transliteration, say) for a readable one",
                self.option_location(option),
            )


#: required options and their parsers, in the order they are checked
_REQUIRED_PARSERS: dict[str, Callable[[str], object]] = {
    "repo": parse_repo,
    "pr": lambda value: parse_positive_int(value, "pr"),
    "summary": lambda value: parse_text(value, "summary"),
}
#: required options, in the order they are checked
REQUIRED = tuple(_REQUIRED_PARSERS)
_OPTIONAL_PARSERS: dict[str, Callable[[str], object]] = {
    "issue": lambda value: parse_int_list(value, "issue"),
    "status": parse_status,
    "tags": parse_tags,
    "project": lambda value: parse_text(value, "project"),
    "date": parse_date,
}


def unknown_line(name: str, given: str) -> nodes.paragraph:
    """The one plain line of a section marked ``:unknown:`` (its sources do not describe it): the
    author's words, else "No mechanism is known." for a root cause and "Not known." for another."""
    text = " ".join(given.split()) or str(_("No mechanism is known.") if name == "root-cause" else _("Not known."))
    return nodes.paragraph(text, text, classes=["contrib-unknown"])


def fence_content_offset(directive: SphinxDirective) -> int:
    """The directive's ``content_offset``, corrected for MyST's colon fence whose content begins with a
    nested fence (``::::{verification}`` then ``:::{metric}`` on the next line).

    MyST-Parser (``DocutilsRenderer.render_colon_fence``, 5.0 to 5.2; upstream, no issue filed) puts a
    newline before such content, to tell the nested fence from an option line, and its directive parsing
    then takes that newline for a blank line the author left: the content starts one line lower than it
    does, and every warning from inside it (each ``metric`` option's) points one line too low. A real blank
    line gives the directive the same text, so the page's line after the opening fence tells them apart.
    ``tests/test_directives.py`` has a guard that fails when MyST stops adding the newline."""
    offset = directive.content_offset
    if not offset or not directive.content or not directive.content[0].lstrip().startswith(":::"):
        return offset
    source, _ = directive.get_source_info()  # Sphinx 9.2: the source may be None (a string parsed alone)
    if source is None or source != directive.state.document.get("source"):  # or an included file's
        return offset
    lines = page_being_read(directive.env).lines
    after = directive.lineno  # the line after the opening fence, 0-based
    return offset - 1 if after < len(lines) and lines[after].strip() else offset


class SectionDirective(MarkingDirective):
    """A write-up section: a real section with a heading and a stable anchor (the directive's name).
    ``:unknown:`` (optionally with words of its own): the sources do not describe it; the section is one
    plain line ("No mechanism is known.") instead of a body that pads. ``:tests:`` (the verification only):
    the test files the write-up names, which the build checks against the pull request's changed files in
    the lock (``check_tests`` in ``check/facts.py``)."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[OptionSpec] = {"unknown": directives.unchanged, "tests": directives.unchanged}
    option_doc: ClassVar[dict[str, OptionDoc]] = {
        "unknown": OptionDoc(
            "flag, or text",
            "off",
            'The sources do not describe this part: the section is one plain line ("No mechanism is known.", '
            "or the words given) instead of a body that pads.",
        ),
        "tests": OptionDoc(
            "comma-separated paths",
            "none",
            "Verification only: the test files the pull request added or changed, shown as a line; each is checked "
            "against the changed files the lock holds from the forge.",
        ),
    }

    def run(self) -> list[nodes.Node]:
        name = bare_name(self.name)  # ``fix`` or ``contrib:fix``
        location = self.get_location()
        document = self.state.document
        if (
            not document.get("contrib_rejected")
            and not any(True for _ in document.findall(cn.contribution_header))
            and not misspelt_header(self.env, document)
        ):
            warn(
                ContribWarning.SECTION_OUTSIDE,
                f"'{name}' belongs on a contribution page, after the 'contribution' directive",
                location,
            )
        if any(node.get("contrib_section") == name for node in document.findall(nodes.section)):
            warn(
                ContribWarning.DUPLICATE_SECTION,
                f"section '{name}' is given twice on this page; only the first has the anchor '#{name}'",
                location,
            )
            anchor = document.set_id(nodes.section(), suggested_prefix=name)  # "problem-1", …
        else:
            anchor = name
        section = nodes.section(ids=[anchor], names=[], contrib_section=name, classes=["contrib-section"])
        self.set_source_info(section)
        if self.arguments:  # the author's heading: inline markup yes, raw HTML no
            heading = self.arguments[0]
            title_nodes, messages = self.state.inline_text(heading, self.lineno)
            title = nodes.title(heading, "", *title_nodes)
            for raw in list(title.findall(nodes.raw)):
                raw.replace_self(nodes.Text(raw.astext()))
            section += title
            section += messages
        else:  # the default heading is plain text: no inline parse (one per section of every page)
            heading = dict(SECTIONS)[name]
            section += nodes.title(heading, heading)
        self.content_offset = fence_content_offset(self)
        body = self.parse_content_to_nodes(allow_section_headings=True)
        if "unknown" in self.options:
            body = [unknown_line(name, self.options["unknown"] or ""), *body]
            section["classes"].append("contrib-section-unknown")
        if "tests" in self.options:
            body = [*self.tests_claimed(name, section), *body]
        section += body
        if not any(is_written(node) for node in body):
            warn(
                ContribWarning.UNWRITTEN_SECTION,
                f"section '{name}' is not written yet (it holds only comments or nothing)",
                location,
            )
            section["contrib_unwritten"] = True
        document.ids[anchor] = section
        return [section]

    def tests_claimed(self, name: str, section: nodes.section) -> list[nodes.Node]:
        """``:tests:``: the test files (comma- or space-separated paths in the repository) onto the section
        (``contrib_tests``, with the option's line), shown as a line "Tests: a, b"; on another section than
        the verification, a warning."""
        line = self.lineno + next(
            (i for i, text in enumerate(self.block_text.splitlines()[1:], 1) if text.lstrip().startswith(":tests:")), 0
        )
        if name != "verification":
            warn(
                ContribWarning.BAD_OPTION,
                f"option ignored: ':tests:' lists the test files of the verification section, not of '{name}'",
                f"{self.get_source_info()[0]}:{line}",
            )
            return []
        paths = [path.strip().removeprefix("./").lstrip("/") for path in re.split(r"[,\s]+", self.options["tests"])]
        paths = list(dict.fromkeys(path for path in paths if path))
        section["contrib_tests"] = paths
        section["contrib_tests_line"] = line
        if not paths:
            return []
        shown = nodes.paragraph(classes=["contrib-tests"])
        shown += nodes.inline(_("Tests:"), _("Tests:"), classes=["contrib-tests-label"])
        for i, path in enumerate(paths):
            shown += nodes.Text(" " if not i else ", ")
            shown += nodes.literal(path, path)
        return [shown]


def is_written(node: nodes.Node) -> bool:
    """Whether a node is written content: not a comment (``%`` or ``<!-- … -->``), a label, a warning or
    another invisible node. The node form of the one rule (:func:`~.options.is_comment_only_html`)."""
    if isinstance(node, nodes.raw) and is_comment_only_html(node.astext()):
        return False
    return not isinstance(node, (nodes.Invisible, nodes.system_message))
