"""The one settings table (``sphinx_contributions/settings.py``) and the one wiring table
(``sphinx_contributions/extension.py``): a wrong type or a misspelt name is one ``[contrib.config]``
warning at its line of ``conf.py``, never an exception; AUTHORING's table is the code's; a build with
nothing to do finds the configuration unchanged; every handler and every setting is registered in one
file; the extension's own event reaches another extension."""

from __future__ import annotations

import ast
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from sphinx_contributions.extension import EVENTS, HANDLERS
from sphinx_contributions.settings import SETTINGS
from tests.conftest import REPO, MakeApp

BASE_CONF = "extensions = ['myst_parser', 'sphinx_contributions']\nmyst_enable_extensions = ['colon_fence']\n"


def site(rootdir: Path, tmp_path: Path, conf: str = "") -> Path:
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-settings", srcdir)
    (srcdir / "conf.py").write_text(BASE_CONF + conf, encoding="utf-8")
    return srcdir


def build(make_app: MakeApp, srcdir: Path, **kwargs: object) -> SphinxTestApp:
    app = make_app("html", srcdir=srcdir, status=StringIO(), warning=StringIO(), **kwargs)
    app.build()
    return app


def warnings(app: SphinxTestApp) -> list[str]:
    return strip_colors(app.warning.getvalue()).splitlines()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "contributions_sidebar_limt = 3",
            "contributions_sidebar_limt is not a setting of sphinx-contributions and is ignored; did you mean "
            "contributions_sidebar_limit? [contrib.config]",
        ),
        (
            "contributions_include_draft = True",
            "contributions_include_draft is not a setting of sphinx-contributions and is ignored; did you mean "
            "contributions_include_drafts? [contrib.config]",
        ),
        (
            "contribution_index = 'work/index'",
            "contribution_index is not a setting of sphinx-contributions and is ignored; did you mean "
            "contributions_index? [contrib.config]",
        ),
        (
            "contributions_colour = 'teal'",
            "contributions_colour is not a setting of sphinx-contributions and is ignored; the settings are listed "
            "in AUTHORING.md, 'Settings' [contrib.config]",
        ),
        (
            "contributions_sidebar_limit = 'three'",
            "contributions_sidebar_limit = 'three': it takes a whole number (how many write-ups the sidebar lists); "
            "the default 10 is used [contrib.config]",
        ),
        (
            "contributions_social_cards = 'yes'",
            "contributions_social_cards = 'yes': it takes True or False (a 1200×630 PNG card for every page); the "
            "default False is used [contrib.config]",
        ),
        (
            "contributions_sidebar_limit = True",
            "contributions_sidebar_limit = True: it takes a whole number (how many write-ups the sidebar lists); the "
            "default 10 is used [contrib.config]",
        ),
    ],
)
def test_a_wrong_setting_is_one_warning_at_its_line(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, line: str, expected: str
) -> None:
    srcdir = site(rootdir, tmp_path, f"project = 'x'\n{line}\n")
    app = build(make_app, srcdir)  # never an exception: a wrong type used to end in an ExtensionError
    assert warnings(app) == [f"{srcdir / 'conf.py'}:4: WARNING: {expected}"]


