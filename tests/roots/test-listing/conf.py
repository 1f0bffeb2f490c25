project = "Listing test"
author = "Tester"
contributions_author = author  # the write-ups' author (structured data)
extensions = ["myst_parser", "sphinx_contributions", "sphinx_sitemap", "sphinx_reredirects"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/portfolio/"
sitemap_url_scheme = "{link}"
sitemap_excludes = ["search.html", "genindex.html"]
redirects = {"old-alpha": "a-1.html"}
contributions_index = "index"
# every tag gets a page, also a tag of one write-up (the default, 2, links such a tag to the filtered list)
contributions_tag_page_min = 1
#: the extension writes the sitemap (a portfolio's choice): complete after incremental builds
contributions_sitemap = True

# a page for every project, even of one write-up (the default, 2, links those to their section)
contributions_project_page_min = 1
