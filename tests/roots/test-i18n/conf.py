project = "Translation test"
author = "Tester"
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
contributions_index = "index"
locale_dirs = ["locales"]
