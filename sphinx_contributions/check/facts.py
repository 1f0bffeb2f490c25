"""The page's claims (``:status:``, title, ``:tests:``) against the forge's facts in the lock:
``[contrib.forge_mismatch]`` where they disagree, or where the entry is another pull request's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..warnings import ContribWarning, warn

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.config import Config

    from ..records import ForgeFacts


def entry_applies(lock_name: str, key: str, target: tuple[str, int] | None, repo: str, pr: int, where: object) -> bool:
    """Whether the lock's entry under ``key`` was fetched for the page's pull request; else a warning."""
    if target is None or (target[0].lower(), target[1]) == (repo.lower(), pr):
        return True
    warn(
        ContribWarning.FORGE_MISMATCH,
        f"contribution {key}: the entry {key} in {lock_name} is for {target[0]}#{target[1]}, not this page's "
        f"{repo}#{pr}; the page shows no facts from the forge: run 'contributions sync --only {key}' to fetch "
        "its own",
        where,
    )
    return False


def check_facts(
    config: Config,
    lock_name: str,
    key: str,
    status: str | None,
    status_at: tuple[str, int],
    title: str,
    title_at: object,
    found: ForgeFacts,
) -> None:
    """``[contrib.forge_mismatch]`` where the page's status or title disagrees with the lock."""
    name = lock_name
    if status in ("merged", "open", "closed") and status != found.state:
        warn(
            ContribWarning.FORGE_MISMATCH,
            f"contribution {key}: the page says ':status: {status}', but {name} says the pull request is "
            f"{found.state} (fetched {found.fetched_at}); correct the page, or run 'contributions sync' if the "
            "forge has changed since",
            status_at,
        )
    if config.contributions_check_titles and " ".join(title.split()) != " ".join(found.title.split()):
        warn(
            ContribWarning.FORGE_MISMATCH,
            f"contribution {key}: the title is not the pull request's title in {name}, {found.title!r} "
            "(contributions_check_titles is on)",
            title_at,
        )


def tests_claimed(docname: str, document: nodes.document) -> list[tuple[str, tuple[str, int]]]:
    """The test files the page's verification lists (``:tests:``), each with where it is listed."""
    from docutils import nodes

    return [
        (path, (docname, int(section.get("contrib_tests_line") or 0)))
        for section in document.findall(nodes.section)
        for path in section.get("contrib_tests") or ()
    ]


def check_tests(lock_name: str, key: str, listed: list[tuple[str, tuple[str, int]]], found: ForgeFacts) -> None:
    """``[contrib.forge_mismatch]`` for each listed test file the pull request did not change (all files known)."""
    from ..lock import is_test

    files = found.files
    if files is None or found.files_at_least or (found.changed_files or 0) > len(files):
        return
    changed = set(files)
    tests = [path for path in files if is_test(path)]
    for path, where in listed:
        if path in changed:
            continue
        said = (
            f"its changed test files: {', '.join(tests[:5])}{' …' * (len(tests) > 5)}"
            if tests
            else "it changed no test file"
        )
        warn(
            ContribWarning.FORGE_MISMATCH,
            f"contribution {key}: the verification lists the test file {path!r}, but {lock_name} says the pull "
            f"request did not change it ({said}; fetched {found.fetched_at}); correct ':tests:', or run "
            "'contributions sync' if the pull request has changed since",
            where,
        )
