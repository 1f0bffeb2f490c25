"""A portfolio like the repository's own (same extensions, theme, books and settings) with fictional
pages: the extension's tests build it instead of the owner's pages, which are not in the sdist."""

import os
import re
from urllib.parse import urlsplit

from sphinx.application import Sphinx
from sphinx.config import Config


def _github_url(clone_url: str) -> str:
    """``https://github.com/u/r.git`` or ``git@github.com:u/r.git`` -> ``https://github.com/u/r``; else ""."""
    match = re.fullmatch(r"(?:https://github\.com/|git@github\.com:)([\w.-]+/[\w.-]+?)(?:\.git)?/?", clone_url)
    return f"https://github.com/{match.group(1)}" if match else ""


# -- The settings to change for a fork -------------------------------------------------------------------

#: this site's source repository (``https://github.com/<user>/<repository>``): "edit this page" links
#: point there. Empty means no edit links: set it here or with ``-D repository_url=…``; on Read the Docs it
#: comes from the clone URL Read the Docs gives the build (``READTHEDOCS_GIT_CLONE_URL``).
repository_url = _github_url(os.environ.get("READTHEDOCS_GIT_CLONE_URL", ""))
#: the branch the edit links open (on Read the Docs: the branch being built)
repository_branch = (
    os.environ.get("READTHEDOCS_GIT_IDENTIFIER", "main")
    if os.environ.get("READTHEDOCS_VERSION_TYPE") == "branch"
    else "main"
)
#: the site's canonical URL (``https://<host>/<path>/``): the one base of every absolute URL the build
#: writes (canonical links, og:url and og:image, the sitemap, the feed, the JSON's URLs, the ePub's
#: identifier, the PDF's title page). Read the Docs sets ``READTHEDOCS_CANONICAL_URL``; elsewhere no
#: address is known, so none is written (the build says what it leaves out) until one is given with
#: ``-D html_baseurl=https://…/``. The settings derived from it are set in ``_canonical`` below.
html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL", "")

# -- Project -------------------------------------------------------------------------------------------

project = "Ada Tester"
author = "Ada Tester"
copyright = "Ada Tester"
language = "en"
#: the profile's role line: the home page's subtitle and the PDF's title page
profile_tagline = "Test Engineer · Fictional Systems · Example Data"
#: the PDF's title page (the package's: name, role line, these links and the site's address)
contributions_tagline = profile_tagline
contributions_profile_links = ["https://github.com/example", "https://ada.example/"]
#: the version Read the Docs builds ("latest", a branch or a tag): ePub 3 requires one; no release number
#: is shown (the PDF's page headers carry the name alone)
version = os.environ.get("READTHEDOCS_VERSION", "latest")

extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinx_copybutton",
    "sphinx_contributions",
    "sphinxext.opengraph",
    "sphinx_sitemap",
    "notfound.extension",
    "sphinx_reredirects",
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
    "CONTRIBUTING.md",
    "docs",
    ".pytest_cache",
    ".ci",
    "requirements",
    # what `python -m build` leaves behind: a copy of the package, its AUTHORING.md included
    "build",
    "dist",
    ".nox",  # `make test-matrix`'s venvs
]

nitpicky = True
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
myst_heading_anchors = 3

# -- HTML ------------------------------------------------------------------------------------------------

html_theme = "furo"
html_title = "Ada Tester"
#: the home page's tab and bookmark: who and what (the role line), where every other page's says its title
html_context = {"home_title": f"{project} — {profile_tagline}"}
html_static_path = ["_static"]
#: small overrides of furo's templates (accessible names for its landmarks, a heading on the search page)
templates_path = ["_templates"]
html_css_files = ["portfolio.css"]
html_favicon = "_static/favicon.svg"
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    # the edit button and its repository: added by _edit_links below, only when repository_url is set
    "top_of_page_buttons": [],
    # the site's mark (a step line falling to its result), one file per mode: teal on the light sidebar,
    # the light cyan on the dark one (each at least 3:1, tests/test_site.py measures it)
    "light_logo": "logo-light.svg",
    "dark_logo": "logo-dark.svg",
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

# -- PDF (LaTeX) and ePub: the downloads Read the Docs offers (.readthedocs.yaml: formats) ---------------

# xelatex typesets the characters the site uses (≈ → × · …) with GNU FreeFont; Read the Docs runs latexmk
# with the engine named here
latex_engine = "xelatex"
latex_documents = [("index", "ada-tester.tex", project, author, "howto", False)]
latex_toplevel_sectioning = "section"
latex_use_xindy = False
latex_domain_indices = False
latex_elements = {
    "papersize": "a4paper",
    "releasename": "",
    "extraclassoptions": "oneside",
    "fontpkg": r"""
\setmainfont{FreeSerif}[Extension=.otf, UprightFont=*, ItalicFont=*Italic, BoldFont=*Bold,
  BoldItalicFont=*BoldItalic]
\setsansfont{FreeSans}[Extension=.otf, UprightFont=*, ItalicFont=*Oblique, BoldFont=*Bold,
  BoldItalicFont=*BoldOblique]
\setmonofont{FreeMono}[Scale=0.9, Extension=.otf, UprightFont=*, ItalicFont=*Oblique, BoldFont=*Bold,
  BoldItalicFont=*BoldOblique]
""",
    # a compact document: the title block (sphinx_contributions/write/title_page.py) opens the first page, no
    # table of contents page, no index
    "tableofcontents": "",
    "printindex": "",
}

