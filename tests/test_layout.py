"""The package's layout is its data flow: read → check → collect → render → write, the command line and the
forges beside them, the shared modules below. Read from the package's own imports (``import`` statements,
``TYPE_CHECKING`` ones too): no module imports one that imports it back (no circle, between files or
between folders), a stage imports no later stage, and no two modules share a name."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "sphinx_contributions"
#: the stages, in the order a build runs them; a stage may import the ones before it, never one after
STAGES = ("read", "check", "collect", "render", "write", "cli")


def module_of(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Module → the package's modules it imports (a name imported from a package counts as that package's
    module when it is one)."""
    modules = {module_of(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                names = [f"{target}.{alias.name}" for alias in node.names]
                found.update(name for name in names if name in modules)
                if target in modules and not any(name in modules for name in names):
                    found.add(target)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name in modules)
        graph[module] = found - {module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def folder_of(module: str) -> str:
    """The room a module stands in at the package's top: its stage or shared package, or itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert circles(imports()) == []


def test_no_folder_imports_one_that_imports_it_back() -> None:
    folders: dict[str, set[str]] = {}
    for module, targets in imports().items():
        if module == "sphinx_contributions":  # the package's face hands on setup() and the version
            continue
        folders.setdefault(folder_of(module), set()).update(
            folder_of(target) for target in targets if folder_of(target) != folder_of(module)
        )
    assert circles(folders) == []


def test_a_stage_imports_no_later_stage() -> None:
    later = []
    for module, targets in imports().items():
        stage = module.split(".")[1] if module.count(".") else ""
        if stage not in STAGES:
            continue
        for target in targets:
            other = target.split(".")[1] if target.count(".") else ""
            if other in STAGES and STAGES.index(other) > STAGES.index(stage):
                later.append((module, target))
    assert later == []


def test_no_two_modules_share_a_name() -> None:
    names = Counter(path.stem for path in PACKAGE.rglob("*.py") if path.name != "__init__.py")
    assert [name for name, count in names.items() if count > 1] == []
