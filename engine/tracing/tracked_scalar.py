"""Element-level tracing for ByteDMD: tracked scalar values whose arithmetic records stores and read batches.

Semantics follow the group's reference tracer (cybertronai/ByteDMD ``bytedmd.py``; docs/metrics.md#bytedmd):

- every wrapped scalar gets a fresh key and a *store* access; an arithmetic or comparison op on tracked values
  records one *read batch* holding all its tracked operands in operand order (a repeated operand twice), then
  stores its result as a new value; constants and untracked operands record nothing;
- arguments are wrapped in **reverse** argument order, each one's elements in iteration order (nested
  lists/tuples depth-first; numpy arrays element by element in C order, passed on as object arrays of tracked
  values), so the last element of the first argument ends on top of the stack;
- numpy code run on such object arrays is priced as the equivalent element loop in C order — numpy evaluates
  object arrays element by element with these Python operators;
- a tracked scalar on the *left* of an array (``c * A``, ``c < A``) is applied as a plain value: each element's op
  reads only that element, then ``c`` is read once, after them (the reference's order; ``A * c`` reads ``c`` with
  every element). Untracked elements of the resulting array are stored as new values;
- ``pow(x, e, m)`` reads ``x``, ``e`` and ``m`` (those tracked) in one batch; ``str()`` prints the plain value;
- pure indexing and copying record nothing.

Escapes (documented by the group, reported rather than hidden): ``bool()``, ``int()``, ``float()``, ``hash()``
and using a tracked value as an index or in an ``if`` read it once but return an *untracked* Python value, so
anything computed from that value afterwards is free.

Two implementations record the same accesses: the compiled one (``engine/tracing/tracked_kernel.pyx``, an optional
extension built at install when a C compiler is present: the operators are C slots that append to a C buffer) and
the plain-Python one (:mod:`engine.tracing.tracked_pure`), its oracle. :data:`ElementTrace` and :data:`Tracked` are
the compiled classes when the extension imports (:data:`COMPILED`), the pure ones otherwise. The functions below
(:func:`wrap`, :func:`unwrap`, :func:`keys_in`, :func:`call_traced`) work with either.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.compiled import load_extension
from engine.tracing import tracked_pure

_kernel: ModuleType | None = load_extension(
    "engine.tracing.tracked_kernel"
)  # built at install when a C compiler is present

COMPILED = _kernel is not None
"""Whether :data:`ElementTrace` and :data:`Tracked` are the compiled classes (``engine/tracing/tracked_kernel.pyx``)."""

if TYPE_CHECKING:  # both implementations have the pure classes' interface (tracked_kernel.pyi)
    from engine.tracing.tracked_pure import ElementTrace as ElementTrace
    from engine.tracing.tracked_pure import Tracked as Tracked
else:
    ElementTrace = tracked_pure.ElementTrace if _kernel is None else _kernel.ElementTrace
    Tracked = tracked_pure.Tracked if _kernel is None else _kernel.Tracked

TRACKED_TYPES: tuple[type[Tracked], ...] = (Tracked,) if _kernel is None else (Tracked, tracked_pure.Tracked)
"""Every tracked-value class of this install (the active one first): what :func:`unwrap` and :func:`keys_in` see
through, so a trace of either implementation can be run by :func:`call_traced`."""


def wrap(trace: ElementTrace, value: Any, memo: dict[int, Any], synced: list[tuple[Any, Any]]) -> Any:
    """Tracked copy of an argument on ``trace`` (lists/tuples/arrays recursively; shared containers wrapped once;
    ``memo`` maps ``id`` of what was wrapped to its copy, ``synced`` collects (original, copy) of mutable ones)."""
    return trace.wrap(value, memo, synced)


def unwrap(value: Any) -> Any:
    """Plain copy of a (possibly nested) traced value."""
    if isinstance(value, TRACKED_TYPES):
        return value.val
    if isinstance(value, list | tuple):
        return type(value)(unwrap(v) for v in value)
    if isinstance(value, np.ndarray) and value.dtype == object:
        flat = [unwrap(v) for v in value.flat]
        try:
            return np.array(flat).reshape(value.shape)
        except ValueError:
            out = np.empty(value.shape, dtype=object)
            out.flat[:] = flat
            return out
    return value


def keys_in(value: Any, found: list[int]) -> list[int]:
    """Keys of every tracked value reachable from ``value`` (kept alive to the end)."""
    if isinstance(value, TRACKED_TYPES):
        found.append(value._key)
    elif isinstance(value, list | tuple):
        for v in value:
            keys_in(v, found)
    elif isinstance(value, np.ndarray) and value.dtype == object:
        for v in value.flat:
            keys_in(v, found)
    return found


def call_traced(
    func: Callable[..., Any], args: tuple[Any, ...] | list[Any], trace: ElementTrace | None = None
) -> tuple[ElementTrace, Any, list[int]]:
    """Run ``func(*args)`` on tracked copies; returns the trace, the plain result and the result's live keys.

    ``trace``: an empty trace of either implementation (default: a new :data:`ElementTrace`). Lists and arrays the
    function mutated are written back with plain values, as the reference does.
    """
    trace = ElementTrace() if trace is None else trace
    memo: dict[int, Any] = {}
    synced: list[tuple[Any, Any]] = []
    wrapped = [trace.wrap(a, memo, synced) for a in reversed(list(args))]
    result, kept = call_and_write_back(func, wrapped, synced)
    return trace, unwrap(result), kept


def call_and_write_back(
    func: Callable[..., Any], wrapped: list[Any], synced: list[tuple[Any, Any]]
) -> tuple[Any, list[int]]:
    """Call ``func`` on ``wrapped`` (tracked copies, built last argument first), write what it mutated back into
    the originals as plain values, and return the tracked result with its live keys."""
    result = func(*reversed(wrapped))
    kept = keys_in(result, [])
    for original, copy in synced:
        if isinstance(original, list):
            original[:] = unwrap(copy)
        else:
            original[...] = unwrap(copy)
    return result, kept
