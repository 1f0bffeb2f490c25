"""The extension's words on pages, translatable through :mod:`sphinx.locale` (catalog ``sphinx_contributions``); the
authors' words in options through :class:`~.nodes.option_text`."""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.core import Locale, UnknownLocaleError
from sphinx import locale
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.i18n import CatalogRepository

from . import nodes as cn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config

logger = logging.getLogger(__name__)

CATALOG = "sphinx_contributions"
#: catalogs shipped with the package (``<language>/LC_MESSAGES/sphinx_contributions.mo``)
LOCALE_DIR = Path(__file__).parent / "locale"

_ = locale.get_translation(CATALOG)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form of a message, for ``count``."""
    return locale.get_translator(CATALOG).ngettext(singular, plural, count)


def number_locale(language: str | None) -> str | None:
    """The Babel locale for numbers in ``language`` (``pt-BR`` → ``pt_BR``); None for English or unknown."""
    if not language or language == "en":
        return None
    try:
        return str(Locale.parse(language.replace("-", "_")))
    except (ValueError, UnknownLocaleError):
        return None


def load_catalogs(app: Sphinx, config: Config) -> None:
    """``config-inited``: the site's catalogs (compiled where newer), then the package's own."""
    repo = CatalogRepository(app.srcdir, config.locale_dirs, config.language, config.source_encoding)
    for catalog in repo.catalogs:
        if catalog.domain == CATALOG and catalog.is_outdated():
            catalog.write_mo(config.language, config.gettext_allow_fuzzy_translations)
    # this build's language only: a translator from an earlier build in the process would answer first
    locale.translators.pop(("general", CATALOG), None)
    for directory in [*repo.locale_dirs, LOCALE_DIR]:
        app.add_message_catalog(CATALOG, directory)


def say_labels_stay_english(app: Sphinx, builder: Builder) -> None:
    """``write-started``: one line where a non-English site lacks a catalog of the extension's words."""
    language = str(app.config.language or "en")
    translator = locale.translators.get(("general", CATALOG))  # a NullTranslations where none was found
    has_catalog = translator is not None and type(translator) is not gettext.NullTranslations
    if language.replace("-", "_").split("_")[0] == "en" or has_catalog:
        return
    data = app.env.domains["contrib"].data  # the records, read without the domain's module (below it)
    if not (data.get("contributions") or data.get("listings")):
        return
    logger.info(
        "sphinx_contributions has no catalog of its labels for language %r (no %s.mo in locale_dirs): the "
        "labels it writes (Problem, Fix, Tags …) stay English",
        language,
        CATALOG,
    )


class TranslatedOptions(SphinxTransform):
    """After the Locale transform (20) and before the domain reads the page (850): each translated
    :class:`~.nodes.option_text` becomes its option."""

    default_priority = 510

    def apply(self, **kwargs: Any) -> None:
        if not cn.made_here(self.env):
            return
        from .markup import inline_markup  # here: a page without the extension's work never needs them
        from .records import plain_text

        keep = bool(self.env.versioning_condition)
        for node in list(self.document.findall(cn.option_text)):
            owner = node.parent
            if node.get("translated") and isinstance(owner, cn.contribution_header):
                name = node.get("option") or "summary"  # "summary" or "impact"
                markup = inline_markup(node.children, owner["repo"])
                owner[f"{name}_markup"] = markup
                owner[name] = plain_text(markup) or owner[name]
            elif node.get("translated") and isinstance(owner, cn.metric):
                owner[node["option"]] = " ".join(node.astext().split()) or owner[node["option"]]
            if not keep and owner is not None:
                owner.remove(node)
