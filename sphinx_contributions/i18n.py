"""The words the extension writes on pages ("Tags:", "before", "after", the change in words, listing
headings, the draft banner…), translatable through :mod:`sphinx.locale` with the message catalog
``sphinx_contributions``.

A site translates them as it translates its own pages: a ``sphinx_contributions.po`` (or ``.mo``) under
one of its ``locale_dirs``, in ``<language>/LC_MESSAGES/``; a ``.po`` newer than its ``.mo`` is
compiled when the build starts, as Sphinx does for its own catalog. The site's catalogs come before
any the package ships. Templates call the same function as ``tr``.

The data exports (``contributions.json``, the feed) stay in English: they are read by programs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sphinx import locale
from sphinx.util.i18n import CatalogRepository

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

#: the message catalog's name (``sphinx_contributions.po`` / ``.mo``)
CATALOG = "sphinx_contributions"
#: catalogs shipped with the package (``<language>/LC_MESSAGES/sphinx_contributions.mo``)
LOCALE_DIR = Path(__file__).parent / "locale"

_ = locale.get_translation(CATALOG)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form of a message, for ``count``."""
    return locale.get_translator(CATALOG).ngettext(singular, plural, count)


def load_catalogs(app: Sphinx, config: Config) -> None:
    """``config-inited``: the site's catalogs for ``language`` (compiled when their ``.po`` is newer),
    then the package's own."""
    repo = CatalogRepository(app.srcdir, config.locale_dirs, config.language, config.source_encoding)
    for catalog in repo.catalogs:
        if catalog.domain == CATALOG and catalog.is_outdated():
            catalog.write_mo(config.language, config.gettext_allow_fuzzy_translations)
    # this build's language only: a translator kept from an earlier build in the same process would
    # otherwise answer first (sphinx.locale.init adds to it)
    locale.translators.pop(("general", CATALOG), None)
    for directory in [*repo.locale_dirs, LOCALE_DIR]:
        app.add_message_catalog(CATALOG, directory)


def setup_i18n(app: Sphinx) -> None:
    app.connect("config-inited", load_catalogs, priority=100)
