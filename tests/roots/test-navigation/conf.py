# a small site under furo: the list of contributions in the navigation with a page of its own below it
# (furo marks that entry "has-children"); tests/test_navigation.py builds it
from __future__ import annotations

from typing import Any

project = "Demo"
author = "Tester"
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["_build"]
nitpicky = True
html_theme = "furo"


def _reshape(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``-D nav_shape=renamed``: the navigation tree as a furo release that renames its entries' classes
    would write it (between furo's handler and the extension's)."""
    tree = context.get("furo_navigation_tree")
    if app.config.nav_shape == "renamed" and isinstance(tree, str):
        context["furo_navigation_tree"] = tree.replace('class="toctree-l', 'class="nav-level-')


def setup(app: Any) -> None:
    app.add_config_value("nav_shape", "", "html")
    app.connect("html-page-context", _reshape, priority=550)


# a tag page for each tag, also of one write-up: the navigation of generated pages is what is tested
contributions_tag_page_min = 1

# a page for every project, even of one write-up (the default, 2, links those to their section)
contributions_project_page_min = 1
