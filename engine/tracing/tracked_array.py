"""TrackedArray: numpy code records its own buffer-level reads and writes, with no hand-placed calls.

The event mapping is the group's TrackedArray convention (docs/metrics.md#trackedarray-convention;
cybertronai/sparse-parity-challenge ``src/sparse_parity/tracked_numpy.py``), which the public numpy leaderboard's
``dmc`` is computed with:

- a ufunc (``+``, ``*``, ``>``, ``np.maximum``, ``@`` …, and their ``reduce``) reads every tracked input in full,
  then writes a fresh buffer for an array result — or writes the ``out=`` buffer (so ``a += b`` reads a, b and
  writes a); a scalar result writes nothing;
- any other numpy function reads every tracked argument in full (inside lists/tuples and keywords too) and writes
  a fresh buffer if it returns an array; ``zeros_like`` only writes;
- ``a[idx]`` reads the size of the result (1 for a scalar) and, for an array result, writes a fresh buffer;
- ``a[idx] = v`` reads ``v`` in full when tracked, then writes the size of the target region (when ``idx``
  selects a view — a slice or a row — numpy first takes that view through ``a[idx]``, adding its read and fresh
  write, exactly as in the group's tracker);
- ``.copy()``, ``.astype()``, ``.sum()`` read in full and write fresh (``.sum()`` to a scalar writes nothing);
  ``.tolist()`` reads in full;
- views (``.T``, ``.reshape``, ``.ravel`` of contiguous data) share their base's buffer and cost nothing;
- inside :func:`tracing`, ``np.zeros``/``np.ones``/``np.empty`` return written, tracked buffers.

Escapes (as in the group's convention): methods that neither call a ufunc nor a numpy function (``argmax``,
``item``, iteration over rows) record nothing, and Python scalars taken out of an array are untracked.
``tracing`` swaps three numpy module attributes for its duration, so it must not be used from two threads at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from engine.tracing.event_log import EventLog


class TrackedArray(np.ndarray):
    """An ndarray whose reads and writes are appended to an :class:`EventLog` (see module docstring)."""

    __slots__ = ("_log", "_buf")  # no per-array __dict__: a third off every view and fresh buffer
    _log: EventLog | None
    _buf: int

    def __new__(cls, data: Any, log: EventLog | None = None, label: str = "") -> TrackedArray:
        obj = np.asarray(data).view(cls)
        obj._log = log
        obj._buf = 0
        if log is not None:
            obj._buf = log.new_buffer(label)
            log.write(obj._buf, obj.size)
        return obj

    def __array_finalize__(self, obj: Any) -> None:
        # Views (and numpy-internal derived arrays) share the base's buffer: no event. (No getattr with a default:
        # on a plain array it raises and catches AttributeError, which cost a tenth of a traced run.)
        if isinstance(obj, TrackedArray):
            self._log = obj._log
            self._buf = obj._buf
        else:
            self._log = None
            self._buf = 0

    def _read_all(self) -> None:
        if self._log is not None:
            self._log.read(self._buf, self.size)

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        log: EventLog | None = None
        plain = []
        for item in inputs:
            if isinstance(item, TrackedArray):
                item_log = item._log
                if item_log is not None:
                    push = item_log.push
                    push(~item._buf)
                    push(item.size)
                    if log is None:  # not `log or …`: an EventLog's truth value is its length, summed over chunks
                        log = item_log
                item = item.view(np.ndarray)
            plain.append(item)
        if method == "__call__":
            if not kwargs:  # the common case (``a * b``, ``np.maximum(a, 0.0)``): fresh() inlined
                result = ufunc(*plain)
                if log is None:
                    return result
                if type(result) is not np.ndarray:
                    return _wrap_results(result, log)
                obj: TrackedArray = result.view(TrackedArray)
                obj._log = log
                obj._buf = buf = log.new_buffer()
                push = log.push
                push(buf)
                push(result.size)
                return obj
            out = kwargs.get("out")
            if len(kwargs) == 1 and type(out) is tuple and len(out) == 1 and type(out[0]) is TrackedArray:
                target: TrackedArray = out[0]  # in place (``a -= b``): same events as the general path below
                target_log = target._log
                result = ufunc(*plain, out=(target.view(np.ndarray),))
                if log is None and target_log is None:
                    return result
                if target_log is not None:
                    push = target_log.push
                    push(target._buf)
                    push(target.size)
                return target
        outs = kwargs.get("out", ())
        for item in outs:
            if log is None and isinstance(item, TrackedArray) and item._log is not None:
                log = item._log
        if outs:
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, TrackedArray) else o for o in outs)
        result = ufunc(*plain, **kwargs) if method == "__call__" else getattr(ufunc, method)(*plain, **kwargs)
        if log is None:
            return result
        if outs:
            for item in outs:
                if isinstance(item, TrackedArray) and item._log is not None:
                    item._log.write(item._buf, item.size)
            return outs[0] if len(outs) == 1 else outs
        return _wrap_results(result, log)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        if func is np.zeros_like:
            source = args[0] if args else kwargs.get("a")
            log = source._log if isinstance(source, TrackedArray) else None
            rest = {k: v for k, v in kwargs.items() if k not in ("a", "subok")}
            result = np.zeros_like(np.asarray(source), *args[1:], **rest)
            return fresh(result, log) if log is not None else result
        found: list[EventLog] = []
        plain_args = []
        for value in args:  # _strip, unrolled for the top level (most arguments are arrays or plain values)
            if isinstance(value, TrackedArray):
                log = value._log
                if log is not None:
                    push = log.push
                    push(~value._buf)
                    push(value.size)
                    found.append(log)
                value = value.view(np.ndarray)
            elif isinstance(value, list | tuple):
                value = _strip(value, found)
            plain_args.append(value)
        plain_kwargs = {k: _strip(v, found) for k, v in kwargs.items()} if kwargs else kwargs
        result = func(*plain_args, **plain_kwargs)
        if found and isinstance(result, np.ndarray):
            return fresh(result, found[0])
        return result

    def __getitem__(self, key: Any) -> Any:
        log = self._log
        if log is None:
            return super().__getitem__(key)
        result = self.view(np.ndarray)[key]  # a plain result: one view fewer than indexing the subclass
        push = log.push
        push(~self._buf)
        if isinstance(result, np.ndarray):
            push(result.size)
            return fresh(result, log)
        push(1)
        return result

    def __setitem__(self, key: Any, value: Any) -> None:
        if isinstance(value, TrackedArray):
            value._read_all()
        # numpy's slice assignment on a subclass first takes the target view through __getitem__, which records a
        # read of the region and a fresh write; the group's tracker does the same and the leaderboard includes it.
        super().__setitem__(key, value)
        if self._log is not None:
            target = self.view(np.ndarray)[key]
            self._log.write(self._buf, target.size if isinstance(target, np.ndarray) else 1)

    def copy(self, order: Any = "C") -> Any:
        self._read_all()
        result = np.array(self.view(np.ndarray), order=order, copy=True)
        return fresh(result, self._log) if self._log is not None else result

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> Any:
        self._read_all()
        result = self.view(np.ndarray).astype(dtype, *args, **kwargs)
        return fresh(result, self._log) if self._log is not None else result

    def sum(self, *args: Any, **kwargs: Any) -> Any:
        self._read_all()
        result = self.view(np.ndarray).sum(*args, **kwargs)
        if self._log is not None and isinstance(result, np.ndarray):
            return fresh(result, self._log)
        return result

    def tolist(self) -> Any:
        self._read_all()
        return self.view(np.ndarray).tolist()


_OPERAND_TYPES = frozenset({np.ndarray, float, int, bool, np.float64, np.float32, np.int64, np.int32, np.bool_})
"""Plain operands the operator fast path takes as they are; anything else goes through numpy's own operator."""


