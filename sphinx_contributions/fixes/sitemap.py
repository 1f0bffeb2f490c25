"""The sitemap: only for site builders, and only of the pages that exist there.

sphinx-sitemap lists the pages written by the current build (an incremental build's ``sitemap.xml``
misses every page it did not rewrite), writes one for every HTML builder (``singlehtml``'s lists pages
that do not exist there, the ePub folder gets one too), and lists whatever was rendered from a template,
so ``dirhtml``'s holds ``genindex/``, ``search/`` and ``404/`` (its ``sitemap_excludes`` name ``.html``
files). Rather than drive its private queue, this writes the file itself, after sphinx-sitemap and in
its place, from its public settings (``sitemap_filename``, ``sitemap_url_scheme``, ``sitemap_excludes``,
``sitemap_locales``, ``sitemap_indent``, ``site_url`` or ``html_baseurl``): on site builders, every
document and every generated tag and project page, sorted, at the builder's own URL (``a.html``,
``a/``); on other builders, the file sphinx-sitemap wrote is removed. Only with sphinx-sitemap enabled:
a site without it has no sitemap.

sphinx-sitemap also prefers its own ``site_url`` setting to ``html_baseurl``, and any top-level
``site_url`` in ``conf.py`` becomes that setting: a sitemap that lists another site than the canonical
URL (on Read the Docs: another version, domain or a preview's production URLs) is reported."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote
from xml.etree import ElementTree as ET

from ..builders import is_site_builder
from ..domain import get_domain
from ..warnings import ContribWarning, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx

SITEMAP_EXTENSION = "sphinx_sitemap"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def sitemap_links(app: Sphinx) -> list[str]:
    """The links of the site's pages as the builder writes them (``a/b.html``; dirhtml ``a/b/``),
    sorted, without those ``sitemap_excludes`` matches (as written or percent-decoded)."""
    builder = app.builder
    pages = sorted({*app.env.found_docs, *get_domain(app.env).generated_pages()})
    excludes = list(app.config.sitemap_excludes or ())
    links = []
    for pagename in pages:
        link = builder.get_target_uri(pagename)
        if not any(fnmatch.fnmatch(form, pattern) for form in (link, unquote(link)) for pattern in excludes):
            links.append(link)
    return links


def locales(app: Sphinx) -> list[str]:
    """``sitemap_locales`` (``[None]``: none), else the languages found in ``locale_dirs``, as
    sphinx-sitemap reads them."""
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
    for link in sitemap_links(app):
        url = ET.SubElement(root, "url")
        ET.SubElement(url, "loc").text = site_url + config.sitemap_url_scheme.format(
            lang=lang, version=version, link=link
        )
        for locale in alternates:
            href = site_url + config.sitemap_url_scheme.format(lang=locale + "/", version=version, link=link)
            ET.SubElement(url, f"{{{XHTML_NS}}}link", rel="alternate", hreflang=locale.replace("_", "-"), href=href)
    if config.sitemap_indent:
        ET.indent(root, space=" " * int(config.sitemap_indent))
    text: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return text


def write_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, after sphinx-sitemap: the whole site's sitemap in place of the one it wrote
    (site builders); none elsewhere."""
    if exception is not None or SITEMAP_EXTENSION not in app.extensions or app.builder.format != "html":
        return
    path = Path(app.outdir) / app.config.sitemap_filename
    site_url = app.config.site_url or app.config.html_baseurl
    if not is_site_builder(app.builder):
        path.unlink(missing_ok=True)
    elif site_url:  # without one, sphinx-sitemap has warned that it writes none
        path.write_bytes(sitemap_xml(app, site_url.rstrip("/") + "/"))


def check_sitemap_url(app: Sphinx) -> None:
    """``builder-inited``: sphinx-sitemap's ``site_url``, when set, must be the canonical URL."""
    site_url = app.config.site_url if "site_url" in app.config else None
    if site_url and site_url.rstrip("/") != (app.config.html_baseurl or "").rstrip("/"):
        warn(
            ContribWarning.CONFIG,
            f"site_url is {site_url!r} but html_baseurl is {app.config.html_baseurl!r}: sphinx-sitemap "
            "prefers site_url, so the sitemap would list URLs outside the canonical site (rename a "
            "top-level 'site_url' in conf.py)",
            None,
        )


def setup_sitemap(app: Sphinx) -> None:
    app.connect("builder-inited", check_sitemap_url)
    app.connect("build-finished", write_sitemap, priority=600)  # after sphinx-sitemap's (500)
