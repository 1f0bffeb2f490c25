"""A small copy of Flask's documentation setup (pallets/flask@2ac8988, docs/conf.py; its docs group pins
``sphinx<9``): ``default_role = "code"``, ``extlinks`` that own ``issue``, ``pr`` and ``ghsa`` (captions
``#%s``), sphinx-notfound-page with ``notfound_urls_prefix = None`` set at ``builder-inited`` outside Read the
Docs, as pallets-sphinx-themes does, and a layout that overrides the ``metatags`` and ``extrahead`` blocks,
as that theme's does. tests/test_real_sites.py builds it without and with sphinx_contributions."""

import os

project = "Flask"
copyright = "2010 Pallets"
author = "Pallets"
release = version = "3.2.0.dev"

default_role = "code"
extensions = ["sphinx.ext.extlinks", "sphinx.ext.intersphinx", "notfound.extension"]
extlinks = {
    "issue": ("https://github.com/pallets/flask/issues/%s", "#%s"),
    "pr": ("https://github.com/pallets/flask/pull/%s", "#%s"),
    "ghsa": ("https://github.com/pallets/flask/security/advisories/GHSA-%s", "GHSA-%s"),
}
html_theme = "alabaster"
templates_path = ["_templates"]
html_sidebars = {"**": ["localtoc.html", "relations.html", "searchbox.html"]}
html_title = f"Flask Documentation ({version})"
html_show_sourcelink = False
exclude_patterns = ["_build"]


def setup(app):
    def no_prefix_outside_read_the_docs(app):
        if "READTHEDOCS" not in os.environ:  # pallets_sphinx_themes.setup, as it does it
            app.config.notfound_urls_prefix = None

    app.connect("builder-inited", no_prefix_outside_read_the_docs)
