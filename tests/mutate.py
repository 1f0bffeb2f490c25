"""A mutation run (``make mutate``, not part of ``make test``): each mutation below is one small, exact
change of a rule in ``sphinx_contributions/`` (its text must occur exactly once). In a temporary copy of the
repository, each is applied alone and the tests that must catch it are run there; a mutation the tests pass
is a rule no test holds. The tests first run on the unchanged copy: they must pass there.

    python -m tests.mutate                 # every mutation: a table of caught / survived
    python -m tests.mutate smallest-percent section-heading-links   # some of them
    python -m tests.mutate --list          # the mutations and the tests each runs
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: not sources: left out of the copy (the copy's own tests/node has no node_modules: browser tests are not run)
UNCOPIED = shutil.ignore_patterns(
    ".git", ".venv", "_build", "build", "dist", "node_modules", "*.egg-info", "__pycache__", ".*_cache", "_work"
)


#: the test modules of each area of the package (the longest matching path first): a mutation is run against
#: every test module of its area, whole, so it shows that the area's tests guard the rule, not that one
#: chosen test bites
AREAS: dict[str, tuple[str, ...]] = {
    **{
        module: ("tests/test_model.py", "tests/test_listing.py", "tests/test_properties.py")
        for module in ("records.py", "options.py", "formatting.py", "queries.py", "keys.py")
    },
    "settings.py": ("tests/test_settings.py",),
    # the messages' near misses (``closest``: did you mean …?), asked by the options and the names' scan
    "warnings.py": ("tests/test_model.py", "tests/test_warnings.py"),
    "read/": (
        "tests/test_directives.py",
        "tests/test_warnings.py",
        "tests/test_sources.py",
        "tests/test_written.py",
        "tests/test_cli.py",
    ),
    "check/": ("tests/test_warnings.py", "tests/test_sources.py"),
    "collect/": (
        "tests/test_warnings.py",
        "tests/test_drafts.py",
        "tests/test_linking.py",
        "tests/test_directives.py",
        "tests/test_headline.py",  # the domain keeps one headline per write-up
        "tests/test_lock.py",  # and applies the lock's facts where an entry is the page's
    ),
    # the lock's facts read into the build: the lock's own tests (a changed entry rereads its page, a broken
    # file warns and the build goes on)
    "collect/lock_facts.py": ("tests/test_lock.py", "tests/test_warnings.py"),
    # the drafts' scan of the sources serves the command line too (``new``, ``sync``: every write-up's page)
    "collect/drafts.py": ("tests/test_drafts.py", "tests/test_warnings.py", "tests/test_cli.py", "tests/test_sync.py"),
    "render/": ("tests/test_header.py", "tests/test_figures.py", "tests/test_listing.py", "tests/test_navigation.py"),
    "write/exports.py": ("tests/test_exports.py", "tests/test_hostile.py"),
    "write/sidebar.py": ("tests/test_navigation.py",),
    "write/generated.py": (
        "tests/test_projects.py",
        "tests/test_outputs.py",
        "tests/test_incremental.py",
        "tests/test_faults.py",
    ),
    "write/": ("tests/test_outputs.py", "tests/test_written.py", "tests/test_incremental.py", "tests/test_rewrite.py"),
    "write/fixes/design_latex.py": ("tests/test_formats.py",),
    "write/fixes/epub_svg.py": ("tests/test_formats.py",),
    "write/fixes/opengraph_fields.py": ("tests/test_compat.py", "tests/test_workarounds.py"),
    "write/social_cards.py": ("tests/test_cards.py", "tests/test_pages.py"),
    "write/books.py": ("tests/test_formats.py", "tests/test_outputs.py"),
    "write/fixes/empty_index.py": ("tests/test_empty_index.py",),
    "write/fixes/lasting_warnings.py": ("tests/test_warnings.py", "tests/test_guest_incremental.py"),
    "cli/sync.py": ("tests/test_sync.py", "tests/test_cli.py"),
    "cli/discover.py": ("tests/test_discover.py",),
    "forges/": ("tests/test_sync.py", "tests/test_discover.py"),
}


@dataclass(frozen=True)
class Mutation:
    name: str
    #: the file under sphinx_contributions/
    path: str
    old: str
    new: str
    #: the rule, in words
    rule: str

    @property
    def tests(self) -> tuple[str, ...]:
        """The test modules of the mutation's area: the tests that must fail with it."""
        area = max((prefix for prefix in AREAS if self.path.startswith(prefix)), key=len)
        return AREAS[area]


