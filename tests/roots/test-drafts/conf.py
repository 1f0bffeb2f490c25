extensions = ["myst_parser", "sphinx_sitemap", "sphinx_contributions"]
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/"
sitemap_url_scheme = "{link}"
nitpicky = True
#: the extension writes the sitemap (a portfolio's choice): complete after incremental builds
contributions_sitemap = True
