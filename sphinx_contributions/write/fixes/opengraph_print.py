"""sphinxext-opengraph's "matplotlib is not installed" line, printed by every build.

sphinxext-opengraph 0.13 ``print``\\ s ``matplotlib is not installed, social cards will not be generated``
when it is imported without matplotlib, whatever ``ogp_social_cards`` says: a bare ``print`` at import
time, not a logged message, so no setting, ``-q`` or ``suppress_warnings`` silences it. A site that turns
opengraph's cards off (``ogp_social_cards = {"enable": False}``, as this one, which draws its own) sees
it in every build all the same; installing matplotlib to silence it would cost every build ~0.9 s of
imports.

So, when this extension is listed *before* ``sphinxext.opengraph`` in ``extensions``, it imports
opengraph first with that one line taken out of its output (anything else it prints is passed on), and
at ``config-inited`` logs the message itself only where it means something: opengraph's own cards are
not turned off and cannot be drawn. Listed after opengraph, this does nothing (the line was printed).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from typing import TYPE_CHECKING

from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)

MODULE = "sphinxext.opengraph"
EXTENSION = __name__.split(".")[0]
MESSAGE = "matplotlib is not installed, social cards will not be generated"


def listed_first(extensions: list[str]) -> bool:
    """Whether this extension comes before opengraph in ``extensions`` (so is set up before it)."""
    return MODULE in extensions and EXTENSION in extensions and extensions.index(EXTENSION) < extensions.index(MODULE)


def import_opengraph_quietly(app: Sphinx) -> None:
    """Import opengraph ahead of Sphinx, without its line about matplotlib."""
    if not listed_first(app.config.extensions) or MODULE in sys.modules:
        return
    captured = io.StringIO()
    try:
        with contextlib.redirect_stdout(captured):
            importlib.import_module(MODULE)
    except ImportError:
        pass  # not installed: Sphinx reports it when it loads the extension
    finally:
        rest = captured.getvalue().replace(MESSAGE + "\n", "", 1)
        if rest:
            sys.stdout.write(rest)


def opengraph_cards_wanted(config: Config) -> bool:
    """Whether the site leaves sphinxext-opengraph's own cards on (its default)."""
    social = getattr(config, "ogp_social_cards", None)
    return not (isinstance(social, dict) and social.get("enable") is False)


def report_missing_matplotlib(app: Sphinx, config: Config) -> None:
    """``config-inited``: the message, where opengraph's cards are wanted but cannot be drawn (listed after
    opengraph, this extension took nothing out: opengraph printed it)."""
    module = sys.modules.get(MODULE)
    if not listed_first(config.extensions) or module is None or MODULE not in app.extensions:
        return
    if getattr(module, "create_social_card", None) is None and opengraph_cards_wanted(config):
        logger.info(MESSAGE)


def setup_opengraph_print(app: Sphinx) -> None:
    import_opengraph_quietly(app)
