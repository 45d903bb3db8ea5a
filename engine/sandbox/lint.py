"""What a submission is (IR text, a Python ``generate()``, or a numpy ``solve()``) and the L0 lint.

The lint is for the member's experience, not security (the OS layers are the boundary): it parses the code,
requires the entry point, refuses imports outside numpy/math/itertools/functools/collections with a clear
message, and flags constructs for human review (escapes like ``view``/``asarray``/``.base``, dunder access,
``getattr``, file or ctypes access) without refusing them.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from engine.errors import EngineError

ALLOWED_IMPORTS = ("numpy", "math", "itertools", "functools", "collections")
_ALLOWED_TEXT = "numpy, math, itertools, functools or collections"
_KINDS_HINT = "send IR text, Python defining generate() -> str, or Python defining solve(x, y, n_bits, k_sparse)"
_IR_FIRST_LINE = re.compile(r"^\s*\d+\s*(,\s*\d+\s*)*$")
_REVIEW_ATTRS = {
    "view",
    "asarray",
    "base",
    "_tracker",
    "tofile",
    "fromfile",
    "ctypes",
    "frombuffer",
    "__array__",
}
_REVIEW_NAMES = {
    "getattr",
    "setattr",
    "delattr",
    "eval",
    "exec",
    "compile",
    "open",
    "__import__",
    "globals",
    "vars",
    "locals",
    "breakpoint",
    "input",
}


class SubmissionRefused(EngineError):
    """A submission that is not run: unreadable, unclear kind, missing entry point or a forbidden import."""


@dataclass(frozen=True)
class LintReport:
    """kind: ``ir`` | ``generate`` | ``solve``; flags: constructs a reviewer should look at (line: what);
    imports: the top-level modules the code imports (all within the allow-list)."""

    kind: str
    flags: list[str] = field(default_factory=list)
    imports: frozenset[str] = frozenset()


def _defined_functions(tree: ast.Module) -> set[str]:
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def detect_kind(text: str) -> str:
    """``ir``, ``generate`` or ``solve`` from the content; SubmissionRefused when it cannot tell."""
    first = next((ln for ln in re.split(r"[;\n]", text) if ln.strip()), "")
    if _IR_FIRST_LINE.match(first):
        return "ir"
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise SubmissionRefused(
            f"line {exc.lineno}: this is neither IR text nor valid Python ({exc.msg})", hint=_KINDS_HINT
        ) from None
    found = _defined_functions(tree) & {"solve", "generate"}
    if len(found) == 1:
        return found.pop()
    if found:
        raise SubmissionRefused("your code defines both solve() and generate(); send one of them", hint=_KINDS_HINT)
    raise SubmissionRefused("could not tell what this submission is: no solve() or generate() found", hint=_KINDS_HINT)


def _import_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name.split(".")[0] for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        return ["." * node.level + (node.module or "").split(".")[0]]
    return []


def lint(code: str, kind: str) -> LintReport:
    """L0 checks for a ``generate`` or ``solve`` submission; SubmissionRefused on a blocking problem."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise SubmissionRefused(f"line {exc.lineno}: syntax error ({exc.msg})") from None
    entry = "solve" if kind == "solve" else "generate"
    if entry not in _defined_functions(tree):
        signature = "solve(x, y, n_bits, k_sparse)" if kind == "solve" else "generate()"
        raise SubmissionRefused(f"your code does not define {entry}()", hint=f"define {signature} at top level")
    flags: list[str] = []
    imports: set[str] = set()
    for node in ast.walk(tree):
        for name in _import_names(node):
            imports.add(name)
            if name not in ALLOWED_IMPORTS:
                shown = name if name.strip(".") else "a relative module"
                raise SubmissionRefused(
                    f"line {getattr(node, 'lineno', 0)}: your code imports {shown}, which is not allowed",
                    hint=f"use {_ALLOWED_TEXT}",
                )
        if isinstance(node, ast.Attribute) and (node.attr in _REVIEW_ATTRS or node.attr.startswith("__")):
            flags.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and (node.id in _REVIEW_NAMES or node.id.startswith("__")):
            flags.append(f"line {node.lineno}: {node.id}")
    return LintReport(kind, flags, frozenset(imports))
