"""Readable names for traced buffers, taken from the source line that created each one.

While a run is traced, :class:`NamingEventLog` remembers for every new buffer the code object and instruction of
the first frame outside the tracer (the method's own line), at the cost of one short frame walk and two appends per
buffer. After the run, buffers are grouped by site with numpy and :func:`site_name` turns each distinct site into a
name, once per site (and remembered across runs):

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
from types import CodeType, FrameType
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
    """An :class:`EventLog` that also records where each buffer was created (see module docstring).

    Per buffer the tracer pays for one frame look-up, an identity test and one append (the instruction offset, to
    an ``array``); the code object is recorded only where it changes from the previous buffer's (a method makes
    most of its buffers in one function), with the first buffer id it applies to. Sites are told apart and named
    only afterwards, in :meth:`name_table`.
    """

    def __init__(self) -> None:
        super().__init__()
        offsets = array("q", [0])  # index 0: buffer id 0 is "untracked", site None
        self.site_offsets = offsets
        self.code_starts = array("q", [0])
        self.codes: list[CodeType | None] = [None]
        """Buffers ``code_starts[i]`` … ``code_starts[i+1] - 1`` were made in ``codes[i]`` (None: no frame outside
        the tracer), each at the offset ``site_offsets[buffer]``."""
        add_offset, add_start, add_code = offsets.append, self.code_starts.append, self.codes.append
        labels, events, limit, freeze = self.labels, self._open, self._chunk_items, self._freeze
        file_ok: dict[str, bool] = {}
        last_code: CodeType | None = None

        def outside(frame: FrameType | None) -> FrameType | None:
            """The first frame from ``frame`` outward that is not the tracer's or numpy's own."""
            while frame is not None:
                code = frame.f_code
                good = file_ok.get(code.co_filename)
                if good is None:
                    good = file_ok[code.co_filename] = _outside_tracer(code.co_filename)
                if good:
                    return frame
                frame = frame.f_back
            return None

        def new_buffer(label: str = "") -> int:
            nonlocal last_code
            # EventLog.new_buffer, inlined: this runs once per array the traced code makes
            if len(events) >= limit:
                freeze()
            buf = len(offsets)
            self._n_buffers = buf
            if label:
                labels[buf] = label
            # Every tracer path reaches here through one or two tracer frames (an operator or __array_ufunc__ that
            # records its result inline; or fresh() or TrackedArray.__new__, then the operator, track(), constructor
            # or random draw that called it), so the look-up starts two frames up; a frame of the code that made the
            # previous buffer needs no further test, any other is walked outward past the tracer's own frames.
            frame: FrameType | None = _getframe(2)
            if frame.f_code is not last_code:  # type: ignore[union-attr]
                frame = outside(frame)
                code = None if frame is None else frame.f_code
                if code is not last_code:
                    last_code = code
                    add_start(buf)
                    add_code(code)
                if frame is None:
                    add_offset(0)
                    return buf
            add_offset(frame.f_lasti)  # type: ignore[union-attr]
            return buf

        # An instance attribute, not a method: a closure call skips the bound-method and attribute look-ups that
        # were half of this cost. (``vars`` rather than assignment, which mypy reads as replacing a method.)
        vars(self)["new_buffer"] = new_buffer

    def name_table(self) -> tuple[list[str], npt.NDArray[np.int64]]:
        """``(names, name_of_buffer)``: the distinct names, and for every buffer id the index of its name (id 0,
        "untracked", is :data:`UNNAMED`). Buffers are grouped by site (and label) with numpy; each distinct site
        is named once (:func:`site_name`, cached across runs)."""
        names = [UNNAMED]
        index_of = {UNNAMED: 0}

        def intern(name: str) -> int:
            index = index_of.get(name)
            if index is None:
                index = index_of[name] = len(names)
                names.append(name)
            return index

        offsets = np.frombuffer(self.site_offsets, dtype=np.int64)
        by_id = dict(zip(map(id, self.codes), self.codes, strict=True))  # ids are unique: self.codes holds them all
        distinct = list(by_id.values())
        number = {key: i for i, key in enumerate(by_id)}
        code_number = np.fromiter(map(number.__getitem__, map(id, self.codes)), dtype=np.int64, count=len(self.codes))
        runs = np.diff(np.append(np.frombuffer(self.code_starts, dtype=np.int64), offsets.size))
        width = int(offsets.max()) + 1
        sites, site_of = _numbered(np.repeat(code_number, runs) * width + offsets, len(distinct) * width)
        site_name_index = np.array(
            [intern(cached_site_name(distinct[site // width], site % width)) for site in sites.tolist()],
            dtype=np.int64,
        )
        name_of_buffer = site_name_index[site_of]
        if self.labels:  # a label can change the name only where the site gives none: once per (site, label)
            labelled = np.fromiter(self.labels, dtype=np.int64, count=len(self.labels))
            label_index = {label: i for i, label in enumerate(dict.fromkeys(self.labels.values()))}
            label_list = list(label_index)
            which = np.fromiter(map(label_index.__getitem__, self.labels.values()), dtype=np.int64, count=labelled.size)
            pairs, pair_of = _numbered(site_of[labelled] * len(label_list) + which, sites.size * len(label_list))
            pair_name = []
            for pair in pairs.tolist():
                site, label = divmod(pair, len(label_list))
                code_index, offset = divmod(int(sites[site]), width)
                pair_name.append(intern(cached_site_name(distinct[code_index], offset, label_list[label])))
            name_of_buffer[labelled] = np.array(pair_name, dtype=np.int64)[pair_of]
        name_of_buffer[0] = 0
        return names, name_of_buffer

    def buffer_names(self) -> list[str]:
        """Name of every buffer id (index 0 unused)."""
        names, name_of_buffer = self.name_table()
        return [names[i] for i in name_of_buffer.tolist()]


def _numbered(keys: npt.NDArray[np.int64], space: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct values of ``keys`` (all in ``range(space)``), ascending, and each key's index among them.

    A table over the whole key space where that is small (a method's sites: a few functions times their code
    length), which is linear and several times faster than ``np.unique`` (a hash table in numpy 2) on the few
    hundred buffers of a small run; ``np.unique`` otherwise."""
    if space > 4 * keys.size + 4096:
        found, inverse = np.unique(keys, return_inverse=True)
        return found, inverse.reshape(-1)
    seen = np.zeros(space, dtype=bool)
    seen[keys] = True
    found = np.flatnonzero(seen)
    index = np.zeros(space, dtype=np.int64)
    index[found] = np.arange(found.size)
    return found, index[keys]


