"""Settings other packages change when the builder starts, settled when the settings are read.

Sphinx compares a build's settings with the pickled settings of the last build before the builder
starts. What is changed later, in place, is in the pickled copy but not yet in the new one, so every
build with nothing to do said "The configuration has changed (3 options: 'html_css_files',
'html_static_path', …)":

- sphinx-design and sphinx-copybutton append their ``static/`` folders to ``html_static_path`` at
  ``builder-inited``: the folders are added at ``config-inited`` instead (the extension's own is added the
  same way, :func:`...render.assets.add_static_path`), and the second copy they append later is dropped;
- Sphinx's HTML builder gives each entry of ``html_css_files`` and ``html_js_files`` its default
  ``priority`` (800) with ``attrs.setdefault``, in the settings' own dictionaries: the default is set once
  the settings are read (after Sphinx turns each entry into a ``(file, attributes)`` pair, at priority
  800).

- a theme installed as a package (furo, through the ``sphinx.html_themes`` entry point) is set up when the
  HTML builder loads its theme, after the comparison: the settings it registers then (furo's
  ``pygments_dark_style``) are in the pickled copy only, and every build said "The configuration has
  changed (pygments_dark_style)". The theme of ``html_theme`` is set up at ``config-inited`` instead, as
  Sphinx would set it up later (its ``setup`` runs once: the builder's later load finds it loaded), so
  its settings are there, with ``conf.py``'s values, when the environment compares them. Only where the
  builder is an HTML one, and only the theme that builder loads (``html_theme``; the ePub's is
  ``epub_theme``): furo's own ``builder-inited`` refuses any other builder ("Furo is being used as an
  extension in a non-HTML build"), and furo set up for an ePub put its stylesheet in the book. Sphinx does not say at
  ``config-inited`` which builder comes (the name is a local of ``Sphinx.__init__``, read from its frame;
  where it cannot be read, the theme is left to Sphinx, as before).
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

#: the priority Sphinx's HTML builder gives a site's own stylesheets and scripts (``init_css_files``)
SITE_FILES_PRIORITY = 800


def late_static_dirs(app: Sphinx) -> list[str]:
    """The folders the extensions in use append to ``html_static_path`` when the builder starts."""
    folders = []
    if "sphinx_design" in app.extensions:
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


#: the entry point group of themes installed as packages (Sphinx's ``sphinx.theming``)
THEMES_GROUP = "sphinx.html_themes"


def coming_builder(app: Sphinx) -> type | None:
    """The class of the builder ``Sphinx.__init__`` is about to create (``config-inited`` runs inside it),
    or None where that cannot be told."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "__init__" and frame.f_locals.get("self") is app:
            name = frame.f_locals.get("buildername") or "html"
            builder = app.registry.builders.get(name) if isinstance(name, str) else None
            return builder if isinstance(builder, type) else None
        frame = frame.f_back  # type: ignore[assignment]
    return None


def set_up_theme(app: Sphinx, config: Config) -> None:
    """``config-inited``: the package of ``html_theme``, when it is one installed as a package, set up now
    (where its settings are registered before the environment compares them), for an HTML builder."""
    from sphinx.builders.html import StandaloneHTMLBuilder

    builder = coming_builder(app)
    if builder is None or not issubclass(builder, StandaloneHTMLBuilder):
        return
    try:  # the theme this builder loads: html_theme, or the ePub's epub_theme (its get_theme_config reads config)
        name = builder.get_theme_config(SimpleNamespace(config=config))[0]  # type: ignore[arg-type]
    except Exception:  # a builder of another package that needs more of itself: its theme is left to Sphinx
        return
    if not isinstance(name, str) or name in app.extensions:
        return  # a theme set up already (alabaster, which Sphinx loads first): no scan of every package
    for entry in entry_points(group=THEMES_GROUP):
        if entry.name == name and entry.module not in app.extensions:
            app.setup_extension(entry.module)
            return


def set_file_priorities(app: Sphinx, config: Config) -> None:
    """``config-inited``, after Sphinx's pairs (800): the priority the builder would give each file later."""
    for setting in ("html_css_files", "html_js_files"):
        for entry in getattr(config, setting, None) or ():
            if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], dict):
                entry[1].setdefault("priority", SITE_FILES_PRIORITY)


def drop_second_copy(app: Sphinx) -> None:
    """``builder-inited``, after the others' handlers: each folder of ``html_static_path`` once."""
    paths = app.config.html_static_path
    unique = list(dict.fromkeys(paths))
    if unique != paths:
        paths[:] = unique
