"""The manual of sphinx-contributions: a Sphinx site of its own (its own Read the Docs project:
docs/.readthedocs.yaml), built strictly (``-n -W``) by tests/test_docs.py. Its reference pages are
generated from the package's tables by ``_ext/contrib_reference.py``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

from sphinx_contributions.version import __version__

project = "sphinx-contributions"
author = "the sphinx-contributions authors"
copyright = "the sphinx-contributions authors (MIT licence)"
version = release = __version__
html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL", "")

extensions = ["myst_parser", "sphinx_contributions", "contrib_reference", "contrib_example", "guide_anchors"]
myst_enable_extensions = ["colon_fence"]
#: the guide's headings get anchors (its parts link each other by them: guide_anchors.py)
myst_heading_anchors = 3
html_theme = "furo"
html_static_path = ["_static"]
#: the themes gallery's frames (how-to/themes.md)
html_css_files = ["gallery.css", "examples.css"]
html_title = f"sphinx-contributions {version}"
nitpicky = True
# audit.md: the portfolio's audit figures, a maintainers' note, not the manual's
exclude_patterns = ["_build", "README.md", "audit.md"]
# the manual's own examples are not a portfolio: no feed, no exports it would publish as its own
suppress_warnings: list[str] = []