MUTATIONS = (
    Mutation(
        "section-heading-links",
        "write/manifest.py",
        "[dataclasses.replace(record, lineno=0) for record in domain.published()]",
        "[(record.key, record.title) for record in domain.published()]",
        "a {contrib} link to a section shows its heading after an incremental build that changed it",
    ),
    Mutation(
        "smallest-percent",
        "records.py",
        "if round_sig(percent, figures) < _SMALLEST_PERCENT:",
        "if round_sig(percent, figures) <= _SMALLEST_PERCENT:",
        "a change of exactly 0.01% (after rounding) reads ≈0.01%, only less reads <0.01%",
    ),
    Mutation(
        "written-rule",
        "read/directives.py",
        "    return not isinstance(node, (nodes.Invisible, nodes.system_message))\n",
        "    return True\n",
        "a section holding only comments is not written: the build warns, and the CLI counts what the build counts",
    ),
    Mutation(
        "written-html-comment",
        "read/directives.py",
        "if isinstance(node, nodes.raw) and is_comment_only_html(node.astext()):",
        "if False:",
        "an HTML comment is not writing, for the build and for the CLI (one rule)",
    ),
    Mutation(
        "percent-under-2x",
        "records.py",
        "if ratio < 2:",
        "if ratio <= 2:",
        "a change of 2× or more reads as a ratio, less as a percentage",
    ),
    Mutation(
        "plain-digits-range",
        "formatting.py",
        "if rounded == 0 or -4 <= exponent < 7:",
        "if rounded == 0 or -4 <= exponent <= 7:",
        "numbers of 1e7 and more are written as powers of ten",
    ),
    Mutation(
        "sort-by-project",
        "queries.py",
        "ordered.sort(key=lambda c: key_lookup(c.display_project))",
        "ordered.sort(key=lambda c: key_lookup(c.display_project), reverse=True)",
        "`:sort: project` lists projects in alphabetical order",
    ),
    Mutation(
        "undated-last",
        "queries.py",
        'ordered.sort(key=lambda c: c.date or "", reverse=True)',
        'ordered.sort(key=lambda c: c.date or "9999", reverse=True)',
        "`:sort: date` lists the undated write-ups last",
    ),
    Mutation(
        "sidebar-limit",
        "write/sidebar.py",
        "return ordered[: max(app.config.contributions_sidebar_limit, 0)]",
        "return ordered[: max(app.config.contributions_sidebar_limit + 1, 0)]",
        "the sidebar lists contributions_sidebar_limit write-ups, no more",
    ),
    Mutation(
        "unknown-key-warning",
        "collect/drafts.py",
        'warn(ContribWarning.UNKNOWN_KEY, f"{{contrib}} target not found: {target!r}{cause}", node)',
        "pass",
        "a {contrib} link to an unknown key warns [contrib.unknown_key]",
    ),
    Mutation(
        "stale-outputs",
        "write/manifest.py",
        "        if not path.is_file():\n            continue\n        path.unlink()\n",
        "        continue\n",
        "the output of a deleted page is removed (what the output held and this build does not)",
    ),
    Mutation(
        "sidebar-title-escaped",
        "write/sidebar.py",
        "        title = escape(record.title)\n",
        "        title = record.title\n",
        "a write-up's title is escaped in every page's sidebar",
    ),
    Mutation(
        "tag-slugs",
        "queries.py",
        "chosen = [c for c in chosen if slug in c.tag_slugs]",
        "chosen = [c for c in chosen if slug not in c.tag_slugs]",
        "`:tag:` lists the write-ups with that tag",
    ),
    Mutation(
        "listing-limit",
        "queries.py",
        "        chosen = chosen[:limit]\n",
        "        chosen = chosen[: limit + 1]\n",
        "`:limit: N` lists N write-ups",
    ),
    Mutation(
        "fence-closed-by-fewer",
        "read/sources.py",
        'and len(found["markup"]) >= len(markup)',
        'and len(found["markup"]) >= len(markup) - 1',
        "a directive fence closed by fewer characters than it opened with is left open (its section closed early)",
    ),
    Mutation(
        "fence-closed-with-text",
        "read/sources.py",
        'and not found["info"].strip(" \\t")',
        "",
        "a line with text after its colons closes no fence",
    ),
    Mutation(
        "fence-one-line-late",
        "read/sources.py",
        "return line - 1 if not opens_at(line) and opens_at(line - 1) else line",
        "return line",
        "a fence that opens a colon fence's body is at its own line, though MyST runs it one line late",
    ),
    Mutation(
        "intros-changed",
        "write/manifest.py",
        '    "intros": _intros,\n',
        "",
        "a project page and every link to the overview are rewritten when an intro or the overview changed",
    ),
    Mutation(
        "commit-after-exception",
        "write/manifest.py",
        'if exception is not None or state is None or not state["in_use"]:',
        'if state is None or not state["in_use"]:',
        "what an output holds becomes the memory only after a build that wrote every page",
    ),
    Mutation(
        "script-json-ampersand",
        "write/exports.py",
        '.replace("&", "\\\\u0026")',
        "",
        "JSON inside a <script> element keeps no '&'",
    ),
    Mutation(
        "setting-type",
        "settings.py",
        "        if _has_type(value, setting.types):\n            continue\n",
        "        continue\n",
        "a setting of the wrong type is warned and replaced by its default",
    ),
    Mutation(
        "setting-misspelt",
        "settings.py",
        "if name in BY_NAME or not name.startswith(PREFIXES):",
        "if True:",
        "a misspelt contributions_* name is warned with its right spelling",
    ),
    Mutation(
        "bool-is-no-number",
        "settings.py",
        "if isinstance(value, bool) and bool not in types:",
        "if False:",
        "True is no number of write-ups",
    ),
    Mutation(
        "manifest-files",
        "write/manifest.py",
        "for name in sorted(set(old) - set(new)):",
        "for name in sorted(set(old) - set(old)):",
        "a file the last build of an output held and this one does not is removed (html, dirhtml, epub, text)",
    ),
    Mutation(
        "empty-folders",
        "write/manifest.py",
        "                folder.rmdir()  # only an empty folder\n",
        "                raise OSError\n",
        "a folder a removed page leaves empty goes too",
    ),
    Mutation(
        "env-settings",
        "write/manifest.py",
        'values = sorted((item.name, _plain(item.value)) for item in app.config.filter(frozenset({"env"})))',
        "values: list[object] = []",
        "generated pages are rewritten when an env setting (language, contributions_index) changes",
    ),
    Mutation(
        "tag-clash",
        "collect/domain.py",
        "                if first_tag.casefold() != tag.casefold():  # one tag in two cases is one tag: no clash",
        "                if False:",
        "two spellings that share one tag page are warned",
    ),
    Mutation(
        "intro-resolved",
        "write/generated.py",
        "    app.env.resolve_references(document, pagename, builder)\n",
        "",
        "a project intro's links and roles are resolved where the project page shows it",
    ),
    Mutation(
        "card-title-latex",
        "write/fixes/design_latex.py",
        "    if not config.contributions_pdf_card_styles:",
        "    if True:",
        "a sphinx-design card's title is a bold line of its own in the PDF",
    ),
    Mutation(
        "feed-last-updated",
        "write/exports.py",
        "last_updated_times(app.env, undated) or ",
        "",
        "a site that loads sphinx-last-updated-by-git dates undated feed entries by its times",
    ),
    Mutation(
        "sync-page-key",
        "cli/sync.py",
        "            key = page.key  #",
        "            key = make_key(repo, pr)  #",
        "sync files each entry under its page's own key (a :key: page gets its facts)",
    ),
    Mutation(
        "close-enough",
        "warnings.py",
        "CLOSE_ENOUGH = 0.6",
        "CLOSE_ENOUGH = 0.7",
        "one slip in a three-letter name is still a did-you-mean",
    ),
    Mutation(
        "pages-circle",
        "forges/http.py",
        "if str(after) in seen:",
        "if False:",
        "a list whose next page leads back to a page already fetched is refused, not followed forever",
    ),
    Mutation(
        "sitemap-excludes-decoded",
        "write/fixes/sitemap.py",
        "for form in (link, unquote(link))",
        "for form in (link,)",
        "a sitemap_excludes pattern matches a link as written or percent-decoded (my%20notes.html)",
    ),
    Mutation(
        "nav-toctree-options",
        "write/manifest.py",
        "for node in toc.findall(addnodes.toctree) if toc is not None else ():",
        "for node in ():",
        "a toctree's options (its caption) are in the navigation's digest: a new caption rewrites every page",
    ),
    Mutation(
        "memory-in-output",
        "write/manifest.py",
        "return Path(app.outdir) / MEMORY_NAME",
        "return Path(app.doctreedir) / MEMORY_NAME",
        "what an output holds is kept in the output folder: a new doctree folder still removes a deleted page",
    ),
    Mutation(
        "epub-buildinfo-backup",
        "write/fixes/epub_bookkeeping.py",
        "Path(builder.outdir, BUILDINFO_BACKUP).unlink(missing_ok=True)",
        "pass",
        "a strict ePub rebuild after a settings change packs no .buildinfo.bak and does not warn",
    ),
    # survivors of the sampled cosmic-ray run (make mutate-sample), with the tests that now catch them
    Mutation(
        "lock-entry-changed",
        "collect/lock_facts.py",
        "if digest(record.forge) != digest(entries.get(key_lookup(record.key)))",
        "if digest(record.forge) is digest(entries.get(key_lookup(record.key)))",
        "a write-up whose lock entry changed is read again (its header shows the new facts)",
    ),
    Mutation(
        "lock-broken-warns",
        "collect/lock_facts.py",
        "except LockError as error:",
        "except KeyError as error:",
        "a lock file that cannot be read is one [contrib.lock] warning, and the build goes on without it",
    ),
    Mutation(
        "feed-alternate-index",
        "write/exports.py",
        "if index in app.env.found_docs:",
        "if index not in app.env.found_docs:",
        "the feed links the page that lists the write-ups (its alternate), where the site has that page",
    ),
    Mutation(
        "second-headline-demoted",
        "collect/domain.py",
        "metric = dataclasses.replace(metric, headline=False)",
        "metric = dataclasses.replace(metric, headline=True)",
        "a second figure marked headline is reported and is no headline: the first stays the only one",
    ),
    Mutation(
        "report-names-the-page",
        "write/fixes/lasting_warnings.py",
        'if warning.get("page") in env.found_docs:',
        'if warning.get("page") not in env.found_docs:',
        "a page named by a lasting warning of the last build's report is read again, and warns again",
    ),
    Mutation(
        "lock-entry-applies",
        "collect/domain.py",
        'if forge is not None and not entry_applies(lock_name, key, target, header["repo"], header["pr"], header):',
        'if forge is None and not entry_applies(lock_name, key, target, header["repo"], header["pr"], header):',
        "a lock entry that names another pull request than the page gives the page no facts",
    ),
    Mutation(
        "epub-svg-written",
        "write/fixes/epub_svg.py",
        "    if new != text:\n        opf.write_text",
        "    if new is text:\n        opf.write_text",
        "the ePub's package file is written again when a page is declared to hold SVG",
    ),
    Mutation(
        "card-through-opengraph",
        "write/social_cards.py",
        'form = opengraph_form() if doctree is not None and "sphinxext.opengraph" in app.extensions else None',
        'form = opengraph_form() if doctree is None and "sphinxext.opengraph" in app.extensions else None',
        "a page's social card reaches sphinxext-opengraph's tags, in the form it escapes once",
    ),
    Mutation(
        "key-owner-by-name",
        "collect/domain.py",
        "if named_after_key(owner.docname, owner.key) and owner.docname > record.docname:",
        "if named_after_key(owner.docname, owner.key) and owner.docname is not record.docname:",
        "of two pages named after one key, the first in name order keeps it, in any reading order",
    ),
    Mutation(
        "book-root-chapters",
        "write/books.py",
        "if not is_book(builder) or self.env.current_document.docname != self.config.root_doc:",
        "if not is_book(builder) or self.env.current_document.docname == self.config.root_doc:",
        "a book's root document gets the write-ups its toctrees do not reach, once, as chapters",
    ),
    Mutation(
        "no-index-link",
        "write/fixes/empty_index.py",
        'context["hasdoc"] = lambda name: name != GENINDEX and hasdoc(name)',
        'context["hasdoc"] = lambda name: name != GENINDEX or hasdoc(name)',
        "a site without an Index page links to none",
    ),
    Mutation(
        "cards-off-removes-them",
        "write/social_cards.py",
        "    if not cards_enabled(app) or not canonical_url(app.config):\n        shutil.rmtree(root)",
        "    if not cards_enabled(app) and not canonical_url(app.config):\n        shutil.rmtree(root)",
        "cards switched off, or no canonical URL left: the cards a build wrote before leave the output",
    ),
    Mutation(
        "generated-folder-inside",
        "settings.py",
        'if not value or value.startswith((".", "/")) or any(part in ("", ".", "..") for part in value.split("/")):',
        'if not value or value.startswith((".", "/")) and any(part in ("", ".", "..") for part in value.split("/")):',
        "a tag or project folder is a folder inside the site: '', '.', '..' and '/x' refused",
    ),
    Mutation(
        "scan-every-page",
        "collect/drafts.py",
        "    md: MarkdownIt | None = None,\n    drafts_only: bool = False,",
        "    md: MarkdownIt | None = None,\n    drafts_only: bool = True,",
        "the command line's scan of the sources finds every write-up's page, not only those that say 'draft'",
    ),
)


