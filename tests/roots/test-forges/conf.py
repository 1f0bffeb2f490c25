extensions = ["myst_parser", "sphinx_contributions"]
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/"
nitpicky = True
