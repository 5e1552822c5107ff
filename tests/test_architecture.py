"""The layout stays walkable: no import cycles (imports inside functions
count), and ``scoring/`` keeps its top level small (packages by
responsibility). The layer contracts themselves are import-linter's
(``pyproject.toml``), run by ``.ci/run``."""

from __future__ import annotations

import ast
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "mtdash")


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the packages."""
    modules = {}
    for package in PACKAGES:
        for path in (PROJECT_ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports anywhere in its body."""
    is_package = path.name == "__init__.py"
    targets: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, base] if base else here)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.append(submodule if submodule in known else base)
    found = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def import_cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    files = module_files()
    known = set(files)
    edges = {name: imported_modules(name, path, known) for name, path in files.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in edges[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return cycles


def test_no_module_of_scoring_or_mtdash_takes_part_in_an_import_cycle() -> None:
    assert import_cycles() == []


def test_the_cycle_finder_sees_imports_inside_functions(tmp_path: Path) -> None:
    package = tmp_path / "demo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from demo import b\n")
    (package / "b.py").write_text("from demo.a import f\n")
    known = {"demo", "demo.a", "demo.b"}
    assert imported_modules("demo.a", package / "a.py", known) == {"demo.b"}
    assert imported_modules("demo.b", package / "b.py", known) == {"demo.a"}


def test_scoring_keeps_at_most_twelve_modules_at_its_top_level() -> None:
    top_level = sorted(path.name for path in (PROJECT_ROOT / "scoring").glob("*.py"))
    assert len(top_level) <= 12, top_level
