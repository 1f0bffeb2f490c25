extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/"
exclude_patterns = ["_build"]
# a page for every project, even of one write-up (the header links it)
contributions_project_page_min = 1
