"""sphinx-design adds its ``static/`` folder to ``html_static_path`` when the builder starts, after the
environment has compared this build's configuration with the last one's pickled configuration, which
held the folder: so every build with nothing to do said "The configuration has changed (1 option:
'html_static_path')" and its settings looked changed. The folder is added when the settings are read,
as the extension's own (:func:`..render.assets.add_static_path`), and the second copy sphinx-design
appends later is dropped."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


def design_static_dir() -> str | None:
    try:
        from sphinx_design.extension import STATIC_DIR
    except ImportError:  # another sphinx-design: it keeps its own way
        return None
    return str(STATIC_DIR)


def add_design_static_path(app: Sphinx, config: Config) -> None:
    """``config-inited``: sphinx-design's folder, before the environment compares the settings."""
    folder = design_static_dir()
    if folder is not None and "sphinx_design" in app.extensions and folder not in config.html_static_path:
        config.html_static_path.append(folder)


def drop_second_copy(app: Sphinx) -> None:
    """``builder-inited``, after sphinx-design's handler: each folder of ``html_static_path`` once."""
    paths = app.config.html_static_path
    unique = list(dict.fromkeys(paths))
    if unique != paths:
        paths[:] = unique
