"""The import contracts hold (pyproject: layers between and inside packages, no cycles at any level), and no module
imports itself through others."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout, result.stdout


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of modules that import each other (directly or through others)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    planted = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _strongly_connected(planted) == [["a", "b", "c"]]


def test_no_module_imports_itself_through_others() -> None:
    """Module-level import cycles in our four packages, function-level and TYPE_CHECKING imports included (an
    independent check of the acyclic_siblings contract, at the finest level). A package's ``__init__`` collecting
    its own modules (a registry) is not an edge between two modules of the same level, so it is left out."""
    import sys

    import grimp

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    graph = grimp.build_graph("bot", "tools", "storage", "engine")
    edges = {
        m: {i for i in graph.find_modules_directly_imported_by(m) if i in graph.modules and not i.startswith(m + ".")}
        for m in graph.modules
    }
    assert _strongly_connected(edges) == []


PLANTED = [
    pytest.param(
        "from engine.sandbox.lint import LintReport  # planted",
        "bot.commands.status -> engine.sandbox.lint",
        id="engine-front-door",
    ),
    pytest.param(
        "from storage.runs import get_run  # planted",
        "bot.commands.status -> storage.runs",
        id="storage-through-the-core",
    ),
]


@pytest.mark.slow  # copies the packages and runs import-linter on the copy
@pytest.mark.parametrize(("planted", "broken_edge"), PLANTED)
def test_a_planted_import_in_a_command_breaks_its_contract(tmp_path: Path, planted: str, broken_edge: str) -> None:
    """The front-door contracts are not vacuous: the same tree with one planted import in a command module (a module
    inside an engine package; a storage module) fails exactly one contract, naming that import."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    for package in ("bot", "tools", "storage", "engine"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    status = tmp_path / "bot" / "commands" / "status.py"
    status.write_text(status.read_text() + f"\n{planted}\n")
    lint_imports = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode != 0
    assert "1 broken" in result.stdout, result.stdout
    assert broken_edge in result.stdout
