"""A small copy of marshmallow's documentation setup (marshmallow-code/marshmallow@341b927, docs/conf.py;
its docs extra pins ``sphinx==8.1.3``, and at d218564 ``sphinx==7.4.7``): sphinx-issues owning ``:issue:``,
``:pr:`` and ``:user:``, ``primary_domain = "py"`` with ``default_role = "py:obj"``, alabaster with its
theme options and sidebars, ``source_suffix = ".rst"``. tests/test_real_sites.py builds it without and
with sphinx_contributions."""

extensions = ["sphinx.ext.intersphinx", "sphinx_issues"]
primary_domain = "py"
default_role = "py:obj"
issues_github_path = "marshmallow-code/marshmallow"
source_suffix = ".rst"
master_doc = "index"
project = "marshmallow"
copyright = '<a href="https://stevenloria.com">Steven Loria</a> and contributors'
version = release = "3.23.0"
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_show_sourcelink = False
html_theme_options = {
    "description": "Object serialization and deserialization, lightweight and fluffy.",
    "description_font_style": "italic",
    "github_user": "marshmallow-code",
    "github_repo": "marshmallow",
    "github_banner": True,
    "github_type": "star",
    "code_font_size": "0.8em",
    "extra_nav_links": {"marshmallow @ PyPI": "https://pypi.org/project/marshmallow/"},
}
html_sidebars = {"**": ["about.html", "searchbox.html", "navigation.html", "relations.html"]}