def test_a_wrong_value_given_with_d_is_a_warning_without_a_line(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """``sphinx-build -D``: the value is in no line of ``conf.py``, so the warning has no location (on
    0ba5fc5 it named ``conf.py`` without a line, which Sphinx reads as a page's name: a traceback)."""
    overrides = {"contributions_facts": "bogus", "html_baseurl": "nota"}
    app = build(make_app, site(rootdir, tmp_path), confoverrides=overrides)
    assert warnings(app) == [
        "WARNING: contributions_facts = ['bogus']: 'bogus' is not one of size, tests, commits, approvals, closes, "
        "time; left out [contrib.config]",
        "WARNING: html_baseurl = 'nota' is not an http:// or https:// URL (such as 'https://example.org/'): no "
        "canonical URL is used, so the feed, the sitemap, canonical links and social cards are left out "
        "[contrib.config]",
    ]


def test_the_line_is_the_assignment_sphinx_uses(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    """``conf.py`` assigns a setting twice: the warning is at the last line, whose value Sphinx reads."""
    srcdir = site(rootdir, tmp_path, "contributions_sidebar_limit = 3\ncontributions_sidebar_limit = 'three'\n")
    assert warnings(build(make_app, srcdir)) == [
        f"{srcdir / 'conf.py'}:4: WARNING: contributions_sidebar_limit = 'three': it takes a whole number (how "
        "many write-ups the sidebar lists); the default 10 is used [contrib.config]"
    ]


def test_a_wrong_value_is_replaced_by_the_default(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    app = build(make_app, site(rootdir, tmp_path, "contributions_sidebar_limit = 'three'\n"))
    assert app.config.contributions_sidebar_limit == 10


def test_a_right_site_gets_no_settings_warning(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    conf = "contributions_sidebar_limit = 3\ncontributions_profile_links = ('https://example.org/',)\n"
    app = build(make_app, site(rootdir, tmp_path, conf))
    assert warnings(app) == []


def test_a_furo_build_with_nothing_to_do_reads_and_writes_nothing(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """furo registers ``pygments_dark_style`` when the builder loads the theme, after Sphinx compares the
    settings: a build with nothing to do says "The configuration has changed (…'pygments_dark_style')", and
    reads and writes nothing (an ``html`` setting). Guard of the patch that was dropped for it
    (``docs/explanation/workarounds.md``): fails when Sphinx starts reading pages again for it."""
    srcdir = site(rootdir, tmp_path, "html_theme = 'furo'\npygments_dark_style = 'monokai'\n")
    first = build(make_app, srcdir, freshenv=True)
    assert warnings(first) == []
    again = build(make_app, srcdir)
    status = strip_colors(again.status.getvalue())
    assert "updating environment: 0 added, 0 changed, 0 removed" in status, status
    assert "no targets are out of date." in status, status
    assert again.config.pygments_dark_style == "monokai"


@pytest.mark.parametrize("builder", ["text", "latex", "dummy", "linkcheck"])
def test_a_furo_site_builds_with_a_builder_that_is_not_html(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, builder: str
) -> None:
    """The extension never sets up the site's theme itself: furo refuses any builder but an HTML one ("Furo
    is being used as an extension in a non-HTML build"), and setting it up for every builder stopped the PDF,
    text and ``contributions check``'s draft builds of every furo site."""
    srcdir = site(rootdir, tmp_path, "html_theme = 'furo'\nlinkcheck_ignore = ['.*']\n")
    app = make_app(builder, srcdir=srcdir, status=StringIO(), warning=StringIO(), freshenv=True)
    app.build()
    assert warnings(app) == []
    assert "furo" not in app.extensions


#: what other packages change when the builder starts: sphinx-design's and sphinx-copybutton's folders
#: appended to ``html_static_path``, the priority Sphinx's HTML builder sets in ``html_css_files`` and
#: ``html_js_files`` (Sphinx then says "The configuration has changed", and rightly reads and writes nothing)
OTHERS_CONF = """\
extensions = ['myst_parser', 'sphinx_design', 'sphinx_copybutton', 'sphinx_contributions']
html_static_path = ['_static']
html_css_files = ['site.css', ('print.css', {'media': 'print'})]
html_js_files = ['site.js']
"""


@pytest.mark.parametrize("conf", ["", OTHERS_CONF], ids=["alone", "with-others"])
def test_a_build_with_nothing_to_do_reads_and_writes_nothing(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, conf: str
) -> None:
    # sphinx.testing swaps alabaster for basic
    srcdir = site(rootdir, tmp_path, "html_theme = 'basic'\n" + conf)
    (srcdir / "_static").mkdir()
    for name in ("site.css", "print.css", "site.js"):
        (srcdir / "_static" / name).write_text("/* the site's */\n", encoding="utf-8")
    build(make_app, srcdir, freshenv=True)
    again = build(make_app, srcdir)
    status = strip_colors(again.status.getvalue())
    # Sphinx's HTML builder sets each file's default priority in html_css_files after the comparison: the
    # line "The configuration has changed ('html_css_files')" stays Sphinx's, and no page is read or written
    assert "updating environment: 0 added, 0 changed, 0 removed" in status, status
    assert "no targets are out of date." in status, status


def test_authorings_settings_table_is_the_codes() -> None:
    text = (REPO / "AUTHORING.md").read_text(encoding="utf-8")
    section = text[text.index("# Settings (`conf.py`)") :]
    rows = re.findall(r"^\| `(contributions_\w+)` \| (.+?) \|", section, re.MULTILINE)
    assert [name for name, _ in rows] == [setting.name for setting in SETTINGS]
    for (name, default), setting in zip(rows, SETTINGS, strict=True):
        if not callable(setting.default):  # contributions_noindex: its default is said in words
            shown = default.strip("`")
            assert ast.literal_eval(shown) == setting.default, name


def package_calls(name: str) -> set[str]:
    files = set()
    for path in (REPO / "sphinx_contributions").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name:
                files.add(path.relative_to(REPO).as_posix())
    return files


def test_every_handler_is_wired_in_one_file_and_every_setting_registered_in_one() -> None:
    # the extension's handlers, all in the wiring table; the preview (cli/preview.py) is a host of its own
    # application, and counts the pages it reads and writes
    assert package_calls("connect") == {"sphinx_contributions/extension.py", "sphinx_contributions/cli/preview.py"}
    assert package_calls("add_config_value") == {"sphinx_contributions/settings.py"}


def test_the_wiring_table_stands_in_the_order_sphinx_runs_it() -> None:
    events = list(dict.fromkeys(handler.event for handler in HANDLERS))
    for event in events:
        priorities = [handler.priority for handler in HANDLERS if handler.event == event]
        assert priorities == sorted(priorities), event
    # each event's rows together, never split by another event's
    seen = [handler.event for handler in HANDLERS]
    assert seen == sorted(seen, key=events.index)
    assert all(handler.why for handler in HANDLERS)


def test_the_figure_s_visitors_are_those_the_metric_module_says_draw_it() -> None:
    from sphinx_contributions import extension, nodes
    from sphinx_contributions.render.metric import VISITORS

    assert set(dict(extension.NODES)[nodes.metric]) == VISITORS


def test_another_extension_hears_of_each_record(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    assert "contributions-record" in EVENTS
    conf = (
        "heard = []\n"
        "def setup(app):\n"
        "    app.connect('contributions-record', lambda app, docname, record: heard.append((docname, record.key)))\n"
    )
    srcdir = site(rootdir, tmp_path, conf)
    app = build(make_app, srcdir, freshenv=True)
    assert app.config._raw_config["heard"] == [("good", "good#1")]


def test_authorings_example_of_the_event_runs(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (REPO / "AUTHORING.md").read_text(encoding="utf-8")
    section = text[text.index("# Hooking in from another extension") :]
    example = section[
        section.index("```python\n") + len("```python\n") : section.index("\n```", section.index("```python"))
    ]
    build(make_app, site(rootdir, tmp_path, example + "\n"), freshenv=True)
    assert "good good#1\n" in capsys.readouterr().out


# -- settings that collide ------------------------------------------------------------------------------

CONFIG_WARNING = "{conf}:{line}: WARNING: {text} [contrib.config]"


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("' '", "is blank"),
        ("'example.org/portfolio/'", "is not an http:// or https:// URL (such as 'https://example.org/')"),
        ("'ftp://example.org/'", "is not an http:// or https:// URL (such as 'https://example.org/')"),
    ],
)
def test_an_html_baseurl_that_is_no_url_is_refused(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, value: str, why: str
) -> None:
    """On main a blank value said the feed and sitemap were left out and wrote both with ``" /"``; one
    without a scheme wrote relative feed ids and sitemap URLs."""
    # the extension writes the sitemap (a portfolio's choice; else sphinx-sitemap's own warning is the site's)
    conf = f"extensions.append('sphinx_sitemap')\nhtml_baseurl = {value}\ncontributions_sitemap = True\n"
    app = build(make_app, site(rootdir, tmp_path, conf))
    text = (
        f"html_baseurl = {ast.literal_eval(value)!r} {why}: no canonical URL is used, so the feed, the sitemap, "
        "canonical links and social cards are left out"
    )
    assert warnings(app) == [CONFIG_WARNING.format(conf=Path(app.confdir) / "conf.py", line=4, text=text)]
    assert app.config.html_baseurl == ""
    out = Path(app.outdir)
    assert not (out / "contributions.atom").exists()
    assert not (out / "sitemap.xml").exists()
    assert "example.org" not in (out / "contributions.json").read_text(encoding="utf-8")


def test_an_html_baseurl_gets_its_trailing_slash(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    conf = "extensions.append('sphinx_sitemap')\nsitemap_url_scheme = '{link}'\nhtml_baseurl = ' https://example.org/en/latest'\n"
    app = build(make_app, site(rootdir, tmp_path, conf))
    assert warnings(app) == []
    assert app.config.html_baseurl == "https://example.org/en/latest/"
    sitemap = (Path(app.outdir) / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/en/latest/index.html</loc>" in sitemap


def test_the_portfolios_og_url_keeps_the_path_without_a_trailing_slash(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """The portfolio derives ``ogp_site_url`` from ``html_baseurl`` (``conf.py``'s ``_canonical``): joined
    to ``…/en/latest``, ``og:url`` lost ``latest``. Built from a copy (in place, its ``_build`` landed in
    tests/roots, which the sdist's listing then missed)."""
    app = make_app(
        "html",
        srcdir=Path(shutil.copytree(rootdir / "test-portfolio", tmp_path / "src")),
        freshenv=True,
        status=StringIO(),
        warning=StringIO(),
        confoverrides={"html_baseurl": "https://portfolio.example.org/en/latest"},
    )
    app.build()
    page = (Path(app.outdir) / "about/index.html").read_text(encoding="utf-8")
    assert '<meta property="og:url" content="https://portfolio.example.org/en/latest/about/index.html" />' in page


@pytest.mark.parametrize(
    ("tags", "projects", "how"),
    [
        ("work", "work", "one folder"),
        ("work/tags", "work", "one folder inside the other"),
        ("tags", "tags/projects", "one folder inside the other"),
    ],
)
def test_tag_and_project_folders_that_collide_are_refused(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, tags: str, projects: str, how: str
) -> None:
    """On main a tag named like a project silently replaced the project's page."""
    conf = f"contributions_tags_path = {tags!r}\ncontributions_projects_path = {projects!r}\n"
    app = build(make_app, site(rootdir, tmp_path, conf))
    text = (
        f"contributions_tags_path = {tags!r} and contributions_projects_path = {projects!r} are {how}: a tag "
        "named like a project would replace the project's page; the defaults 'tags' and 'projects' are used"
    )
    assert warnings(app) == [CONFIG_WARNING.format(conf=Path(app.confdir) / "conf.py", line=4, text=text)]
    assert (app.config.contributions_tags_path, app.config.contributions_projects_path) == ("tags", "projects")
