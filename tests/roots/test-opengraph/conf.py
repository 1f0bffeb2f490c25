# A write-up whose title and summary hold the characters an attribute must escape
# (tests/test_compat.py): sphinxext-opengraph's tags and the sharing card's show each escaped once.
project = "Escaping"
smartquotes = False
extensions = ["myst_parser", "sphinxext.opengraph", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_theme = "basic"
html_baseurl = "https://example.org/site/"
ogp_site_url = html_baseurl
ogp_social_cards = {"enable": False}
contributions_social_cards = True
exclude_patterns = ["_build"]
