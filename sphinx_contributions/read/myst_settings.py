"""The MyST settings write-ups need (``myst_parser``, ``colon_fence``): a ``[contrib.config]`` warning at
``config-inited`` where a page needs one, never switched on behind the site's back (:class:`UnreadWriteUps`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.project import Project
from sphinx.transforms import SphinxTransform

from ..settings import conf_location
from ..warnings import ContribWarning, warn
from .sources import page_being_read

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

NO_COLON_FENCE = (
    'myst_enable_extensions has no "colon_fence": write-ups\' ":::" directives would be read as plain text; '
    'add "colon_fence" to myst_enable_extensions in conf.py'
)
#: both missing: one warning, so that one build says everything to add
NO_MYST_NOR_COLON_FENCE = (
    'sphinx_contributions reads write-ups as MyST Markdown with ":::" directives, but myst_parser is not '
    'loaded: add "myst_parser" to extensions and "colon_fence" to myst_enable_extensions in conf.py'
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


def colon_fence_off(config: Config) -> bool:
    """Whether MyST is loaded without its ``colon_fence`` syntax."""
    enabled = getattr(config, "myst_enable_extensions", None)
    return enabled is not None and "colon_fence" not in list(enabled or ())


class UnreadWriteUps(SphinxTransform):
    """A page whose write-up directives are colon fences, read without ``colon_fence``: rejected."""

    default_priority = 400  # before the roles' links are resolved (500)

    def apply(self, **kwargs: object) -> None:
        if not colon_fence_off(self.config) or self.document.get("contrib_rejected"):
            return
        if _COLON_DIRECTIVE.search(page_being_read(self.env).text):
            self.document["contrib_rejected"] = True


def check_myst_settings(app: Sphinx, config: Config) -> None:
    """``config-inited``: MyST loaded, and its ``colon_fence`` syntax on, where write-ups need them."""
    myst = "myst_parser" in app.extensions
    if myst and "colon_fence" in list(getattr(config, "myst_enable_extensions", None) or ()):
        return
    if not uses_colon_fences(app, config):
        return
    if not myst:  # myst_enable_extensions is no setting then: colon_fence is missing too
        warn(ContribWarning.CONFIG, NO_MYST_NOR_COLON_FENCE, conf_location(app, "extensions"))
        return
    warn(ContribWarning.CONFIG, NO_COLON_FENCE, conf_location(app, "myst_enable_extensions", "extensions"))
