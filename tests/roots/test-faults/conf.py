import os
import time

project = "Faults test"
author = "Tester"
copyright = "Tester"
extensions = ["myst_parser", "sphinx_contributions", "sphinx_sitemap"]
exclude_patterns = ["_build", "_snippets"]
myst_enable_extensions = ["colon_fence"]
html_theme = "furo"
html_baseurl = "https://example.org/site/"
sitemap_url_scheme = "{link}"
sitemap_excludes = ["search.html", "genindex.html"]
nitpicky = True
contributions_index = "contributions/index"

#: seconds each page takes to write when set, so a test can stop the build while it writes
_SLOW = float(os.environ.get("CONTRIB_TEST_SLOW_WRITE") or 0)


def setup(app):
    if _SLOW:
        app.connect("html-page-context", lambda *args: time.sleep(_SLOW))


#: the extension writes the sitemap (a portfolio's choice): complete after incremental builds
contributions_sitemap = True

# a page for every project, even of one write-up (the default, 2, links those to their section)
contributions_project_page_min = 1