def _binary_operator(name: str, ufunc: np.ufunc, reflected: bool = False, in_place: bool = False) -> Any:
    """``TrackedArray.<name>``: numpy's operator for a tracked array and a plain operand or another tracked array,
    recorded as :meth:`TrackedArray.__array_ufunc__` records ``ufunc`` (reads of the tracked operands in operand
    order, then a fresh write, or the write of the target for an in-place operator). Calling the ufunc on plain
    arrays here skips numpy's operator deferral and override dispatch, about 1.3 µs of a traced op's 2.5 µs.
    Any other operand (a list, an object with its own operators) takes numpy's own operator and override path."""
    numpy_operator = getattr(np.ndarray, name)

    def operator(self: TrackedArray, other: Any) -> Any:
        other_type = type(other)
        if other_type is not TrackedArray and other_type not in _OPERAND_TYPES:
            return numpy_operator(self, other)
        log: EventLog | None = None
        first, second = (other, self) if reflected else (self, other)
        if type(first) is TrackedArray:
            first_log = first._log
            if first_log is not None:
                push = first_log.push
                push(~first._buf)
                push(first.size)
                log = first_log
            first = first.view(np.ndarray)
        if type(second) is TrackedArray:
            second_log = second._log
            if second_log is not None:
                push = second_log.push
                push(~second._buf)
                push(second.size)
                if log is None:
                    log = second_log
            second = second.view(np.ndarray)
        if in_place:
            result = ufunc(first, second, out=(first,))
            target_log = self._log
            if log is None and target_log is None:
                return result
            if target_log is not None:
                push = target_log.push
                push(self._buf)
                push(self.size)
            return self
        result = ufunc(first, second)
        if log is None:
            return result
        if type(result) is not np.ndarray:
            return _wrap_results(result, log)
        obj: TrackedArray = result.view(TrackedArray)
        obj._log = log
        obj._buf = buf = log.new_buffer()
        push = log.push
        push(buf)
        push(result.size)
        return obj

    operator.__name__ = name
    return operator


