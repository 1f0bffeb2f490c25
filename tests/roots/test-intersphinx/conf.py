import os

project = "Elsewhere"
extensions = ["myst_parser", "sphinx.ext.intersphinx", "sphinx_contributions"]
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence"]
nitpicky = True
#: the inventory of another site (tests/roots/test-faults, built by the test)
intersphinx_mapping = {"faults": ("https://faults.example/", os.environ.get("CONTRIB_TEST_INVENTORY") or None)}
intersphinx_disabled_reftypes = []
nitpick_ignore = [("contrib:contrib", "ignored#9")]