def copy_repository(dest: Path) -> Path:
    shutil.copytree(REPO, dest, ignore=UNCOPIED)
    return dest


def pytest_run(copy: Path, tests: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """The tests in ``copy``, its package first on the path (for the builds' subprocesses too)."""
    environ = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"}
    environ["PYTHONPATH"] = str(copy)
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not browser", *tests]
    return subprocess.run(command, cwd=copy, env=environ, capture_output=True, text=True, check=False)


def apply(copy: Path, mutation: Mutation) -> str:
    """Apply ``mutation`` in ``copy``; return the file's original text."""
    path = copy / "sphinx_contributions" / mutation.path
    text = path.read_text(encoding="utf-8")
    found = text.count(mutation.old)
    if found != 1:
        raise SystemExit(f"{mutation.name}: {mutation.old!r} occurs {found} times in {mutation.path}, not once")
    path.write_text(text.replace(mutation.old, mutation.new), encoding="utf-8")
    return text


def last_line(output: str) -> str:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def main(arguments: list[str]) -> int:
    if "--list" in arguments:
        for mutation in MUTATIONS:
            print(f"{mutation.name}: {mutation.rule}\n  {mutation.path}: {mutation.old!r} -> {mutation.new!r}")
            print(f"  tests: {' '.join(mutation.tests)}")
        return 0
    chosen = [m for m in MUTATIONS if not arguments or m.name in arguments]
    unknown = set(arguments) - {m.name for m in MUTATIONS}
    if unknown:
        raise SystemExit(f"no such mutation: {', '.join(sorted(unknown))} (--list shows them)")
    with tempfile.TemporaryDirectory(prefix="mutate-") as tmp:
        copy = copy_repository(Path(tmp) / "repo")
        located = subprocess.run(
            [sys.executable, "-c", "import sphinx_contributions; print(sphinx_contributions.__file__)"],
            cwd=copy,
            env={**os.environ, "PYTHONPATH": str(copy)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not Path(located).is_relative_to(copy):
            raise SystemExit(f"the copy's package is not the one imported: {located}")
        for mutation in chosen:  # every mutation applies, before anything runs
            (copy / "sphinx_contributions" / mutation.path).write_text(apply(copy, mutation), encoding="utf-8")
        selections = sorted({m.tests for m in chosen})
        for tests in selections:
            baseline = pytest_run(copy, tests)
            if baseline.returncode != 0:
                print(baseline.stdout[-4000:] + baseline.stderr[-2000:])
                raise SystemExit(f"the tests fail without a mutation: {' '.join(tests)}")
        rows = []
        for mutation in chosen:
            original = apply(copy, mutation)
            started = time.monotonic()
            try:
                done = pytest_run(copy, mutation.tests)
            finally:
                (copy / "sphinx_contributions" / mutation.path).write_text(original, encoding="utf-8")
            # pytest's exit status 1: tests failed (caught); 0: all passed (survived); else the run broke
            verdict = {0: "SURVIVED", 1: "caught"}.get(done.returncode, f"error (exit {done.returncode})")
            rows.append((mutation.name, verdict, f"{time.monotonic() - started:.0f} s", last_line(done.stdout)))
            print(f"{mutation.name}: {verdict}", flush=True)
    width = max(len(row[0]) for row in rows)
    print(f"\n{'mutation':<{width}}  verdict   time   tests")
    for name, verdict, seconds, summary in rows:
        print(f"{name:<{width}}  {verdict:<8}  {seconds:>5}  {summary}")
    caught = sum(row[1] == "caught" for row in rows)
    print(f"\n{caught} of {len(rows)} mutations caught")
    return 0 if caught == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
