project = "Impact test"
author = "Tester"
extensions = ["myst_parser", "sphinx_contributions", "sphinxext.opengraph"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/portfolio/"
ogp_social_cards = {"enable": False}
contributions_index = "list"
