project = "Summaries"
author = "A. Author"
version = "1"
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/"
exclude_patterns = ["_build"]
