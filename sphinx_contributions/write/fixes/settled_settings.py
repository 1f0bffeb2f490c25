"""Settings other packages change when the builder starts, settled when the settings are read.

Sphinx compares a build's settings with the pickled settings of the last build before the builder
starts. What is changed later, in place, is in the pickled copy but not yet in the new one, so every
build with nothing to do said "The configuration has changed (3 options: 'html_css_files',
'html_static_path', …)":

- sphinx-design and sphinx-copybutton append their ``static/`` folders to ``html_static_path`` at
  ``builder-inited``: the folders are added at ``config-inited`` instead (the extension's own is added the
  same way, :func:`...render.assets.add_static_path`), and the second copy they append later is dropped;

Sphinx's own late changes (the default ``priority`` it sets in ``html_css_files`` and ``html_js_files``) and
the settings a theme package registers when the builder loads it (furo's ``pygments_dark_style``) are left
to Sphinx: they make the next build print "The configuration has changed", and change no page (measured).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


def late_static_dirs(app: Sphinx) -> list[str]:
    """The folders the extensions in use append to ``html_static_path`` when the builder starts."""
    folders = []
    # sphinx-design loaded only for the extension's nodes keeps its folder out (..render.assets)
    if "sphinx_design" in app.extensions and (
        app.config.contributions_assets_everywhere or "sphinx_design" in app.config.extensions
    ):
        try:
            from sphinx_design.extension import STATIC_DIR
        except ImportError:  # another sphinx-design: it keeps its own way
            pass
        else:
            folders.append(str(STATIC_DIR))
    copybutton = app.extensions.get("sphinx_copybutton")
    module_file = getattr(getattr(copybutton, "module", None), "__file__", None)
    if module_file:  # as its ``scb_static_path`` writes it
        folders.append(str(Path(module_file).parent.joinpath("_static").absolute()))
    return folders


def add_late_static_dirs(app: Sphinx, config: Config) -> None:
    """``config-inited``: those folders, before the environment compares the settings."""
    for folder in late_static_dirs(app):
        if folder not in config.html_static_path:
            config.html_static_path.append(folder)


def drop_second_copy(app: Sphinx) -> None:
    """``builder-inited``, after the others' handlers: each folder of ``html_static_path`` once."""
    paths = app.config.html_static_path
    unique = list(dict.fromkeys(paths))
    if unique != paths:
        paths[:] = unique
