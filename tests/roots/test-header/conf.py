project = "Header test"
author = "Tester"
version = "1"
copyright = "Tester"
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_baseurl = "https://example.org/"
latex_engine = "xelatex"
exclude_patterns = ["_build"]
# every tag its own page, also a tag of one write-up (the header links each)
contributions_tag_page_min = 1
# every project its own page, also a project of one write-up
contributions_project_page_min = 1
