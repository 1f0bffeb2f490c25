"""Sphinx configuration of Imran Nazir's engineering portfolio."""

import os

# -- The two settings to change for a fork -----------------------------------------------------------

#: source repository of this site: "edit this page" links point here
repository_url = "https://github.com/the-cross-art/the-cross-art"
#: canonical base URL when not building on Read the Docs (which sets READTHEDOCS_CANONICAL_URL)
site_url = "https://the-cross-art.readthedocs.io/en/latest/"

# -- Project -------------------------------------------------------------------------------------------

project = "Imran Nazir"
author = "Imran Nazir"
copyright = "Imran Nazir"
language = "en"

extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinx_copybutton",
    "sphinxext.opengraph",
    "sphinx_sitemap",
    "notfound.extension",
    "sphinx_reredirects",
    "sphinx_contributions",
]

# the site sits at the repository root: keep everything that is not a page out of it
exclude_patterns = [
    ".venv",
    "_build",
    "benchmarks",
    "tests",
    "sphinx_contributions",
    "node_modules",
    "README.md",
    "AUTHORING.md",
    "docs",
    ".pytest_cache",
    ".ci",
    "requirements",
]

nitpicky = True
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
myst_heading_anchors = 3

# -- HTML ------------------------------------------------------------------------------------------------

html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL") or site_url
html_theme = "furo"
html_title = "Imran Nazir"
html_static_path = ["_static"]
#: small overrides of furo's templates (accessible names for its landmarks, a heading on the search page)
templates_path = ["_templates"]
html_css_files = ["portfolio.css"]
html_favicon = "_static/favicon.svg"
html_logo = "_static/logo.svg"
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    "source_repository": repository_url + "/",
    "source_branch": "main",
    "source_directory": "",
    "top_of_page_buttons": ["edit"],
    "light_css_variables": {
        "color-brand-primary": "#0e7490",
        "color-brand-content": "#0e7490",
        "color-brand-visited": "#0e7490",
    },
    "dark_css_variables": {
        "color-brand-primary": "#22d3ee",
        "color-brand-content": "#22d3ee",
        "color-brand-visited": "#22d3ee",
    },
}

# -- Extensions ------------------------------------------------------------------------------------------

ogp_site_url = html_baseurl
ogp_social_cards = {"enable": False}
sitemap_url_scheme = "{link}"
sitemap_excludes = ["404.html", "search.html", "genindex.html"]
# the 404 page is served from any depth: its links are absolute, from the canonical URL's path
notfound_urls_prefix = "/" + "".join(part + "/" for part in html_baseurl.split("/")[3:] if part)
# old page name -> new URL, so links to a renamed write-up keep working (sphinx-reredirects)
redirects: dict[str, str] = {}
contributions_author = author
contributions_feed_title = "Imran Nazir: upstream contributions"

# offline builds (tests, CI): the real link check runs on Read the Docs
linkcheck_ignore = [r"https://github\.com/.*", r"https://(www\.)?linkedin\.com/.*"]
