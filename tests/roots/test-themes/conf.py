# one small portfolio, built under each supported theme by tests/test_themes.py (-D html_theme=…)
project = "Demo"  # short: pydata-sphinx-theme's own navbar overflows a 390 px screen with a 10-letter name
author = "Tester"
extensions = ["myst_parser", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["_build"]
nitpicky = True
html_theme = "alabaster"