def fresh(result: np.ndarray, log: EventLog | None, label: str = "") -> TrackedArray:
    """Wrap ``result`` as a new buffer and record its write."""
    obj: TrackedArray = result.view(TrackedArray)
    obj._log = log
    obj._buf = 0
    if log is not None:
        obj._buf = buf = log.new_buffer(label)
        push = log.push
        push(buf)
        push(obj.size)
    return obj


def _wrap_results(result: Any, log: EventLog) -> Any:
    """A ufunc's result(s) on ``log``: each array a fresh written buffer, anything else as it is."""
    if isinstance(result, tuple):
        return tuple(fresh(r, log) if isinstance(r, np.ndarray) else r for r in result)
    return fresh(result, log) if isinstance(result, np.ndarray) else result


def _strip(value: Any, found: list[EventLog]) -> Any:
    """``value`` with tracked arrays replaced by plain views, recording a full read of each."""
    if isinstance(value, TrackedArray):
        log = value._log
        if log is not None:
            log.read(value._buf, value.size)
            found.append(log)
        return value.view(np.ndarray)
    if isinstance(value, list | tuple):
        return type(value)([_strip(v, found) for v in value])
    return value


_CONSTRUCTORS = ("zeros", "ones", "empty")
_ACTIVE: list[tuple[EventLog, dict[str, Any], dict[str, Any]]] = []
"""The :func:`tracing` blocks now open, innermost last: their log, numpy's own constructors, the tracing ones."""


def active_log() -> EventLog | None:
    """The log that ``np.zeros/ones/empty`` record on right now (the innermost :func:`tracing` block), or None."""
    return _ACTIVE[-1][0] if _ACTIVE else None


@contextmanager
def tracing(log: EventLog) -> Iterator[EventLog]:
    """Within the block, ``np.zeros/ones/empty`` create tracked, written buffers on ``log``."""
    originals = {name: getattr(np, name) for name in _CONSTRUCTORS}

    def patched(original: Any, name: str) -> Any:
        def create(shape: Any, dtype: Any = float, order: Any = "C", **kw: Any) -> TrackedArray:
            return fresh(original(shape, dtype=dtype, order=order, **kw), log, name)

        return create

    replacements = {name: patched(original, name) for name, original in originals.items()}
    _swap(replacements)
    _ACTIVE.append((log, originals, replacements))
    try:
        yield log
    finally:
        _ACTIVE.pop()
        _swap(originals)


@contextmanager
def paused() -> Iterator[None]:
    """Within the block, ``np.zeros/ones/empty`` are numpy's own again (no events); the tracing block resumes after."""
    if not _ACTIVE:
        yield
        return
    _, originals, replacements = _ACTIVE[-1]
    _swap(originals)
    try:
        yield
    finally:
        _swap(replacements)


def _swap(functions: dict[str, Any]) -> None:
    for name, function in functions.items():
        setattr(np, name, function)


def track(data: Any, log: EventLog, label: str = "") -> TrackedArray:
    """An input array placed on ``log`` as a written buffer (how arguments enter a traced run)."""
    return TrackedArray(np.asarray(data), log, label)


def _negative(self: TrackedArray) -> Any:
    """``-a``: recorded as ``np.negative(a)`` is (a read of ``a``, a fresh write), without numpy's dispatch."""
    log = self._log
    if log is None:
        return np.negative(self.view(np.ndarray))
    push = log.push
    push(~self._buf)
    push(self.size)
    result = np.negative(self.view(np.ndarray))
    return fresh(result, log) if type(result) is np.ndarray else result


TrackedArray.__neg__ = _negative  # type: ignore[method-assign,assignment]
_ARITHMETIC: tuple[tuple[str, np.ufunc], ...] = (
    ("add", np.add),
    ("sub", np.subtract),
    ("mul", np.multiply),
    ("truediv", np.true_divide),
    ("matmul", np.matmul),
)
_COMPARISONS: tuple[tuple[str, np.ufunc], ...] = (
    ("lt", np.less),
    ("le", np.less_equal),
    ("gt", np.greater),
    ("ge", np.greater_equal),
)
for _name, _ufunc in _ARITHMETIC:
    setattr(TrackedArray, f"__{_name}__", _binary_operator(f"__{_name}__", _ufunc))
    setattr(TrackedArray, f"__r{_name}__", _binary_operator(f"__r{_name}__", _ufunc, reflected=True))
    if _name != "matmul":  # numpy's in-place matmul has rules of its own
        setattr(TrackedArray, f"__i{_name}__", _binary_operator(f"__i{_name}__", _ufunc, in_place=True))
for _name, _ufunc in _COMPARISONS:
    setattr(TrackedArray, f"__{_name}__", _binary_operator(f"__{_name}__", _ufunc))
