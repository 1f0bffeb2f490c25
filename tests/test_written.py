"""One rule for "is this section written" (:func:`sphinx_contributions.read.directives.is_written`): the build's
``[contrib.unwritten_section]`` warnings and the counts ``contributions check`` prints, for published
pages and drafts alike, come from it. On main the drafts' counts came from a second reading of the
sources, which counted a section holding only a label as written."""

from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.util.console import strip_colors

from .conftest import MakeApp
from .test_cli import run

#: a write-up's sections: one written, one holding a MyST comment, one an HTML comment, one a label
SECTIONS = """
:::{problem}
Written.
:::

:::{root-cause}
% a prompt left by the scaffold
:::

:::{fix}
<!-- a prompt in HTML -->
:::

:::{verification}
(a-label)=
:::
"""


def page(title: str, repo: str, pr: int, status: str) -> str:
    header = f":::{{contribution}}\n:repo: {repo}\n:pr: {pr}\n:status: {status}\n:summary: S.\n:::\n"
    return f"# {title}\n\n{header}{SECTIONS}"


def site(rootdir: Path, tmp_path: Path) -> Path:
    """``test-drafts`` with one more published page and one more draft, each with one section written."""
    srcdir = tmp_path / "site"
    shutil.copytree(rootdir / "test-drafts", srcdir)
    (srcdir / "contributions" / "half.md").write_text(page("Half written", "example/half", 5, "merged"), "utf-8")
    (srcdir / "contributions" / "half-draft.md").write_text(page("Half draft", "example/half", 6, "draft"), "utf-8")
    return srcdir


def test_the_build_warns_of_each_unwritten_section(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    app = make_app("html", srcdir=site(rootdir, tmp_path), freshenv=True)
    app.build()
    warnings = strip_colors(app.warning.getvalue()).replace(str(app.srcdir) + "/", "")
    assert warnings == "".join(
        f"contributions/half.md:{line}: WARNING: section '{name}' is not written yet (it holds only comments or "
        "nothing) [contrib.unwritten_section]\n"
        for line, name in ((14, "root-cause"), (18, "fix"), (22, "verification"))
    )


def test_check_counts_the_sections_the_build_counts(rootdir: Path, tmp_path: Path) -> None:
    """Published pages and drafts alike: 1/4 for the pages above (4/4 for the others)."""
    done = run("check", cwd=site(rootdir, tmp_path))
    assert done.returncode == 1, done.stderr
    tables = done.stdout.partition("\nWarnings (3):")[0]
    assert tables == (
        "Contributions in the published site (2):\n"
        "  key     title               state   sections  metrics  page\n"
        "  half#5  Half written        merged  1/4       0        contributions/half\n"
        "  demo#1  Published write-up  merged  4/4       0        contributions/published\n"
        "\n"
        "Drafts, left out of the published site (4):\n"
        "  key      title                        state  sections  metrics  page\n"
        "  demo#2   Zanzibarquux draft write-up  draft  4/4       1        contributions/draft\n"
        "  half#6   Half draft                   draft  1/4       0        contributions/half-draft\n"
        "  other#4  Rstquux draft                draft  4/4       0        contributions/rst-draft\n"
        "  other#3  Yamlquux draft               draft  4/4       0        contributions/yaml-draft\n"
    )
