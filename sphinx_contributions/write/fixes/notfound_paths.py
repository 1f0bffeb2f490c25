"""sphinx-notfound-page writes the 404 page's links as absolute paths from ``notfound_urls_prefix``
(``/en/latest/_static/…``), so a server that serves the page from any depth finds its stylesheets. With
no canonical URL the prefix is unknown: set to ``None`` it becomes ``/``, and the page is unstyled
everywhere but at a host root (``/en/stable/`` serves ``/_static/…``, which is not there).

With ``notfound_urls_prefix = None`` this keeps Sphinx's own links on the 404 page (relative to the
site's root, where the page is written) and puts first in its ``<head>`` a small script that sets the
page's ``<base>`` to where the page is written under the site's root as the address shows it:
``/<language>/<version>/`` when the path starts with the site's language (Read the Docs' layout), else
``/`` (and ``404/`` below it for ``dirhtml``). Links to a place on the page
itself (``#…``) keep pointing at the page. The stylesheet and script tags are written by inline scripts
after that, and the logo (furo's one for each mode too) and favicon are inline ``data:`` URLs, so no
request goes to a wrong folder first. With a prefix set, sphinx-notfound-page's links are left as they are."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: the context entries sphinx-notfound-page replaces on its page to write absolute links
_HELPERS = ("pathto", "css_tag", "js_tag", "toctree")
_SAVED = "contrib_notfound_helpers"

_IMAGE_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}
#: ``<base>`` from the address; then same-page links (``#main``) point at this page, not at the root
BASE_SCRIPT = """<script>(function () {
  var language = %s, folder = %s, path = location.pathname, root = "/";
  var parts = path.split("/");
  if (language && parts[1] === language && parts.length > 3) root = "/" + parts[1] + "/" + parts[2] + "/";
  var base = document.createElement("base");
  base.href = root + folder;
  document.head.appendChild(base);
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll('a[href^="#"]').forEach(function (a) { a.href = path + a.getAttribute("href"); });
  });
})();</script>"""


#: an ``href`` or ``action`` relative to the site's root (no scheme, not ``/…``, not ``#…``)
_RELATIVE_LINK = re.compile(r'\b(href|action)="(?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)')


def _applies(app: Sphinx, pagename: str) -> bool:
    return (
        "notfound.extension" in app.extensions
        and pagename == app.config.notfound_pagename
        and not app.config.notfound_urls_prefix
    )


def save_helpers(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context`` before sphinx-notfound-page's (400): keep Sphinx's own link helpers."""
    if _applies(app, pagename):
        context[_SAVED] = {name: context[name] for name in _HELPERS if name in context}


def restore_helpers(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object) -> None:
    """``html-page-context`` after sphinx-notfound-page's: Sphinx's helpers back, and the base script."""
    saved = context.pop(_SAVED, None)
    if not _applies(app, pagename) or saved is None:
        return
    context.update(saved)
    for name in ("css_tag", "js_tag"):  # written by the page's script once its base is set (see below)
        if callable(saved.get(name)):
            context[name] = _written_after_base(saved[name])
    if callable(saved.get("pathto")):
        context["pathto"] = _images_inline(app, saved["pathto"])
    uri = app.builder.get_target_uri(pagename)  # "404.html"; "404/" for dirhtml
    folder = uri.rpartition("/")[0] + "/" if "/" in uri else ""
    script = BASE_SCRIPT % (json.dumps(app.config.language or ""), json.dumps(folder))
    context["metatags"] = script + "\n" + context.get("metatags", "")
    if folder and isinstance(context.get("body"), str):  # the page's own text links from the site's root
        up = "../" * folder.count("/")
        context["body"] = _RELATIVE_LINK.sub(rf'\1="{up}', context["body"])


def _written_after_base(tag: Callable[..., str]) -> Callable[..., str]:
    """A stylesheet or script tag written by an inline script: Chromium's preload scanner fetches the
    URLs of tags in the markup before any script runs, so a relative URL there is fetched once from the
    wrong folder (``/deep/path/_static/…``) before the ``<base>`` applies; a URL in a script is not."""

    def written(*args: Any, **kwargs: Any) -> str:
        markup = json.dumps(tag(*args, **kwargs)).replace("</", "<\\/")
        return f"<script>document.write({markup});</script>"

    return written


def _images_inline(app: Sphinx, pathto: Callable[..., str]) -> Callable[..., str]:
    """``pathto`` for the page, with the logo and favicon as ``data:`` URLs (fetched from nowhere, so from
    no wrong folder either); anything else as Sphinx links it."""
    images = {}
    sources = [Path(app.confdir, getattr(app.config, setting, None) or "") for setting in ("html_logo", "html_favicon")]
    sources = [path for path in sources if path != Path(app.confdir)]
    # furo's logo for each mode (theme options light_logo, dark_logo: files in html_static_path)
    options = app.config.html_theme_options or {}
    for name in (options.get("light_logo"), options.get("dark_logo")):
        if isinstance(name, str) and name:
            sources += [Path(app.confdir, folder, name) for folder in app.config.html_static_path]
    for path in sources:
        if "://" not in str(path) and path.suffix in _IMAGE_TYPES and path.is_file():
            data = base64.b64encode(path.read_bytes()).decode()
            images[f"_static/{path.name}"] = f"data:{_IMAGE_TYPES[path.suffix]};base64,{data}"

    def linked(otheruri: str, resource: bool = False, *args: Any, **kwargs: Any) -> str:
        if resource and otheruri in images:
            return images[otheruri]
        return pathto(otheruri, resource, *args, **kwargs)

    return linked
