"""Random edits of a site, each followed by an incremental build compared with a clean one (issue 43).

A seeded generator keeps a model of a site of write-ups (tags, projects, titles, drafts, figures, links
between them, an overview of the projects, the list's title and place, settings) and applies random edits
to it: after each, the site's files that changed are written, the same output is built again
incrementally, a fresh one is built from scratch, and the two output trees must hold the same files with
the same bytes. What differs by design is left out: the output's memory (``.contributions-written.json``,
which remembers where renamed write-ups were), the redirect pages that keep a renamed write-up's old
address (``tests/test_redirects.py``), and Sphinx's ``.buildinfo.bak`` after a settings change.

``CONTRIB_EDITS`` is the number of edits (a few in ``make test``; ``make test-edits`` runs 200), and
``CONTRIB_EDITS_SEED`` the seed (a random one otherwise): a failure names both, to run it again.
"""

from __future__ import annotations

import io
import os
import random
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

from sphinx.application import Sphinx

from .edits import touch
from .treediff import first_difference

EDITS = int(os.environ.get("CONTRIB_EDITS", "12"))
SEED = int(os.environ.get("CONTRIB_EDITS_SEED") or random.SystemRandom().randrange(1 << 32))

CONF = """\
project = "Edits"
extensions = ["myst_parser", "sphinx_design", "sphinx_contributions"]
myst_enable_extensions = ["colon_fence"]
html_theme = "furo"
html_baseurl = "https://edits.example.org/"
exclude_patterns = ["_build"]
"""
PROJECTS = ("alpha", "beta", "gamma", "delta")
TAGS = ("perf", "memory", "correctness", "docs", "api", "kernels", "tests", "build", "cuda", "io")
WORDS = ("loader", "mask", "kernel", "cache", "parser", "index", "option", "table", "path", "queue")


@dataclass(frozen=True)
class WriteUp:
    slug: str
    pr: int
    title: str
    project: str
    tags: tuple[str, ...]
    status: str = "merged"
    metric: tuple[float, float] | None = None
    link: int | None = None  # the pull request of a write-up it links to with {contrib}
    body: str = "It went wrong."

    @property
    def key(self) -> str:
        return f"{self.project}#{self.pr}"

    def text(self, site: Site) -> str:
        target = next((w for w in site.writeups.values() if w.pr == self.link), None)
        link = f"\n\nSee {{contrib}}`{target.key}`." if target is not None else ""
        figure = (
            f":::{{metric}} Time\n:before: {self.metric[0]}\n:after: {self.metric[1]}\n:unit: ms\n:::\n"
            if self.metric
            else "Checked by hand.\n"
        )
        return (
            f"# {self.title}\n\n:::{{contribution}}\n:repo: example/{self.project}\n:pr: {self.pr}\n"
            f":status: {self.status}\n:tags: {', '.join(self.tags)}\n:summary: A change to {self.title.lower()}.\n"
            f":::\n\n:::{{problem}}\n{self.body}{link}\n:::\n\n:::{{root-cause}}\nA cause.\n:::\n\n"
            f":::{{fix}}\nA fix.\n:::\n\n::::{{verification}}\n{figure}::::\n"
        )


@dataclass
class Site:
    writeups: dict[str, WriteUp] = field(default_factory=dict)
    overview: bool = True
    list_title: str = "Contributions"
    list_in_toctree: bool = True
    about_link: str | None = None  # the slug an untitled {doc} link of the about page names
    settings: dict[str, int] = field(default_factory=dict)
    next_pr: int = 100

    def files(self) -> dict[str, str]:
        toctree = "about\nopen-source/index\n" + ("contributions/index\n" if self.list_in_toctree else "")
        files = {
            "conf.py": CONF,
            "index.md": f"# Home\n\n```{{toctree}}\n:hidden:\n\n{toctree}```\n\n"
            "[All of them](contributions/index.md)\n\n:::{contributions}\n:layout: proof\n:::\n",
            "contributions/index.md": ("" if self.list_in_toctree else "---\norphan: true\n---\n\n")
            + f"# {self.list_title}\n\n:::{{contributions}}\n:layout: cards\n:sort: date\n:::\n",
            "about.md": "# About\n\nSome words.\n"
            + (f"\nRead {{doc}}`/contributions/{self.about_link}`.\n" if self.about_link in self.writeups else ""),
        }
        shown = sorted({w.project for w in self.writeups.values() if w.status != "draft"})
        intros = "".join(f":::{{project}} {name}\n:heading: Project {name}\nAbout {name}.\n:::\n\n" for name in shown)
        overview = f"::::{{projects}}\n\n{intros}::::\n" if self.overview else "No overview.\n"
        files["open-source/index.md"] = f"# Open source\n\n{overview}"
        for writeup in self.writeups.values():
            files[f"contributions/{writeup.slug}.md"] = writeup.text(self)
        return files

    def overrides(self) -> dict[str, object]:
        return dict(self.settings)


# -- the edits ------------------------------------------------------------------------------------------------


def _title(rng: random.Random) -> str:
    return f"Fix the {rng.choice(WORDS)} {rng.choice(WORDS)}s"


def _tags(rng: random.Random) -> tuple[str, ...]:
    return tuple(rng.sample(TAGS, rng.randint(1, 2)))


