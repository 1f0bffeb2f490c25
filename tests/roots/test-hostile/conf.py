# A site fed hostile text in every field and argument (tests/test_hostile.py). Every payload calls
# PWNED(), so a payload that survives as markup is easy to find; long values are generated below.
extensions = ["myst_parser", "sphinxext.opengraph", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_theme = "furo"
html_baseurl = "https://example.org/portfolio/"
ogp_site_url = html_baseurl
ogp_social_cards = {"enable": False}
exclude_patterns = ["_build"]
contributions_author = 'Author </script><script>PWNED()</script> "q"'
contributions_feed_title = "Feed <script>PWNED()</script> & ]]> \u202eevil"
# every tag its own page (each is this one write-up's), hostile names and all
contributions_tag_page_min = 1