epub_title = project
epub_author = author
epub_publisher = author
# Sphinx writes dc:contributor "unknown" unless told; the site has no index entries: no empty "Index" page
epub_contributor = author
epub_use_index = False
epub_copyright = copyright
epub_description = profile_tagline
# the root's toctree is hidden (the theme shows it): the ePub's table of contents includes hidden toctrees
epub_tocscope = "includehidden"
epub_show_urls = "no"

# -- Extensions ------------------------------------------------------------------------------------------

# opengraph's cards are matplotlib's (~87 ms a card): the extension draws its own (og:image, 1200×630)
ogp_social_cards = {"enable": False}
contributions_social_cards = True
# html_baseurl already holds the language and version (``…/en/latest/``): no second prefix
sitemap_url_scheme = "{link}"
sitemap_excludes = ["404.html", "search.html", "genindex.html"]
# old page name -> new URL, so links to a renamed write-up keep working (sphinx-reredirects)
redirects: dict[str, str] = {}
contributions_author = author
# this site is the portfolio: the extension's site-wide choices are on (a documentation site that only hosts
# some write-ups leaves them off, and its other pages stay exactly as they are without the extension)
contributions_assets_everywhere = True  # its stylesheet on every page: the sidebar and search use it
contributions_external_rel = True  # rel="noopener noreferrer" on every outbound link
contributions_hide_empty_index = True  # no empty Index page
contributions_sitemap = True  # the extension writes the sitemap: every page, also after an incremental build
contributions_pdf_card_styles = True  # sphinx-design's card titles on a line of their own in the PDF
contributions_book_fixes = True  # singlehtml: no links to pages it does not write, one '#' per link
#: a page that warned is read again on every build until fixed, whatever warned (not only the extension)
contributions_lasting_warnings = True
contributions_feed_title = "Ada Tester: upstream contributions"

# -- Link check ------------------------------------------------------------------------------------------

# `-b linkcheck` checks every external link; CONTRIBUTIONS_OFFLINE=1 (tests, machines without network)
# skips them, and checks the site's own links only
linkcheck_ignore = [r"^https?://"] if os.environ.get("CONTRIBUTIONS_OFFLINE") else []

# -- Edit links only where the repository is known ----------------------------------------------------------


def _edit_links(app: Sphinx, config: Config) -> None:
    """furo's "edit this page" button, pointing at ``repository_url``, only when that is set."""
    url = config.repository_url.strip().rstrip("/")
    if url:
        config.html_theme_options = {
            **config.html_theme_options,
            "source_repository": url + "/",
            "source_branch": config.repository_branch,
            "source_directory": "",
            "top_of_page_buttons": ["edit"],
        }


def _notfound_body(root: str) -> str:
    """The 404 page's text: a search box and the way home; ``root`` is the site's path, as
    sphinx-notfound-page's own links start (``/`` without a canonical URL)."""
    return f"""<h1>Page not found</h1>
<p>There is no page at this address. Search the site, or start from one of these pages:</p>
<form class="contrib-notfound-search" action="{root}search.html" method="get">
<label for="notfound-search">Search this site</label>
<input type="search" id="notfound-search" name="q" autocomplete="off">
<button type="submit">Search</button>
</form>
<ul>
<li><a href="{root}index.html">Home: Ada Tester</a></li>
<li><a href="{root}contributions/index.html">Contributions: every upstream pull request</a></li>
</ul>
"""


def _canonical(app: Sphinx, config: Config) -> None:
    """The settings that follow ``html_baseurl`` (set here, so ``-D html_baseurl=…`` moves them too). With
    no canonical URL, nothing names an address: no og:url base, relative 404 links, a book identifier that
    is not a URL (the PDF's title page names html_baseurl only when it is set)."""
    base = config.html_baseurl.strip()
    config.ogp_site_url = base
    # the feed is written only where the canonical URL is known: the list names it only then
    # (contributions/index.md, ``{only} feed``)
    if base:
        app.tags.add("feed")
    # the 404 page is served from any depth: its links are absolute, from the canonical URL's path
    config.notfound_urls_prefix = ("/" + "".join(f"{part}/" for part in base.split("/")[3:] if part)) if base else None
    config.notfound_context = {"title": "Page not found", "body": _notfound_body(config.notfound_urls_prefix or "/")}
    # the site's host identifies the book: toc.ncx repeats epub_uid where content.opf has epub_identifier
    # (sphinx-doc/sphinx#11184), and epub_uid must be an XML name, so the two are one value without "/"
    config.epub_identifier = config.epub_uid = urlsplit(base).hostname or "ada-tester"


def setup(app: Sphinx) -> None:
    # registered, so that -D repository_url=… (and -D repository_branch=…) override them
    app.add_config_value("repository_url", "", "html", types=frozenset({str}))
    app.add_config_value("repository_branch", "main", "html", types=frozenset({str}))
    app.connect("config-inited", _edit_links)
    app.connect("config-inited", _canonical)