def add(site: Site, rng: random.Random) -> str:
    site.next_pr += 1
    slug = f"w{site.next_pr}"
    site.writeups[slug] = WriteUp(slug, site.next_pr, _title(rng), rng.choice(PROJECTS), _tags(rng))
    return f"add {slug}"


def _pick(site: Site, rng: random.Random) -> WriteUp:
    return site.writeups[rng.choice(sorted(site.writeups))]


def change(site: Site, rng: random.Random) -> str:
    """One change of one write-up."""
    w = _pick(site, rng)
    kind = rng.choice(["tags", "project", "title", "draft", "metric", "link", "body"])
    if kind == "tags":
        new = replace(w, tags=_tags(rng))
    elif kind == "project":
        new = replace(w, project=rng.choice(PROJECTS))
    elif kind == "title":
        new = replace(w, title=_title(rng))
    elif kind == "draft":
        new = replace(w, status="merged" if w.status == "draft" else "draft")
    elif kind == "metric":
        new = replace(w, metric=None if w.metric and rng.random() < 0.4 else (rng.randint(5, 50), rng.randint(1, 4)))
    elif kind == "link":
        other = _pick(site, rng)
        new = replace(w, link=None if w.link else other.pr if other is not w else None)
    else:
        new = replace(w, body=f"It went wrong in the {rng.choice(WORDS)}.")
    site.writeups[w.slug] = new
    return f"{kind} of {w.slug}: {new}"


def delete(site: Site, rng: random.Random) -> str:
    if len(site.writeups) <= 6:
        return add(site, rng)
    w = _pick(site, rng)
    del site.writeups[w.slug]
    return f"delete {w.slug}"


def rename(site: Site, rng: random.Random) -> str:
    w = _pick(site, rng)
    slug = f"{w.slug}-{rng.choice(WORDS)}"
    if slug in site.writeups:
        return "rename: none"
    del site.writeups[w.slug]
    site.writeups[slug] = replace(w, slug=slug)
    return f"rename {w.slug} to {slug}"


def page(site: Site, rng: random.Random) -> str:
    """One change of a page that is not a write-up."""
    kind = rng.choice(["overview", "list title", "list place", "about link"])
    if kind == "overview":
        site.overview = not site.overview
    elif kind == "list title":
        site.list_title = rng.choice(["Contributions", "Pull requests", "Upstream work"])
    elif kind == "list place":
        site.list_in_toctree = not site.list_in_toctree
    else:
        site.about_link = None if site.about_link else _pick(site, rng).slug
    return kind


def setting(site: Site, rng: random.Random) -> str:
    name, values = rng.choice(
        [
            ("contributions_tag_page_min", (1, 2, 3)),
            ("contributions_project_page_min", (1, 2, 3)),
            ("contributions_sidebar_limit", (0, 3, 10)),
        ]
    )
    site.settings[name] = rng.choice(values)
    return f"{name} = {site.settings[name]}"


EDIT_KINDS = [(change, 8), (add, 2), (delete, 2), (rename, 1), (page, 3), (setting, 2)]


# -- building ----------------------------------------------------------------------------------------------------


def write(site: Site, src: Path) -> None:
    """The site's files as the model has them: each changed one written and touched, each gone one deleted."""
    files = site.files()
    for path in sorted(src.rglob("*.md")):
        if path.relative_to(src).as_posix() not in files:
            path.unlink()
    for name, text in files.items():
        path = src / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            touch(path)


def build(src: Path, out: Path, overrides: dict[str, object]) -> None:
    app = Sphinx(
        str(src), str(src), str(out / "html"), str(out / "doctrees"), "html",
        confoverrides=overrides, status=None, warning=io.StringIO(),
    )  # fmt: skip
    app.build()


def compared(folder: Path) -> Path:
    """``folder`` without what differs by design (see the module's text), as a copy."""
    copy = folder.parent / (folder.name + "-compared")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folder, copy)
    (copy / ".contributions-written.json").unlink(missing_ok=True)
    (copy / ".buildinfo.bak").unlink(missing_ok=True)  # Sphinx's, after a change of an html setting
    for path in copy.rglob("*.html"):
        if b'<meta http-equiv="refresh"' in path.read_bytes()[:400]:
            path.unlink()
    return copy


def first_site(rng: random.Random) -> Site:
    site = Site(settings={"contributions_sidebar_limit": rng.choice((0, 3))})
    for _ in range(12):
        add(site, rng)
    for w in list(site.writeups.values())[::3]:
        site.writeups[w.slug] = replace(w, metric=(rng.randint(5, 50), rng.randint(1, 4)))
    return site


def test_random_edits_build_as_a_clean_build(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    site = first_site(rng)
    src = tmp_path / "src"
    write(site, src)
    build(src, tmp_path / "inc", site.overrides())
    done: list[str] = []
    for number in range(1, EDITS + 1):
        edit = rng.choices([kind for kind, _ in EDIT_KINDS], [weight for _, weight in EDIT_KINDS])[0]
        done.append(edit(site, rng))
        write(site, src)
        build(src, tmp_path / "inc", site.overrides())
        shutil.rmtree(tmp_path / "clean", ignore_errors=True)
        build(src, tmp_path / "clean", site.overrides())
        report = first_difference(compared(tmp_path / "inc/html"), compared(tmp_path / "clean/html"))
        assert report is None, (
            f"CONTRIB_EDITS_SEED={SEED}: after edit {number} of {EDITS}:\n  " + "\n  ".join(done) + f"\n{report}"
        )
