"""Select the tests whose outcome depends on which data they read.

``tests.scoring.support.realdata`` reads ``../shared/data`` (or
``MTDASH_TEST_DATA``) and falls back to the committed fixtures. CI runs the
whole suite on the full data, then the scoring tests again on the fixtures
alone, as a user's fresh clone would. A test that never reaches ``realdata``
behaves the same in both runs, so with ``MTDASH_ONLY_DATA_TESTS=1`` the
second run leaves it out (pytest reports it as deselected) and keeps:

- every test in a module that imports ``realdata``, directly or through
  other modules of ``tests``;
- every test that uses a fixture defined in such a module (a conftest);
- every test in a module that names ``MTDASH_TEST_DATA`` itself.

The imports are read from the source (``ast``), not from what happens to be
loaded, so the choice is the same in every process of a parallel run.
"""

from __future__ import annotations

import ast
import os
from functools import cache
from pathlib import Path

ENV = "MTDASH_ONLY_DATA_TESTS"
TESTS_DIR = Path(__file__).resolve().parents[1]
PROJECT_ROOT = TESTS_DIR.parent
DATA_MODULE = "tests.scoring.support.realdata"


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def module_name(path: Path) -> str:
    parts = path.resolve().relative_to(PROJECT_ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imported(path: Path) -> set[str]:
    """Modules of ``tests`` that the file imports (and their packages)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module_name(path)
    # A package's __init__ is its own anchor for relative imports.
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            # ``from tests.x import module`` imports a module too.
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name == "tests" or name.startswith("tests.")}


@cache
def _graph() -> dict[str, tuple[set[str], bool]]:
    """Module -> (the tests modules it imports, whether it names the env)."""
    graph = {}
    for path in TESTS_DIR.rglob("*.py"):
        if ".venv" in path.parts or "__pycache__" in path.parts:
            continue
        name = module_name(path)
        # This module names the variable only to explain it.
        names_env = name != __name__ and "MTDASH_TEST_DATA" in path.read_text(
            encoding="utf-8"
        )
        graph[name] = (_imported(path), names_env)
    return graph


@cache
def reads_data(module: str) -> bool:
    """True when ``module`` reaches ``realdata`` through its imports."""
    graph = _graph()
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name == DATA_MODULE:
            return True
        imports, names_env = graph.get(name, (set(), False))
        if names_env:
            return True
        todo.extend(imports)
    return False


def depends_on_data(item) -> bool:
    """Whether a collected test's outcome can depend on the data it reads."""
    path = Path(str(item.path))
    if reads_data(module_name(path)):
        return True
    info = getattr(item, "_fixtureinfo", None)
    for definitions in (info.name2fixturedefs if info else {}).values():
        for definition in definitions:
            module = getattr(definition.func, "__module__", "") or ""
            if module.startswith("tests") and reads_data(module):
                return True
    return False


def select(config, items) -> None:
    """Deselect the tests that do not depend on the data (when enabled)."""
    if not enabled():
        return
    kept, dropped = [], []
    for item in items:
        (kept if depends_on_data(item) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