_NAMED: dict[tuple[int, int, str], tuple[CodeType | None, str]] = {}
"""Names of the sites seen so far, by (id of the code object, offset, label); each entry holds its code object, so
the id cannot be reused while the entry lives."""
MAX_NAMED = 16384


def cached_site_name(code: CodeType | None, offset: int, label: str = "") -> str:
    """:func:`site_name`, remembered across runs by the code object's identity (hashing a code object hashes its
    whole content: ten microseconds for a method's function)."""
    key = (id(code), offset, label)
    found = _NAMED.get(key)
    if found is None:
        if len(_NAMED) >= MAX_NAMED:
            _NAMED.clear()
        found = _NAMED[key] = (code, site_name(None if code is None else (code, offset), label))
    return found[1]


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
    are unpacked into inside ``func`` (``w1, b1, w2, b2 = p``), else ``p[0]``, ``p[1]`` …

    Remembered per function code and argument shape: reading and parsing the function's source (about a
    millisecond) happens once per process, not once per run."""
    code = getattr(func, "__code__", None)
    shape = tuple(len(arg) if isinstance(arg, list | tuple) else -1 for arg in args)
    if not isinstance(code, CodeType):
        return _argument_names(func, args)
    key = (id(code), type(func).__name__, shape)
    found = _ARGUMENTS.get(key)
    if found is None:
        if len(_ARGUMENTS) >= MAX_NAMED:
            _ARGUMENTS.clear()
        found = _ARGUMENTS[key] = (code, _argument_names(func, args))
    return [list(name) if isinstance(name, list) else name for name in found[1]]


_ARGUMENTS: dict[tuple[int, str, tuple[int, ...]], tuple[CodeType, list[str | list[str]]]] = {}
""":func:`argument_names` by (id of the code object, kind of callable, argument shape); each entry holds its code
object, so the id cannot be reused while the entry lives."""


def _argument_names(func: Callable[..., Any], args: Sequence[Any]) -> list[str | list[str]]:
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
