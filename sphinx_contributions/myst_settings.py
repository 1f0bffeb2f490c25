"""The MyST settings write-ups need, checked once when the settings are read (``config-inited``).

A write-up is a MyST Markdown page whose directives are colon fences (``:::{contribution}``). Without
``myst_parser`` in ``extensions`` no ``.md`` page is read at all; without ``colon_fence`` in
``myst_enable_extensions`` every ``:::`` block is a paragraph, so the site has no contributions and the
warnings that follow name everything but the cause. Each of the two is one ``[contrib.config]`` warning
that names the setting. A missing ``colon_fence`` is then switched on for this build, so the rest of
the build reads the pages as written and shows only their own problems (the strict build still stops
on the warning; the same value every build, so Sphinx sees no changed setting).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

NO_MYST = (
    "sphinx_contributions reads write-ups as MyST Markdown, but myst_parser is not loaded: "
    'add "myst_parser" to extensions in conf.py'
)
NO_COLON_FENCE = (
    'myst_enable_extensions has no "colon_fence": write-ups\' ":::" directives would be read as plain text; '
    'add "colon_fence" to myst_enable_extensions in conf.py'
)


def check_myst_settings(app: Sphinx, config: Config) -> None:
    """``config-inited``: MyST loaded, and its ``colon_fence`` syntax on."""
    if "myst_parser" not in app.extensions:
        warn(ContribWarning.CONFIG, NO_MYST, None)
        return
    enabled = list(getattr(config, "myst_enable_extensions", None) or ())
    if "colon_fence" not in enabled:
        warn(ContribWarning.CONFIG, NO_COLON_FENCE, None)
        config.myst_enable_extensions = [*enabled, "colon_fence"]


def setup_myst_settings(app: Sphinx) -> None:
    app.connect("config-inited", check_myst_settings)
