project = "Templates test"
author = "Tester"
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/portfolio/"
contributions_index = "index"
#: the site's own versions of two of the extension's templates
templates_path = ["_templates"]
contributions_tag_page_min = 1  # its one write-up's tag gets a page, drawn by the site's template

# a page for every project, even of one write-up
contributions_project_page_min = 1
