"""A theme that is not installed is one ``[contrib.missing_theme]`` warning naming the ``pip install`` that brings it,
and the build goes on with alabaster."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING

from .settings import conf_location
from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

#: ``html_theme`` → the distribution that provides it ("" for Sphinx's own)
THEMES = {
    "furo": "furo",
    "pydata_sphinx_theme": "pydata-sphinx-theme",
    "sphinx_book_theme": "sphinx-book-theme",
    "sphinx_rtd_theme": "sphinx-rtd-theme",
    "alabaster": "",
}
#: what the build uses when the site's theme is not installed: Sphinx's default, always there
FALLBACK_THEME = "alabaster"


def theme_installed(app: Sphinx, config: Config, name: str) -> bool:
    """Whether Sphinx would find the HTML theme ``name`` (see the module's description)."""
    import sphinx

    if name in app.registry.html_themes or any(e.name == name for e in entry_points(group="sphinx.html_themes")):
        return True
    folders = [Path(sphinx.package_dir) / "themes"]
    folders += [Path(app.confdir) / folder for folder in getattr(config, "html_theme_path", None) or ()]
    for folder in folders:
        theme = folder / name
        if (theme / "theme.toml").is_file() or (theme / "theme.conf").is_file() or (folder / f"{name}.zip").is_file():
            return True
    return False


def install_command(name: str) -> str:
    """``pip install furo``: the distribution of a supported theme, else the name as packages spell it."""
    return f"pip install {THEMES.get(name) or name.replace('_', '-')}"


def spelled_as_installed(app: Sphinx, config: Config, name: str) -> str | None:
    """The installed theme ``name`` means when written as its distribution (``Furo``), or None."""
    wanted = name.strip().lower().replace("-", "_")
    candidates = [theme for theme, distribution in THEMES.items() if distribution and distribution == name.lower()]
    candidates.append(wanted)
    return next((theme for theme in candidates if theme != name and theme_installed(app, config, theme)), None)


def check_theme(app: Sphinx, config: Config) -> None:
    name = config.html_theme
    if not isinstance(name, str) or not name or theme_installed(app, config, name):
        return
    if real := spelled_as_installed(app, config, name):  # before: "pip install" of what is installed
        message = (
            f"html_theme {name!r} is not a theme's name; the installed theme is {real!r}: write "
            f'html_theme = "{real}" (this build uses {FALLBACK_THEME} instead)'
        )
    else:
        message = (
            f"html_theme {name!r} is not installed; install it with: {install_command(name)} "
            f"(this build uses {FALLBACK_THEME} instead)"
        )
    warn(ContribWarning.MISSING_THEME, message, conf_location(app, "html_theme"))
    config.html_theme = FALLBACK_THEME
    config.html_theme_options = {}  # the missing theme's options are no fallback's: no "unsupported" warnings
