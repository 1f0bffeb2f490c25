"""sphinx-sitemap lists only the pages a build wrote, and writes one for every HTML builder: with
``contributions_sitemap`` its handlers leave and every page is listed here, on site builders only.

Workaround ``sitemap``: sphinx-sitemap ``>=2.9,<3``; upstream: https://github.com/jdillard/sphinx-sitemap/issues/13."""

from __future__ import annotations

import fnmatch
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote
from xml.etree import ElementTree as ET

from sphinx.util import logging

from ...builders import is_site_builder, writes_html
from ...collect.domain import get_domain
from ...compat import needed
from ...settings import conf_location
from ...warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)

SITEMAP_EXTENSION = "sphinx_sitemap"
#: the events sphinx-sitemap connects to (2.9: builder-inited, html-page-context, build-finished)
SITEMAP_EVENTS = ("builder-inited", "html-page-context", "build-finished")
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def sitemap_links(app: Sphinx) -> list[tuple[str, str]]:
    """``(page, link)`` of the site's pages as the builder links them, sorted, without ``sitemap_excludes``."""
    builder = app.builder
    pages = sorted({*app.env.found_docs, *get_domain(app.env).generated_pages()})
    excludes = list(app.config.sitemap_excludes or ())
    links = []
    for pagename in pages:
        link = builder.get_target_uri(pagename)
        if not any(fnmatch.fnmatch(form, pattern) for form in (link, unquote(link)) for pattern in excludes):
            links.append((pagename, link))
    return links


def last_modified(app: Sphinx, pagename: str) -> str | None:
    """With ``sitemap_show_lastmod``, the page's last commit time (``git_last_updated``), or None."""
    if not app.config.sitemap_show_lastmod:
        return None
    updated = getattr(app.env, "git_last_updated", None)
    entry = updated.get(pagename) if isinstance(updated, dict) else None
    timestamp = entry[0] if isinstance(entry, tuple) and entry else None
    if not timestamp:
        return None
    return datetime.fromtimestamp(int(timestamp), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def locales(app: Sphinx) -> list[str]:
    """``sitemap_locales`` (``[None]``: none), else the languages in ``locale_dirs``, as sphinx-sitemap reads them."""
    configured = app.config.sitemap_locales
    if configured:
        return [] if list(configured) == [None] else [str(locale) for locale in configured]
    found = []
    for folder in app.config.locale_dirs:
        path = Path(app.confdir, folder)
        if path.is_dir():
            found.extend(sorted(child.name for child in path.iterdir() if child.is_dir()))
    return found


def sitemap_xml(app: Sphinx, site_url: str) -> bytes:
    config = app.config
    lang = config.language + "/" if config.language else ""
    version = config.version + "/" if config.version else ""
    alternates = locales(app)
    ET.register_namespace("xhtml", XHTML_NS)
    root = ET.Element("urlset", xmlns=SITEMAP_NS)
    for pagename, link in sitemap_links(app):
        url = ET.SubElement(root, "url")
        ET.SubElement(url, "loc").text = site_url + config.sitemap_url_scheme.format(
            lang=lang, version=version, link=link
        )
        if modified := last_modified(app, pagename):
            ET.SubElement(url, "lastmod").text = modified
        for locale in alternates:
            href = site_url + config.sitemap_url_scheme.format(lang=locale + "/", version=version, link=link)
            ET.SubElement(url, f"{{{XHTML_NS}}}link", rel="alternate", hreflang=locale.replace("_", "-"), href=href)
    if config.sitemap_indent:
        ET.indent(root, space=" " * int(config.sitemap_indent))
    text: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return text


def replaces_sitemap(app: Sphinx) -> bool:
    """Whether the extension writes this sitemap: sphinx-sitemap loaded, in range, and ``contributions_sitemap``."""
    return SITEMAP_EXTENSION in app.extensions and app.config.contributions_sitemap and needed("sitemap")


def disconnect_sphinx_sitemap(app: Sphinx, config: Config) -> None:
    """``config-inited``: sphinx-sitemap's handlers leave (found in ``app.events.listeners``), its settings stay."""
    if SITEMAP_EXTENSION not in app.extensions and config.contributions_sitemap:
        where = conf_location(app, "contributions_sitemap")
        logger.info(  # not a warning: init's site turns it on, ready for the day the site adds sphinx-sitemap
            f"{where + ': ' if where else ''}contributions_sitemap = True has no effect: sphinx-sitemap is not "
            'loaded; for a sitemap.xml, add "sphinx_sitemap" to extensions (pip install sphinx-sitemap)'
        )
    if not replaces_sitemap(app):
        return
    for event in SITEMAP_EVENTS:
        for listener in list(app.events.listeners.get(event, ())):
            if str(getattr(listener.handler, "__module__", "")).split(".")[0] == SITEMAP_EXTENSION:
                app.disconnect(listener.id)


def write_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the whole site's sitemap on site builders; a stale one elsewhere is removed."""
    if exception is not None or not writes_html(app.builder) or not replaces_sitemap(app):
        return  # elsewhere sphinx-sitemap's own writer ran
    path = Path(app.outdir) / app.config.sitemap_filename
    site_url = app.config.site_url or app.config.html_baseurl
    if not is_site_builder(app.builder):
        path.unlink(missing_ok=True)
    elif site_url:
        path.write_bytes(sitemap_xml(app, site_url.rstrip("/") + "/"))
        logger.info("%s was generated for URL %s in %s", app.config.sitemap_filename, site_url, path)
    else:  # no canonical URL: none, not an earlier build's (the information line of canonical.py says so)
        path.unlink(missing_ok=True)


def check_sitemap_url(app: Sphinx) -> None:
    """``builder-inited``: ``site_url`` is the canonical URL; the URL scheme repeats no part of the address."""
    site_url = app.config.site_url if "site_url" in app.config else None
    _check_scheme(app, site_url or app.config.html_baseurl or "")
    if site_url and site_url.rstrip("/") != (app.config.html_baseurl or "").rstrip("/"):
        warn(
            ContribWarning.CONFIG,
            f"site_url is {site_url!r} but html_baseurl is {app.config.html_baseurl!r}: sphinx-sitemap "
            "prefers site_url, so the sitemap would list URLs outside the canonical site (rename a "
            "top-level 'site_url' in conf.py)",
            None,
        )


def _check_scheme(app: Sphinx, site_url: str) -> None:
    config = app.config
    if not replaces_sitemap(app) or not site_url:
        return
    lang = config.language + "/" if config.language else ""
    version = config.version + "/" if config.version else ""
    try:
        prefix = config.sitemap_url_scheme.format(lang=lang, version=version, link="")
    except (KeyError, IndexError, ValueError):  # a scheme with other fields: sphinx-sitemap's to report
        return
    if prefix and (site_url.rstrip("/") + "/").endswith("/" + prefix):
        warn(
            ContribWarning.CONFIG,
            f"sitemap_url_scheme {config.sitemap_url_scheme!r} adds {prefix!r} to the site's address "
            f"{site_url!r}, which ends with it already: every URL of the sitemap would hold it twice "
            f'({site_url.rstrip("/")}/{prefix}index.html); set sitemap_url_scheme = "{{link}}" in conf.py',
            conf_location(app, "sitemap_url_scheme", "html_baseurl"),
        )
