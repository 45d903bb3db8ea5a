"""What a submission is (IR text, a Python ``generate()``, or a numpy ``solve()``) and the L0 lint.

Untrusted text is bounded before anything parses it: a source over ``Limits.source_bytes`` (admin key
``limits.source_kib``, default 256 KiB) is refused by size alone, and text over ``IN_PROCESS_BYTES`` is parsed
(``ast.parse``, the walk below, the normal form used for "seen before") in a resource-limited child, never in
the bot's or worker's process — a pathological program of a few hundred KiB can take a minute and a gigabyte to
parse. Small sources (where parsing is measured in milliseconds) are parsed in-process.

The lint is for the member's experience, not security (the OS layers are the boundary): it parses the code,
requires the entry point, refuses imports outside numpy/math/itertools/functools/collections with a clear
message, and flags constructs for human review (escapes like ``view``/``asarray``/``.base``, dunder access,
``getattr``, file or ctypes access) without refusing them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.sandbox.limits import DEFAULT_LIMITS, KIB, Limits

IN_PROCESS_BYTES = 16 * KIB
# The limited child that parses large sources: our own code on hostile input, so rlimits only.
PARSE_LIMITS = Limits(cpu_s=5, wall_s=15, memory_bytes=768 * 1024 * KIB, output_bytes=64 * KIB)

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


def check_source_size(text: str, max_bytes: int = DEFAULT_LIMITS.source_bytes) -> None:
    """SubmissionRefused when ``text`` is over ``max_bytes`` (checked before anything parses it)."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > max_bytes:
        limits = Limits(source_bytes=max_bytes)
        raise SubmissionRefused(
            limits.source_message(size), hint="send a smaller program (an admin sets limits.source_kib)"
        )


def _in_child(function: str, args: list[object]) -> dict[str, Any]:
    """Run ``engine.sandbox.lint:<function>(*args)`` in a resource-limited child; a limit is a refusal."""
    from engine.sandbox.trusted import LimitExceeded, run_trusted_limited

    try:
        value = run_trusted_limited(f"engine.sandbox.lint:{function}", args, PARSE_LIMITS)
    except LimitExceeded as exc:
        raise SubmissionRefused(f"your code could not be parsed within the parser's limits ({exc})") from None
    if not isinstance(value, dict):
        raise SubmissionRefused("your code could not be parsed")
    if "refused" in value:
        raise SubmissionRefused(str(value["refused"]), hint=str(value.get("hint") or ""))
    return value


def _refusal_as_value(fn: Callable[..., dict[str, Any]], *args: str) -> dict[str, Any]:
    try:
        return fn(*args)
    except SubmissionRefused as exc:
        return {"refused": exc.message, "hint": exc.hint}


def detect_kind_here(text: str) -> dict[str, Any]:
    """detect_kind's parse, as a JSON value (runs in the limited child)."""
    return _refusal_as_value(lambda t: {"kind": _detect_kind(t)}, text)


def lint_here(code: str, kind: str) -> dict[str, Any]:
    """lint's parse, as a JSON value (runs in the limited child)."""

    def run(c: str, k: str) -> dict[str, Any]:
        report = _lint(c, k)
        return {"kind": report.kind, "flags": report.flags, "imports": sorted(report.imports)}

    return _refusal_as_value(run, code, kind)


def normal_form_here(code: str) -> dict[str, Any]:
    """The AST dump of ``code`` (None when it is not Python), as a JSON value (runs in the limited child)."""
    try:
        return {"dump": ast.dump(ast.parse(code))}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"dump": None}


def python_normal_form(code: str) -> str | None:
    """``ast.dump(ast.parse(code))`` or None when ``code`` is not Python; large sources are parsed in a limited
    child (over the size cap, or over the child's limits: None, i.e. compared as text)."""
    if len(code.encode("utf-8", errors="replace")) <= IN_PROCESS_BYTES:
        dump: str | None = normal_form_here(code)["dump"]
        return dump
    if len(code.encode("utf-8", errors="replace")) > DEFAULT_LIMITS.source_bytes * 4:
        return None
    try:
        dump = _in_child("normal_form_here", [code]).get("dump")
    except SubmissionRefused:
        return None
    return dump if isinstance(dump, str) else None


def detect_kind(text: str, max_bytes: int = DEFAULT_LIMITS.source_bytes) -> str:
    """``ir``, ``generate`` or ``solve`` from the content; SubmissionRefused when it cannot tell or when Python
    source is over ``max_bytes``.

    IR is recognised by its first line alone and is not size-capped here: it is never parsed in this process (the
    trusted scorer parses it in a resource-limited child, under the IR's own 100,000-line rule)."""
    if _starts_like_ir(text):
        return "ir"
    check_source_size(text, max_bytes)
    if len(text.encode("utf-8", errors="replace")) > IN_PROCESS_BYTES:
        return str(_in_child("detect_kind_here", [text])["kind"])
    return _detect_kind(text)


def _starts_like_ir(text: str) -> bool:
    """Whether the first non-blank line (looked for in the first 64 KiB only) is an IR input line (``1,2``)."""
    first = next((ln for ln in re.split(r"[;\n]", text[: 64 * KIB]) if ln.strip()), "")
    return bool(_IR_FIRST_LINE.match(first))


def _detect_kind(text: str) -> str:
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


def lint(code: str, kind: str, max_bytes: int = DEFAULT_LIMITS.source_bytes) -> LintReport:
    """L0 checks for a ``generate`` or ``solve`` submission; SubmissionRefused on a blocking problem (a source
    over ``max_bytes`` included)."""
    check_source_size(code, max_bytes)
    if len(code.encode("utf-8", errors="replace")) > IN_PROCESS_BYTES:
        value = _in_child("lint_here", [code, kind])
        return LintReport(str(value["kind"]), [str(f) for f in value["flags"]], frozenset(value["imports"]))
    return _lint(code, kind)


def _lint(code: str, kind: str) -> LintReport:
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


lint_submission = lint
"""The name the package exports :func:`lint` under (``engine.sandbox.lint`` is also this module's name, which an
attribute of the package named ``lint`` would shadow once the module is imported)."""
