"""A guest on someone else's site (tests/roots/test-foreign: reStructuredText pages, alabaster, an index
with entries, sphinx-sitemap, and ``:issue:``/``:pr:`` links from ``extlinks`` or from sphinx-issues).

Each builder builds the site without the extension and with it (``extensions`` plus
``sphinx_contributions``, nothing else changed, no write-up): the two output trees are the same, file by
file, byte for byte (tests/treediff.py), strict builds as clean as without. Left out of the comparison,
because any extension changes them: ``.buildinfo`` (the hash of the settings, which hold the extension's
own) and, in ``searchindex.js``, the extension's entry in ``envversion``; an ePub's zip dates (its members
are compared). Then a write-up is added, in the ``contrib:`` forms a shared site needs, and the site builds
strictly, sphinx-issues' and extlinks' links still intact."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOTS
from .treediff import first_difference

ROOT = ROOTS / "test-foreign"
#: the host's own extensions (conf.py), and with sphinx-issues instead of extlinks
HOST = ["sphinx.ext.extlinks", "sphinx_sitemap"]
ISSUES = ["sphinx_issues", "sphinx_sitemap"]
BUILDERS = ("html", "dirhtml", "singlehtml", "epub", "latex", "text")
#: builder → (the build without the extension, with it, the output without, with)
Pairs = dict[str, tuple[Any, ...]]
_ENVVERSION_ENTRY = re.compile(r',\s*"sphinx_contributions":\s*\d+')  # Sphinx < 8.2 writes the JSON with spaces


def build(src: Path, out: Path, builder: str, extensions: list[str], *extra: str) -> subprocess.CompletedProcess[str]:
    """A strict build (``-nW --keep-going``, as Read the Docs' ``fail_on_warning``) in a fresh process."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "NO_COLOR": "1"}
    command = [sys.executable, "-m", "sphinx", "-b", builder, "-q", "-nW", "--keep-going"]
    command += ["-d", str(out.parent / f"{out.name}.doctrees"), "-D", "extensions=" + ",".join(extensions)]
    return subprocess.run([*command, *extra, str(src), str(out)], capture_output=True, text=True, env=env, check=False)


def comparable(out: Path) -> Path:
    """The output, less what any extension changes (see the module's text); an ePub unpacked."""
    (out / ".buildinfo").unlink(missing_ok=True)
    index = out / "searchindex.js"
    if index.is_file():
        index.write_text(_ENVVERSION_ENTRY.sub("", index.read_text(encoding="utf-8")), encoding="utf-8")
    for book in out.glob("*.epub"):
        with zipfile.ZipFile(book) as archive:
            members = {info.filename: archive.read(info) for info in archive.infolist()}
        book.unlink()
        for name, data in members.items():
            target = out / "_epub_members" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return out


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Pairs:
    """Each builder's build without and with the extension, and the two outputs."""
    base = tmp_path_factory.mktemp("foreign")
    results = {}
    for builder in BUILDERS:
        without, with_ext = base / f"{builder}-without", base / f"{builder}-with"
        plain = build(ROOT, without, builder, HOST)
        guest = build(ROOT, with_ext, builder, [*HOST, "sphinx_contributions"])
        results[builder] = (plain, guest, comparable(without), comparable(with_ext))
    return results


@pytest.mark.parametrize("builder", BUILDERS)
def test_a_site_without_a_write_up_is_the_same_with_the_extension(pair: Pairs, builder: str) -> None:
    plain, guest, without, with_ext = pair[builder]
    assert (plain.returncode, plain.stderr) == (0, "")
    assert (guest.returncode, guest.stderr) == (0, "")  # as clean as without: no warning, strict passes
    assert first_difference(without, with_ext) is None
    pages = sorted(without.rglob("*.html")) + sorted(without.rglob("*.xhtml")) + sorted(without.rglob("*.t*"))
    assert pages  # the comparison compared pages


def test_extlinks_links_stay_the_sites(pair: Pairs) -> None:
    html = (pair["html"][3] / "changelog.html").read_text(encoding="utf-8")
    assert (
        '<a class="extlink-issue reference external" href="https://github.com/widgets/widgets/issues/123">'
        "issue 123</a>" in html
    )
    assert (
        '<a class="extlink-pr reference external" href="https://github.com/widgets/widgets/pull/456">PR 456</a>' in html
    )
    assert "contributions.css" not in html and "sphinx-design" not in html and "noopener" not in html


@pytest.mark.parametrize("theme", ["sphinx_rtd_theme", "pydata_sphinx_theme"])
def test_a_theme_s_own_breadcrumbs_stay_the_sites(tmp_path: Path, theme: str) -> None:
    """The themes whose breadcrumb the extension leaves out beside its own (render/theme_breadcrumbs.py,
    templates/themes/sphinx_rtd_theme/breadcrumbs.html, which extends that theme's): a site without a
    write-up keeps every page as the theme draws it."""
    option = ("-D", f"html_theme={theme}")
    plain = build(ROOT, tmp_path / "without", "html", HOST, *option)
    guest = build(ROOT, tmp_path / "with", "html", [*HOST, "sphinx_contributions"], *option)
    assert (plain.returncode, plain.stderr) == (0, "")
    assert (guest.returncode, guest.stderr) == (0, "")
    assert first_difference(comparable(tmp_path / "without"), comparable(tmp_path / "with")) is None
    crumb = "wy-breadcrumbs" if theme == "sphinx_rtd_theme" else "bd-breadcrumbs"
    assert crumb in (tmp_path / "with" / "guide.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def issues_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, ...]:
    base = tmp_path_factory.mktemp("foreign-issues")
    # extlinks not loaded: its ``extlinks`` setting is then no setting, and its roles are sphinx-issues'
    plain = build(ROOT, base / "without", "html", ISSUES)
    guest = build(ROOT, base / "with", "html", [*ISSUES, "sphinx_contributions"])
    return plain, guest, comparable(base / "without"), comparable(base / "with")


def test_sphinx_issues_roles_stay_the_sites(issues_pair: tuple[Any, ...]) -> None:
    plain, guest, without, with_ext = issues_pair
    assert (plain.returncode, plain.stderr) == (0, "")
    assert (guest.returncode, guest.stderr) == (0, "")
    assert first_difference(without, with_ext) is None
    html = (with_ext / "changelog.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/widgets/widgets/issues/123">#123</a>' in html
    assert 'href="https://github.com/widgets/widgets/pull/456">#456</a>' in html


WRITE_UP = """\
# Faster widget caches

:::{contrib:contribution}
:repo: widgets/widgets
:pr: 456
:summary: The widget cache keeps its entries across reloads.
:::

:::{contrib:problem}
Every reload emptied the cache; see {contrib:issue}`#123`.
:::

:::{contrib:root-cause}
The cache was keyed by the reload's counter.
:::

:::{contrib:fix}
Key it by the widget, {contrib:pr}`#456`.
:::

:::{contrib:verification}
The reload test keeps 100 of 100 entries.
:::
"""


@pytest.fixture(scope="module")
def with_write_up(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The host with one write-up added: MyST and its colon fence switched on by the site, as the
    extension's one warning asks."""
    src = tmp_path_factory.mktemp("foreign-write-up") / "src"
    shutil.copytree(ROOT, src)
    (src / "upstream.md").write_text(WRITE_UP, encoding="utf-8")
    with (src / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('\nmyst_enable_extensions = ["colon_fence"]\n')
    out = src.parent / "html"
    return build(src, out, "html", [*HOST, "myst_parser", "sphinx_contributions"]), out


def test_one_write_up_in_contrib_forms_builds_strictly(
    with_write_up: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    result, out = with_write_up
    assert (result.returncode, result.stderr) == (0, "")
    page = (out / "upstream.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/widgets/widgets/pull/456"' in page  # {contrib:pr}`#456`: the page's repo
    assert 'href="https://github.com/widgets/widgets/issues/123"' in page
    # the cards are the extension's own markup: sphinx-design, which the host does not list, is nowhere
    assert "_static/contributions.css" in page and "sphinx-design" not in page
    assert re.search(r'class="[^"]*\bsd-', page) is None
    assert (out / "_static" / "contributions.css").is_file()
    # its structured data names no author: the host's `author` is the project's team, not the pull request's
    (ld,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert json.loads(ld)["isBasedOn"] == "https://github.com/widgets/widgets/pull/456"
    assert "author" not in json.loads(ld)
    # the host's pages keep their own links and none of the extension's files
    changelog = (out / "changelog.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/widgets/widgets/pull/456">PR 456</a>' in changelog
    assert "contributions.css" not in changelog and "sphinx-design" not in changelog
    # its search page reads a write-up found by its key as the write-up's page: the search script, there only
    search = (out / "search.html").read_text(encoding="utf-8")
    assert re.search(r'<script defer="defer" src="_static/contributions-search\.js\?v=\w+"></script>', search)
    assert (out / "_static" / "contributions-search.js").is_file()
    assert "contributions-search.js" not in page + changelog


def test_the_last_write_up_removed_leaves_the_site_as_without_the_extension(tmp_path: Path) -> None:
    """The write-up built, then deleted, then the site rebuilt into the same folders: the output is the
    host's own, file by file, as built without the extension (its stylesheet and scripts gone from
    ``_static``, the search index without its key)."""
    src = write_up_site(tmp_path, '\nmyst_enable_extensions = ["colon_fence"]\n')
    out = tmp_path / "html"
    first = build(src, out, "html", [*HOST, "myst_parser", "sphinx_contributions"])
    assert (first.returncode, first.stderr) == (0, "")
    assert (out / "_static" / "contributions.css").is_file()
    (src / "upstream.md").unlink()
    again = build(src, out, "html", [*HOST, "myst_parser", "sphinx_contributions"])
    assert (again.returncode, again.stderr) == (0, "")
    plain = build(src, tmp_path / "plain", "html", [*HOST, "myst_parser"])
    assert (plain.returncode, plain.stderr) == (0, "")
    assert first_difference(comparable(tmp_path / "plain"), comparable(out)) is None


def test_the_first_write_up_added_builds_as_from_scratch(tmp_path: Path) -> None:
    """The host built without a write-up, then one added, and
    the site rebuilt into the same folders: the output is that of a clean build with the write-up."""
    src = write_up_site(tmp_path, '\nmyst_enable_extensions = ["colon_fence"]\n')
    write_up = src / "upstream.md"
    text = write_up.read_text(encoding="utf-8")
    write_up.unlink()
    out = tmp_path / "html"
    extensions = [*HOST, "myst_parser", "sphinx_contributions"]
    first = build(src, out, "html", extensions)
    assert (first.returncode, first.stderr) == (0, "")
    write_up.write_text(text, encoding="utf-8")
    again = build(src, out, "html", extensions)
    assert (again.returncode, again.stderr) == (0, "")
    clean = build(src, tmp_path / "clean", "html", extensions)
    assert (clean.returncode, clean.stderr) == (0, "")
    assert first_difference(comparable(tmp_path / "clean"), comparable(out)) is None


def write_up_site(base: Path, conf: str = "") -> Path:
    src = base / "src"
    shutil.copytree(ROOT, src)
    (src / "upstream.md").write_text(WRITE_UP, encoding="utf-8")
    with (src / "conf.py").open("a", encoding="utf-8") as file:
        file.write(conf)
    return src


NO_MYST = (
    'WARNING: sphinx_contributions reads write-ups as MyST Markdown with ":::" directives, but myst_parser is '
    'not loaded: add "myst_parser" to extensions and "colon_fence" to myst_enable_extensions in conf.py '
    "[contrib.config]\n"
)
NO_COLON_FENCE = (
    'WARNING: myst_enable_extensions has no "colon_fence": write-ups\' ":::" directives would be read as plain '
    'text; add "colon_fence" to myst_enable_extensions in conf.py [contrib.config]\n'
)


@pytest.mark.parametrize(
    ("extensions", "conf", "said", "line"),
    [
        ([*HOST, "sphinx_contributions"], "", NO_MYST, ":14"),  # extensions = [...] in the root's conf.py
        ([*HOST, "myst_parser", "sphinx_contributions"], "", NO_COLON_FENCE, ":14"),  # not set: at extensions
        (
            [*HOST, "myst_parser", "sphinx_contributions"],
            'myst_enable_extensions = ["deflist"]\n',
            NO_COLON_FENCE,
            ":LAST",
        ),
    ],
)
def test_a_guest_learns_every_setting_in_one_build(
    tmp_path: Path, extensions: list[str], conf: str, said: str, line: str
) -> None:
    """The one warning is all the build says (before: a reST site needed three builds to learn it must add
    myst_parser, then colon_fence); nothing is switched on for it, so the write-up is not read as one yet,
    and its links and toctree say nothing more. It is located at the setting's line of conf.py (issue 45:
    before, at no file). The settings added as said, the build is clean."""
    src = write_up_site(tmp_path, conf)
    result = build(src, tmp_path / "html", "html", extensions)
    last = len((src / "conf.py").read_text(encoding="utf-8").splitlines())
    where = f"{src / 'conf.py'}{line.replace('LAST', str(last))}: "
    assert (result.returncode, result.stderr) == (1, where + said)
    # what a page links is in the output (on 7434b26 the unread write-up linked a stylesheet never copied)
    for page in (tmp_path / "html").glob("*.html"):
        for linked in re.findall(r'href="(_static/contributions[^"?]*)', page.read_text(encoding="utf-8")):
            assert (tmp_path / "html" / linked).is_file(), (page.name, linked)
    fixed = write_up_site(tmp_path / "fixed", 'myst_enable_extensions = ["colon_fence"]\n')
    again = build(fixed, tmp_path / "fixed" / "html", "html", [*HOST, "myst_parser", "sphinx_contributions"])
    assert (again.returncode, again.stderr) == (0, "")


def test_a_language_without_a_catalog_is_told_in_one_line(tmp_path: Path) -> None:
    src = write_up_site(tmp_path, 'myst_enable_extensions = ["colon_fence"]\nlanguage = "de"\n')
    env = {**os.environ, "NO_COLOR": "1"}
    extensions = ["-D", "extensions=" + ",".join([*HOST, "myst_parser", "sphinx_contributions"])]

    def run(source: Path, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-nW", "--keep-going", *extensions, *extra]
        command += ["-d", str(tmp_path / f"{name}.doctrees"), str(source), str(tmp_path / name)]
        return subprocess.run(command, capture_output=True, text=True, env=env, check=False)

    result = run(src, "html")
    assert (result.returncode, result.stderr) == (0, "")
    line = (
        "sphinx_contributions has no catalog of its labels for language 'de' (no sphinx_contributions.mo in "
        "locale_dirs): the labels it writes (Problem, Fix, Tags …) stay English"
    )
    assert result.stdout.splitlines().count(line) == 1
    # a German guest site without a write-up hears nothing
    plain = run(ROOT, "plain", "-D", "language=de")
    assert (plain.returncode, plain.stderr) == (0, "")
    assert "catalog" not in plain.stdout


def test_parallel_reading_gives_the_same_site(
    with_write_up: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path
) -> None:
    """``-j 2``: the parallel readers (forked once the short names are settled) read the ``contrib:`` forms
    as the serial build does; the whole output is the same."""
    _, serial = with_write_up
    src = serial.parent / "src"
    result = build(src, tmp_path / "html", "html", [*HOST, "myst_parser", "sphinx_contributions"], "-j", "2")
    assert (result.returncode, result.stderr) == (0, "")
    assert first_difference(serial, tmp_path / "html") is None


SITE_SETUP = '''

def setup(app):
    """The site's own directive named fix, registered by conf.py (after every extension's setup)."""
    from docutils import nodes
    from docutils.parsers.rst import Directive

    class Fix(Directive):
        has_content = True

        def run(self):
            return [nodes.paragraph(text="the site's fix: " + " ".join(self.content))]

    app.add_directive("fix", Fix)
'''


def test_short_names_are_added_only_where_free(tmp_path: Path) -> None:
    """The site's ``extlinks`` hold ``pr`` and ``issue`` (registered at builder-inited) and its ``conf.py``
    holds ``fix``: they stay the site's, with no "already registered" warning; the extension's other short
    names are added (``{contrib}``, ``:::{problem}``), and the ``contrib:`` forms work beside them."""
    src = write_up_site(tmp_path, 'myst_enable_extensions = ["colon_fence"]\n' + SITE_SETUP)
    (src / "notes.md").write_text(
        "---\norphan: true\n---\n\n# Notes\n\nSee {pr}`456` and {contrib}`widgets#456`.\n\n```{fix}\nmine\n```\n",
        encoding="utf-8",
    )
    out = tmp_path / "html"
    result = build(src, out, "html", [*HOST, "myst_parser", "sphinx_contributions"])
    assert (result.returncode, result.stderr) == (0, "")
    notes = (out / "notes.html").read_text(encoding="utf-8")
    assert (
        '<a class="extlink-pr reference external" href="https://github.com/widgets/widgets/pull/456">PR 456</a>'
        in notes
    )
    assert "<p>the site’s fix: mine</p>" in notes
    assert (  # {contrib}: the extension's short name, free on this site
        '<a class="reference internal" href="upstream.html#contribution" title="widgets#456"><span class="xref '
        'contrib contrib-contrib">Faster widget caches</span></a>'
    ) in notes


def test_short_names_off(tmp_path: Path) -> None:
    """``contributions_short_names = False``: only the ``contrib:`` forms; a bare ``{pr}`` is MyST's unknown role."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx_contributions"]\nmyst_enable_extensions = ["colon_fence"]\n'
        "contributions_short_names = False\n",
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Home\n\nA link: {pr}`owner/repo#1` and {contrib:pr}`owner/repo#2`.\n")
    result = build(src, tmp_path / "html", "html", ["myst_parser", "sphinx_contributions"])
    assert (result.returncode, result.stderr) == (
        1,
        f'{src / "index.md"}:3: WARNING: Unknown interpreted text role "pr". [myst.role_unknown]\n',
    )
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert (
        '<a class="contrib-pr reference external" href="https://github.com/owner/repo/pull/2">owner/repo#2</a>' in html
    )


def test_an_epub_without_a_version_hears_sphinx_alone(tmp_path: Path) -> None:
    """A guest's ePub without ``version``: Sphinx's own warning, and no second one of the extension's
    (before: one more, worded for "the portfolio")."""
    plain = build(ROOT, tmp_path / "without", "epub", HOST, "-D", "version=")
    guest = build(ROOT, tmp_path / "with", "epub", [*HOST, "sphinx_contributions"], "-D", "version=")
    assert plain.returncode == guest.returncode == 1
    assert guest.stderr == plain.stderr == 'WARNING: conf value "version" should not be empty for EPUB3\n'


#: the imports a build does not pay for: httpx (the command line's forges), the command line itself, and
#: sphinx-design (the site's own choice: the extension's cards are its own markup)
HEAVY = ("httpx", "sphinx_design", "sphinx_contributions.cli")

_LOADED = f"""
import sys
from sphinx.cmd.build import build_main
status = build_main(sys.argv[1:])
print(" ".join(sorted(name for name in sys.modules if name.startswith({HEAVY!r}))))
sys.exit(status)
"""


def loaded_modules(src: Path, out: Path, builder: str, extensions: list[str]) -> set[str]:
    """The heavy modules (:data:`HEAVY`) a strict build of ``src`` imported, in its own process."""
    command = [sys.executable, "-c", _LOADED, "-b", builder, "-q", "-nW", "--keep-going"]
    command += ["-d", str(out / "doctrees"), "-D", "extensions=" + ",".join(extensions), str(src), str(out / builder)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    return set(result.stdout.split())


@pytest.mark.parametrize("builder", ["html", "latex", "epub"])
def test_a_site_without_a_write_up_imports_nothing_heavy(tmp_path: Path, builder: str) -> None:
    assert sorted(loaded_modules(ROOT, tmp_path, builder, [*HOST, "sphinx_contributions"])) == []


def test_a_write_up_without_cards_imports_nothing_heavy(tmp_path: Path) -> None:
    src = write_up_site(tmp_path, '\nmyst_enable_extensions = ["colon_fence"]\n')
    assert sorted(loaded_modules(src, tmp_path, "html", [*HOST, "myst_parser", "sphinx_contributions"])) == []


FIGURE_PAGE = """\
# Benchmarks

:::{contrib:metric} Requests per second
:before: 120
:after: 180
:better: higher
:::

:::{contrib:known-limits}
Measured on one machine.
:::
"""


@pytest.mark.parametrize("builder", ["html", "epub"])
def test_a_figure_on_a_site_without_write_ups_is_styled(tmp_path: Path, builder: str) -> None:
    """A figure and a callout, the parts the README offers to a shared site, on a site with no write-up: the
    page links the stylesheet and the output holds it; in the ePub the page that draws the figure's SVG
    says so (on 7434b26 the stylesheet was linked and never copied, and the ePub lacked ``properties="svg"``:
    epubcheck's OPF-014)."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src)
    (src / "bench.md").write_text(FIGURE_PAGE, encoding="utf-8")
    with (src / "conf.py").open("a", encoding="utf-8") as file:
        file.write('\nmyst_enable_extensions = ["colon_fence"]\nversion = "1.0"\n')
    with (src / "index.rst").open("a", encoding="utf-8") as file:
        file.write("\n.. toctree::\n\n   bench\n")
    out = tmp_path / builder
    result = build(src, out, builder, [*HOST, "myst_parser", "sphinx_contributions"])
    assert (result.returncode, result.stderr) == (0, "")
    if builder == "html":
        page = (out / "bench.html").read_text(encoding="utf-8")
        assert re.search(r'href="_static/contributions\.css\?v=\w+"', page)
        assert (out / "_static" / "contributions.css").is_file()
    else:
        opf = (out / "content.opf").read_text(encoding="utf-8")
        assert re.search(
            r'<item id="[\w-]+" href="bench\.xhtml" media-type="application/xhtml\+xml" properties="svg" />', opf
        )


def test_the_last_figure_gone_leaves_the_output_a_clean_build_s(tmp_path: Path) -> None:
    """A figure on a site without write-ups, then the figure's page removed: the incremental build's output
    is a clean build's of the same sources, its stylesheet and the extension's memory gone too (on
    9ad24fd the site kept no memory of its figure, so ``_static/contributions.css`` stayed behind)."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src)
    (src / "bench.md").write_text(FIGURE_PAGE, encoding="utf-8")
    with (src / "conf.py").open("a", encoding="utf-8") as file:
        file.write('\nmyst_enable_extensions = ["colon_fence"]\n')
    index = (src / "index.rst").read_text(encoding="utf-8")
    (src / "index.rst").write_text(index + "\n.. toctree::\n\n   bench\n", encoding="utf-8")
    extensions = [*HOST, "myst_parser", "sphinx_contributions"]
    out = tmp_path / "html"
    assert build(src, out, "html", extensions).returncode == 0
    assert (out / "_static" / "contributions.css").is_file()
    (src / "bench.md").unlink()
    (src / "index.rst").write_text(index, encoding="utf-8")
    result = build(src, out, "html", extensions)
    assert (result.returncode, result.stderr) == (0, "")
    clean = tmp_path / "clean"
    assert build(src, clean, "html", extensions).returncode == 0
    assert first_difference(comparable(out), comparable(clean)) is None
    assert not (out / "_static" / "contributions.css").exists()


def test_a_site_without_a_canonical_url_prints_and_writes_what_it_did_without_the_extension(tmp_path: Path) -> None:
    """No ``html_baseurl`` and no write-up: the build prints what it printed without the extension, line
    for line, and sphinxext-opengraph's ``og:url`` stays the site's (on b8bcf5f every such build printed
    "html_baseurl is not set (no canonical URL) ...", and the extension removed the relative ``og:url``)."""
    host = [*HOST, "sphinxext.opengraph"]
    runs = {}
    for name, extensions in (("without", host), ("with", [*host, "sphinx_contributions"])):
        out = tmp_path / name
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-n", "-D", "html_baseurl="]  # sitemap warns
        command += ["-d", str(tmp_path / f"{name}.doctrees"), "-D", "extensions=" + ",".join(extensions)]
        env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "NO_COLOR": "1"}
        result = subprocess.run([*command, str(ROOT), str(out)], capture_output=True, text=True, env=env, check=False)
        assert result.returncode == 0, result.stderr
        runs[name] = (result.stdout.replace(str(out), "OUT"), result.stderr.replace(str(out), "OUT"))
    assert runs["with"] == runs["without"]
    assert first_difference(comparable(tmp_path / "without"), comparable(tmp_path / "with")) is None
    assert '<meta property="og:url"' in (tmp_path / "with" / "changelog.html").read_text(encoding="utf-8")


def test_a_short_name_the_site_holds_gets_one_warning_that_names_the_namespaced_form(tmp_path: Path) -> None:
    """The host's ``extlinks`` hold ``pr`` and ``issue``: a write-up written with the short ``{pr}``, as the
    tutorial teaches, gets one warning naming ``{contrib:pr}`` (on b8bcf5f it silently became the site's
    extlink, "PR #456" linking to ``…/pull/#456``); the site's own use of its role does not change."""
    page = WRITE_UP.replace("{contrib:pr}`#456`", "{pr}`#456`")
    src = write_up_site(tmp_path, '\nmyst_enable_extensions = ["colon_fence"]\n')
    (src / "upstream.md").write_text(page, encoding="utf-8")
    line = page.splitlines().index("Key it by the widget, {pr}`#456`.") + 1
    result = build(src, tmp_path / "html", "html", [*HOST, "myst_parser", "sphinx_contributions"])
    assert result.returncode == 1
    assert result.stderr == (
        f"{src / 'upstream.md'}:{line}: WARNING: {{pr}} is another extension's role on this site (it holds the "
        "short name 'pr'), so this is not sphinx-contributions' pr: write {contrib:pr} [contrib.short_name]\n"
    )
    changelog = (tmp_path / "html" / "changelog.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/widgets/widgets/pull/456">PR 456</a>' in changelog
