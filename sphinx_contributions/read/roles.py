"""Roles: ``{contrib}`` (a write-up by key), ``{pr}`` and ``{issue}`` (forge links), ``{export}`` (a link to
one of the extension's exports); each in the ``contrib`` domain, and bare where the site leaves the name free."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

from .. import nodes as cn
from ..builders import EXPORT_NAMES
from ..keys import issue_url, pr_url
from ..options import OptionError, parse_target
from ..warnings import ContribWarning, warn
from .marks import MarkingRole
from .names import misspelt_header
from .sources import bare_name

if TYPE_CHECKING:
    from docutils.nodes import Node, system_message


class GitHubRole(MarkingRole):
    """``{pr}`owner/repo#N```; on a write-up, ``{pr}`#N``` for its own repository."""

    def run(self) -> tuple[list[Node], list[system_message]]:
        kind = bare_name(self.name)  # "pr" or "issue", written bare or as contrib:pr
        text, target = _split_explicit(self.text)
        try:
            repo, number = parse_target(target)
        except OptionError as error:
            warn(ContribWarning.BAD_TARGET, f"{{{self.name}}} target not linked: {error}", self.get_location())
            return [nodes.literal(self.rawtext, self.text)], []
        label = text if text is not None else (target if target.startswith("#") else f"{repo}#{number}")
        if repo is None:  # the page's repository, known once the page is read (see ResolveShortLinks)
            pending = cn.pending_github_link(
                self.rawtext, label, kind=kind, number=number, role_text=self.text, role=self.name
            )
            source, pending.line = self.get_source_info()  # Sphinx 9.1: the source may be a PathLike
            pending.source = os.fspath(source) if source is not None else None
            return [pending], []
        return [github_link(kind, repo, number, label, self.rawtext)], []


def github_link(kind: str, repo: str, number: int, label: str, rawtext: str = "") -> nodes.reference:
    url = pr_url(repo, number) if kind == "pr" else issue_url(repo, number)
    return nodes.reference(rawtext, label, refuri=url, classes=[f"contrib-{kind}"])


class ResolveShortLinks(SphinxTransform):
    """Each ``{pr}``/``{issue}`` link to ``#N`` gets the repository of the page's header, once parsed."""

    default_priority = 500

    def apply(self, **kwargs: Any) -> None:
        document = self.document
        if not cn.made_here(self.env):
            return
        header = next(document.findall(cn.contribution_header), None)
        for node in list(document.findall(cn.pending_github_link)):
            kind, number = node["kind"], node["number"]
            if header is not None:
                node.replace_self(github_link(kind, header["repo"], number, node.astext(), node.rawsource))
                continue
            # a rejected or misspelt header was reported: no warning per link
            if not document.get("contrib_rejected") and not misspelt_header(self.env, document):
                warn(
                    ContribWarning.BAD_TARGET,
                    f"{{{node.get('role', kind)}}} '#{number}' needs 'owner/repo#{number}' outside a contribution page",
                    node,
                )
            node.replace_self(nodes.literal(node.rawsource, node["role_text"]))


class ExportRole(MarkingRole):
    """``{export}`contributions.json```: a link to the export on the site; the text alone in books."""

    def run(self) -> tuple[list[Node], list[system_message]]:
        text, target = _split_explicit(self.text)
        if target not in EXPORT_NAMES:
            warn(
                ContribWarning.UNKNOWN_EXPORT,
                f"{{{self.name}}} '{target}' is not one of the exports ({', '.join(EXPORT_NAMES)}); shown as text",
                self.get_location(),
            )
            return [nodes.Text(text if text is not None else target)], []
        return [cn.export_link(self.rawtext, text if text is not None else target, target=target)], []


def _split_explicit(text: str) -> tuple[str | None, str]:
    """``title <target>`` → (title, target); ``target`` → (None, target)."""
    text = text.strip()
    if text.endswith(">") and " <" in text:
        title, _, target = text[:-1].rpartition(" <")
        return title.strip(), target.strip()
    return None, text
