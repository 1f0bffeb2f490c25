extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["_build"]
