"""The MyST settings write-ups need, checked once when the settings are read (``config-inited``).

A write-up is a MyST Markdown page whose directives are colon fences (``:::{contribution}``). Without
``myst_parser`` in ``extensions`` no ``.md`` page is read at all; without ``colon_fence`` in
``myst_enable_extensions`` every ``:::`` block is a paragraph, so the site has no contributions and the
warnings that follow name everything but the cause. Each of the two is one ``[contrib.config]`` warning
that names the setting, given when a Markdown source of the site holds one of the extension's directives
as a colon fence: a site that loads the extension only for its roles (to link another portfolio) needs
neither setting. A missing ``colon_fence`` is then switched on for this build, so the rest of
the build reads the pages as written and shows only their own problems (the strict build still stops
on the warning; the same value every build, so Sphinx sees no changed setting).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.project import Project

from ..warnings import ContribWarning, warn

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


#: one of the extension's directives written as a colon fence
_COLON_DIRECTIVE = re.compile(
    r"^[ \t>]*:{3,}[ \t]*\{(?:contrib:)?(?:contributions?|problem|root-cause|fix|verification|metric|projects?)\}",
    re.M,
)


def uses_colon_fences(app: Sphinx, config: Config) -> bool:
    """Whether a Markdown source of the site writes one of the extension's directives as a colon fence."""
    project = Project(app.srcdir, {".md": "markdown"})
    for docname in sorted(project.discover(config.exclude_patterns, config.include_patterns)):
        try:
            text = Path(project.doc2path(docname, absolute=True)).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if _COLON_DIRECTIVE.search(text):
            return True
    return False


def check_myst_settings(app: Sphinx, config: Config) -> None:
    """``config-inited``: MyST loaded, and its ``colon_fence`` syntax on, where write-ups need them."""
    myst = "myst_parser" in app.extensions
    if myst and "colon_fence" in list(getattr(config, "myst_enable_extensions", None) or ()):
        return
    if not uses_colon_fences(app, config):
        return
    if not myst:
        warn(ContribWarning.CONFIG, NO_MYST, None)
        return
    enabled = list(getattr(config, "myst_enable_extensions", None) or ())
    if "colon_fence" not in enabled:
        warn(ContribWarning.CONFIG, NO_COLON_FENCE, None)
        config.myst_enable_extensions = [*enabled, "colon_fence"]
