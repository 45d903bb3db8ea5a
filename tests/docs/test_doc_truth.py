"""Docs that stay true: every repository path, dotted code reference and exception name the docs and docstrings cite
exists, and a function whose docstring leads with the exception it raises does raise it.

Oracle: the tree itself (the file system, the importable modules, the AST). Paths are checked in Markdown (README,
docs/, deploy/README.md, package READMEs) and in the product's Python, Dockerfile, CI and deploy files. A path counts
as a citation of this repository when it starts with one of its top-level folders and is not a path inside another
repository (``cybertronai/SutroYaro:docs/findings/…`` names the group's file, not ours). A path that git ignores
(``deploy/.env``, a file the operator creates) and a path relative to the citing file's folders (tests joining paths)
also hold. Each checker is shown failing on a deliberately wrong citation below, so a green run means something.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOP_LEVEL = ("engine", "bot", "tools", "storage", "deploy", "tests", "docs", "bench", r"\.ci")
PATH = re.compile(r"(?<![\w/.:@-])((?:" + "|".join(TOP_LEVEL) + r")/[\w./-]*[\w/])")
DOTTED = re.compile(r"`((?:engine|bot|tools|storage)(?:\.\w+)+)(?:\(\))?`")
EXCEPTION = re.compile(r"(?<![\w.])([A-Z][A-Za-z]*(?:Error|Exception))\b")
CLASS = re.compile(r"^\s*class (\w+)|^\s*from [\w.]+ import \(?([\w, ]+)", re.M)
LEADING_EXCEPTION = re.compile(r"^(?:Raises? )?(?::class:`~?)?([A-Z]\w*(?:Error|Exhausted|Refused|Exception))\b")


@cache
def tracked(*patterns: str) -> tuple[Path, ...]:
    """Files git tracks or would track (untracked, not ignored) matching ``patterns``, outside tests/data."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *patterns],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return tuple(
        ROOT / name for name in out.splitlines() if not name.startswith("tests/data/") and (ROOT / name).is_file()
    )


def _ignored(rel: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", rel], cwd=ROOT).returncode == 0


def path_exists(rel: str, cited_in: Path) -> bool:
    """Whether ``rel`` names something in the tree: itself, as a module without ``.py``, as a prefix of a file name
    (``versions/0001_``), relative to a folder above the citing file, or a path git ignores on purpose."""
    rel = rel.rstrip(".")
    bases = [ROOT, *[p for p in cited_in.parents if ROOT in p.parents or p == ROOT]]
    for base in bases:
        target = base / rel
        if target.exists() or target.with_name(target.name + ".py").exists():
            return True
        if target.parent.is_dir() and any(child.name.startswith(target.name) for child in target.parent.iterdir()):
            return True
    return _ignored(rel)


def path_problems(path: Path, text: str) -> list[str]:
    """Citations of repository paths in ``text`` (from ``path``) that name nothing in the tree."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in PATH.finditer(line):
            rel = match.group(1)
            if not path_exists(rel, path):
                found.append(f"{path.relative_to(ROOT)}:{number}: {rel} does not exist")
    return found


def resolves(dotted: str) -> bool:
    """Whether ``engine.x.y.name`` is an importable module followed by attributes that exist."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def dotted_problems(path: Path, text: str) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}: `{match.group(1)}` does not resolve"
        for match in DOTTED.finditer(text)
        if not resolves(match.group(1))
    ]


@cache
def parsed(path: Path) -> ast.Module:
    """The module at ``path``, parsed once per test session."""
    return ast.parse(path.read_text(encoding="utf-8"))


@cache
def defined_names() -> frozenset[str]:
    """Every class the project defines or imports by name (a library's ``HttpError``), and the builtins."""
    names = set(dir(builtins))
    for path in tracked("*.py"):
        for defined, imported in CLASS.findall(path.read_text(encoding="utf-8")):
            names.update([defined] if defined else [n.strip().split(" as ")[-1] for n in imported.split(",")])
    return frozenset(names)


