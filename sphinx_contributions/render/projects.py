"""A ``projects`` listing, rendered at write time: a section per project, its intro and write-ups."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from .. import nodes as cn
from ..collect.domain import get_domain, holds_own_nodes
from ..i18n import _
from ..keys import slugify
from ..queries import is_of_project, projects
from .header import link_node
from .listing import Renderer

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..records import Contribution


def render_projects(
    renderer: Renderer, node: cn.contribution_projects, records: list[Contribution]
) -> list[nodes.Node]:
    intros = [child for child in node.children if isinstance(child, cn.project_intro)]
    sections: list[nodes.Node] = []
    for project in projects(records, [intro["name"] for intro in intros]):
        listed = list(project.records)
        intro = next((i for i in intros if any(is_of_project(r, i["name"]) for r in listed)), None)
        heading = (intro["heading"] if intro is not None else "") or project.name
        section = nodes.section(ids=[f"project-{slugify(project.name)}"], classes=["contrib-project-section"])
        section += nodes.title(heading, heading)
        if intro is not None:
            section += intro.children
        for url in sorted({record.repo_url for record in listed}):
            repository = nodes.paragraph(classes=["contrib-project-repo"])
            repository += nodes.Text(_("Repository") + ": ")
            repository += link_node(url.split("://", 1)[1], url, classes=[], internal=False)
            section += repository
        section += renderer.lines(renderer.entries(listed))
        sections.append(section)
    return sections


def resolve_projects(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: each ``projects`` listing becomes its sections."""
    if not holds_own_nodes(app, docname):  # a page without the extension's nodes: nothing to do
        return
    for intro in list(doctree.findall(cn.project_intro)):
        if not isinstance(intro.parent, cn.contribution_projects):
            intro.parent.remove(intro)
    found = list(doctree.findall(cn.contribution_projects))
    if not found:
        return
    records = get_domain(app.env).published()
    renderer = Renderer(app.builder, docname)
    for node in found:
        node.replace_self(render_projects(renderer, node, records))


def project_intros(app: Sphinx, env: BuildEnvironment) -> dict[str, tuple[str, nodes.Element]]:
    """Project name → (docname, ``project`` intro node) of every intro written on an overview page."""
    found: dict[str, tuple[str, nodes.Element]] = {}
    for docname in sorted(get_domain(env).data.get("project_intros", {})):
        if docname not in env.found_docs:
            continue
        for intro in env.get_doctree(docname).findall(cn.project_intro):
            found.setdefault(intro["name"], (docname, intro))
    return found
