"""Readable names for traced buffers, taken from the source line that created each one.

While a run is traced, :class:`NamingEventLog` remembers for every new buffer the code object and instruction of
the first frame outside the tracer (the method's own line), at the cost of one short frame walk and one dict
look-up per buffer. After the run, :func:`site_name` turns each distinct site into a name, once per site:

- the buffer is the whole right-hand side of ``name = …`` (views such as ``.reshape``/``.T``/``.ravel`` looked
  through): the assigned name — ``dw2 = (g @ h).reshape(1, -1)`` names the product ``dw2``;
- it is the value of a ``return``: ``<function>()``;
- otherwise, an explicit label given when the buffer was placed (``track(x, log, "x")``) if there is one, else the
  sub-expression's own source text, shortened (``wd * w2``, ``x[rows]``);
- no source available (code built at run time): the label, or ``<function>`` — stable across runs of the same code.

Names are not unique per buffer: every ``h`` made by every step is one ``h``. That is the point — attribution is
per variable, and the same variable name in two methods (``dw2`` in ``sgd`` and ``local_update``) lines up.
Positions come from ``code.co_positions()`` (Python ≥ 3.11).
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import os
import sys
from array import array
from collections.abc import Callable, Sequence
from types import CodeType
from typing import Any

import numpy as np
import numpy.typing as npt

import engine.tracing.event_log as _event_log
import engine.tracing.tracked_array as _tracked_array
import engine.tracing.tracked_random as _tracked_random
from engine.tracing import EventLog

Site = tuple[CodeType, int]
"""A creation site: the code object and the offset of the instruction that was running in it."""

_TRACER_FILES = frozenset(os.path.realpath(m.__file__ or "") for m in (_event_log, _tracked_array, _tracked_random)) | {
    os.path.realpath(__file__)
}
_NUMPY_DIR = os.path.realpath(os.path.dirname(np.__file__)) + os.sep
_VIEWS = frozenset({"reshape", "ravel", "view", "squeeze", "transpose", "T"})
_MAX_TEXT = 28
_getframe = sys._getframe
UNNAMED = "(unnamed)"


@functools.lru_cache(maxsize=4096)
def _outside_tracer(filename: str) -> bool:
    path = os.path.realpath(filename)
    return path not in _TRACER_FILES and not path.startswith(_NUMPY_DIR)


class NamingEventLog(EventLog):
    """An :class:`EventLog` that also records where each buffer was created (see module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.site_of = array("q", [-1])  # index 0: buffer id 0 is "untracked"
        self.sites: list[Site | None] = []
        self._index: dict[int, int] = {}
        self._file_ok: dict[str, bool] = {}

    def new_buffer(self, label: str = "") -> int:
        buf = EventLog.new_buffer(self, label)
        # Every tracer path reaches here through one or two tracer frames (the operator or __array_ufunc__ that
        # records its result inline; or fresh() or TrackedArray.__new__, then the operator, track(), constructor or
        # random draw that called it), so the walk starts two frames up and skips tracer frames by file: each frame
        # object Python has to materialise costs about as much as recording the event itself.
        frame = _getframe(2)
        ok = self._file_ok
        while frame is not None:
            code = frame.f_code
            good = ok.get(code.co_filename)
            if good is None:
                good = ok[code.co_filename] = _outside_tracer(code.co_filename)
            if good:
                break
            frame = frame.f_back  # type: ignore[assignment]
        if frame is None:
            code, offset = None, 0
        else:
            code, offset = frame.f_code, frame.f_lasti
        # one int per site, from the code object's id (a code object hashes its whole content) and the offset
        key = id(code) | offset << 64
        index = self._index.get(key)
        if index is None:
            index = self._index[key] = len(self.sites)
            self.sites.append((code, offset) if code is not None else None)  # keeps the code object alive
        self.site_of.append(index)
        return buf

    def name_table(self) -> tuple[list[str], npt.NDArray[np.int64]]:
        """``(names, name_of_buffer)``: the distinct names, and for every buffer id the index of its name (id 0,
        "untracked", is :data:`UNNAMED`). Each site and label is resolved once; buffers are mapped in bulk."""
        names = [UNNAMED]
        index_of = {UNNAMED: 0}

        def intern(name: str) -> int:
            if name not in index_of:
                index_of[name] = len(names)
                names.append(name)
            return index_of[name]

        site_index = np.fromiter(
            (intern(site_name(site)) for site in self.sites), dtype=np.int64, count=len(self.sites)
        )
        site_of = np.frombuffer(self.site_of, dtype=np.int64)
        name_of_buffer = np.zeros(site_of.size, dtype=np.int64)
        name_of_buffer[1:] = site_index[site_of[1:]]
        resolved: dict[tuple[int, str], int] = {}
        for buf, label in self.labels.items():  # a label can change the name only where the site gives none
            key = (int(site_of[buf]), label)
            if key not in resolved:
                resolved[key] = intern(site_name(self.sites[key[0]], label))
            name_of_buffer[buf] = resolved[key]
        return names, name_of_buffer

    def buffer_names(self) -> list[str]:
        """Name of every buffer id (index 0 unused)."""
        names, name_of_buffer = self.name_table()
        return [names[i] for i in name_of_buffer.tolist()]


@functools.lru_cache(maxsize=8192)
def site_name(site: Site | None, label: str = "") -> str:
    """The readable name of a buffer created at ``site`` (see module docstring)."""
    if site is None:
        return label or UNNAMED
    code, offset = site
    found = _expression_at(code, offset)
    if found is None:
        return label or f"<{code.co_name}>"
    node, parents = found
    target = _bound_name(node, parents)
    if target:
        return target
    if isinstance(parents.get(node), ast.Return) or _through_views(node, parents, ast.Return):
        return f"{code.co_name}()"
    if label:
        return label
    return _shorten(ast.unparse(node))


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def _through_views(node: ast.AST, parents: dict[ast.AST, ast.AST], kind: type) -> bool:
    """Whether ``node`` reaches a parent of type ``kind`` only through views (``.T``, ``.reshape(…)``)."""
    return isinstance(parents.get(_strip_views(node, parents)), kind)


def _strip_views(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.AST:
    while True:
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.attr in _VIEWS and parent.value is node:
            call = parents.get(parent)
            node = call if isinstance(call, ast.Call) and call.func is parent else parent
            continue
        return node


def _bound_name(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    top = _strip_views(node, parents)
    stmt = parents.get(top)
    if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is top:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            return targets[0].id
    if isinstance(stmt, ast.NamedExpr) and stmt.value is top:
        return stmt.target.id
    return ""


def _parsed(filename: str) -> tuple[ast.Module, dict[tuple[int, int, int, int], ast.expr], dict[ast.AST, ast.AST]]:
    """A source file's tree, its expressions by position and every node's parent (empty when unreadable); cached by
    the text, as two submissions may share a file name."""
    return _parsed_text("".join(linecache.getlines(filename)))


@functools.lru_cache(maxsize=256)
def _parsed_text(text: str) -> tuple[ast.Module, dict[tuple[int, int, int, int], ast.expr], dict[ast.AST, ast.AST]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        tree = ast.Module(body=[], type_ignores=[])
    by_span: dict[tuple[int, int, int, int], ast.expr] = {}
    parents: dict[ast.AST, ast.AST] = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
            if isinstance(child, ast.expr) and child.end_lineno is not None and child.end_col_offset is not None:
                span = (child.lineno, child.col_offset, child.end_lineno, child.end_col_offset)
                by_span.setdefault(span, child)
    return tree, by_span, parents


@functools.lru_cache(maxsize=1024)
def _positions(code: CodeType) -> list[tuple[int | None, int | None, int | None, int | None]]:
    return list(code.co_positions())


def _expression_at(code: CodeType, offset: int) -> tuple[ast.expr, dict[ast.AST, ast.AST]] | None:
    positions = _positions(code)
    index = offset // 2
    if not 0 <= index < len(positions):
        return None
    line, end_line, col, end_col = positions[index]
    if line is None or end_line is None or col is None or end_col is None:
        return None
    _, by_span, parents = _parsed(code.co_filename)
    node = by_span.get((line, col, end_line, end_col))
    return (node, parents) if node is not None else None


def argument_names(func: Callable[..., Any], args: Sequence[Any]) -> list[str | list[str]]:
    """Names for the arguments of ``func(*args)``: the parameter names; for a list argument, the names its elements
    are unpacked into inside ``func`` (``w1, b1, w2, b2 = p``), else ``p[0]``, ``p[1]`` …"""
    try:
        params = list(inspect.signature(func).parameters)
    except (TypeError, ValueError):
        params = []
    names: list[str | list[str]] = []
    for i, arg in enumerate(args):
        base = params[i] if i < len(params) else f"arg{i}"
        if isinstance(arg, list | tuple):
            unpacked = _unpacked(func, base, len(arg))
            names.append(unpacked or [f"{base}[{j}]" for j in range(len(arg))])
        else:
            names.append(base)
    return names


def _unpacked(func: Callable[..., Any], param: str, count: int) -> list[str]:
    try:
        tree = ast.parse(inspect.getsource(func).strip() + "\n")
    except (OSError, TypeError, SyntaxError):
        return []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name)
            and node.value.id == param
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Tuple)
            and len(node.targets[0].elts) == count
            and all(isinstance(e, ast.Name) for e in node.targets[0].elts)
        ):
            return [e.id for e in node.targets[0].elts if isinstance(e, ast.Name)]
    return []