def _docstrings(tree: ast.AST) -> list[str]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [ast.get_docstring(node) or "" for node in ast.walk(tree) if isinstance(node, kinds)]


def exception_problems(path: Path, text: str) -> list[str]:
    """Exception names in docs and docstrings that no class defines, and functions whose docstring leads with an
    exception they never raise (a renamed error left behind in the prose)."""
    rel = path.relative_to(ROOT)
    if path.suffix != ".py":
        chunks = [text]
        tree = None
    else:
        tree = parsed(path) if path.is_file() and path.read_text(encoding="utf-8") == text else ast.parse(text)
        chunks = _docstrings(tree)
    found = [
        f"{rel}: {m.group(1)} is not a class of the project or Python"
        for chunk in chunks
        for m in EXCEPTION.finditer(chunk)
        if m.group(1) not in defined_names()
    ]
    for node in ast.walk(tree) if tree is not None else ():
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        lead = LEADING_EXCEPTION.match(ast.get_docstring(node) or "")
        if lead is None:
            continue
        raised = {
            (sub.exc.func if isinstance(sub.exc, ast.Call) else sub.exc)
            for sub in ast.walk(node)
            if isinstance(sub, ast.Raise) and sub.exc is not None
        }
        names = {r.id for r in raised if isinstance(r, ast.Name)}
        if lead.group(1) not in names:
            found.append(f"{rel}: {node.name}() says it raises {lead.group(1)} but raises {sorted(names) or 'nothing'}")
    return found


def markdown_files() -> tuple[Path, ...]:
    return tracked("*.md")


def code_files() -> tuple[Path, ...]:
    """The product's code and build files (tests are left out: they name paths that must not exist on purpose)."""
    files = tracked("*.py", "*.toml", "*.yml", "*.yaml", "*.service", "Dockerfile*", ".ci/run", "deploy/*")
    return tuple(path for path in files if path.relative_to(ROOT).parts[0] != "tests")


def test_every_cited_repository_path_exists() -> None:
    problems = []
    for path in sorted(set(markdown_files()) | set(code_files())):
        problems += path_problems(path, path.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


def test_every_dotted_code_reference_in_the_docs_resolves() -> None:
    problems = []
    for path in markdown_files():
        problems += dotted_problems(path, path.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


@pytest.mark.slow  # parses every module of the product (about a second on a quiet core)
def test_exception_names_in_docs_and_docstrings_are_true() -> None:
    problems = []
    for path in sorted(set(markdown_files()) | set(tracked("engine/*.py", "bot/*.py", "tools/*.py", "storage/*.py"))):
        problems += exception_problems(path, path.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see `bot/jobs/job_settings.py` for the rest", "bot/jobs/job_settings.py does not exist"),
        ("the card is built in tools/no_such_card.py.", "tools/no_such_card.py does not exist"),
        ("generated by `bot.commands.guide.no_such_table`", "`bot.commands.guide.no_such_table` does not resolve"),
        ("it raises NoSuchThingError on bad input", "NoSuchThingError is not a class"),
    ],
)
def test_each_check_fails_on_a_deliberately_wrong_citation(text: str, expected: str) -> None:
    probe = ROOT / "docs" / "probe.md"  # never written: the checks take the text and the path it would have
    problems = path_problems(probe, text) + dotted_problems(probe, text) + exception_problems(probe, text)
    assert any(expected in p for p in problems), problems


def test_a_docstring_naming_an_exception_it_does_not_raise_fails() -> None:
    code = (
        "def check_rate(count, limit):\n"
        '    """UsageError when the member asked too often."""\n'
        "    if count >= limit:\n"
        "        raise ToolError('too many')\n"
    )
    problems = exception_problems(ROOT / "bot" / "probe.py", code)
    assert problems == ["bot/probe.py: check_rate() says it raises UsageError but raises ['ToolError']"]


def test_paths_of_other_repositories_and_ignored_files_are_not_ours_to_check() -> None:
    text = "cybertronai/SutroYaro:docs/findings/exp_rl.md and `deploy/.env` and `tests/conftest.py`"
    assert path_problems(ROOT / "docs" / "probe.md", text) == []
