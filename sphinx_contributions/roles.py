"""Roles: ``{contrib}`` (a write-up by key), ``{pr}`` and ``{issue}`` (GitHub links)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.docutils import SphinxRole

from . import nodes as cn
from .model import OptionError, issue_url, parse_target, pr_url
from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from docutils.nodes import Node, system_message
    from sphinx.application import Sphinx


class GitHubRole(SphinxRole):
    """``{pr}`owner/repo#N``` or, on a contribution page, ``{pr}`#N``` for the page's own repository.
    Explicit text: ``{pr}`the SDPA change <#47014>```."""

    def run(self) -> tuple[list[Node], list[system_message]]:
        text, target = _split_explicit(self.text)
        try:
            repo, number = parse_target(target)
        except OptionError as error:
            warn(ContribWarning.BAD_TARGET, f"{{{self.name}}} target not linked: {error}", self.get_location())
            return [nodes.literal(self.rawtext, self.text)], []
        if repo is None:
            repo = self._page_repo()
            if repo is None and self.inliner.document.get("contrib_rejected"):
                # the page's header was rejected (and reported): no second warning for each role
                return [nodes.literal(self.rawtext, self.text)], []
            if repo is None:
                warn(
                    ContribWarning.BAD_TARGET,
                    f"{{{self.name}}} '#{number}' needs 'owner/repo#{number}' outside a contribution page",
                    self.get_location(),
                )
                return [nodes.literal(self.rawtext, self.text)], []
        url = pr_url(repo, number) if self.name == "pr" else issue_url(repo, number)
        label = text if text is not None else (target if target.startswith("#") else f"{repo}#{number}")
        node = nodes.reference(self.rawtext, label, refuri=url, classes=[f"contrib-{self.name}"])
        return [node], []

    def _page_repo(self) -> str | None:
        header = next(self.inliner.document.findall(cn.contribution_header), None)
        return header["repo"] if header is not None else None


def _split_explicit(text: str) -> tuple[str | None, str]:
    """``title <target>`` → (title, target); ``target`` → (None, target)."""
    text = text.strip()
    if text.endswith(">") and " <" in text:
        title, _, target = text[:-1].rpartition(" <")
        return title.strip(), target.strip()
    return None, text


def setup_roles(app: Sphinx) -> None:
    app.add_role("pr", GitHubRole())
    app.add_role("issue", GitHubRole())
