"""The extension's Jinja templates, loaded by the builder so a site overrides them; page text goes through ``|e``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..builders import is_site_builder

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.jinja2glue import BuiltinTemplateLoader

#: the extension's templates, searched after the site's own ``templates_path``
TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"
#: templates that extend one theme's own (``themes/<html_theme>/``), searched only under that theme
THEME_TEMPLATES_DIR = TEMPLATES_DIR / "themes"


def templates_of(builder: Builder) -> BuiltinTemplateLoader | None:
    """A site builder's template loader; ``None`` for others, which get nodes their writers handle."""
    return getattr(builder, "templates", None) if is_site_builder(builder) else None


def render_html(templates: BuiltinTemplateLoader, name: str, context: dict[str, Any]) -> str:
    """A template rendered as a block of HTML (ending in a newline, as docutils writes blocks)."""
    html = templates.render(name, context)
    return html if html.endswith("\n") else html + "\n"


def add_templates_path(app: Sphinx, config: Config) -> None:
    """``config-inited``: the templates after the site's, and those extending the site's theme."""
    theme = THEME_TEMPLATES_DIR / str(getattr(config, "html_theme", None) or "")
    for_theme = [str(theme)] if theme.parent == THEME_TEMPLATES_DIR and theme.is_dir() else []
    config.templates_path = [*config.templates_path, str(TEMPLATES_DIR), *for_theme]
