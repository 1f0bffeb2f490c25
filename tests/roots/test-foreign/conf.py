"""A documentation site that is not a portfolio, as a guest finds it: reStructuredText pages, alabaster,
a changelog that links with ``:issue:`` and ``:pr:``, an index with entries. Two hosts in one root: by
default its ``:issue:``/``:pr:`` are ``extlinks`` (as sphinx-design's docs define them); with
``confoverrides={"extensions": ISSUES}`` and ``extlinks = {}`` they are sphinx-issues' roles (the two
cannot both hold the names: extlinks would warn). tests/test_foreign.py adds ``sphinx_contributions``."""

project = "Widgets"
author = "The Widgets Team"
copyright = "2026, The Widgets Team"
version = "2.1"
release = "2.1.0"
language = "en"

extensions = ["sphinx.ext.extlinks", "sphinx_sitemap"]

html_theme = "alabaster"
html_baseurl = "https://widgets.example.org/"
sitemap_url_scheme = "{link}"

extlinks = {
    "issue": ("https://github.com/widgets/widgets/issues/%s", "issue %s"),
    "pr": ("https://github.com/widgets/widgets/pull/%s", "PR %s"),
}
# sphinx-issues' settings, read only where it is loaded
issues_github_path = "widgets/widgets"

nitpicky = True
