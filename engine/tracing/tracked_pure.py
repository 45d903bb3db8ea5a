"""The element tracer in plain Python: the oracle of the compiled one (``engine/tracing/tracked_kernel.pyx``) and
the tracer used when that extension is not built. The semantics are those of :mod:`engine.tracing.tracked_scalar`
(read its docstring); both implementations record identical access streams (tests/engine/test_tracked_kernel.py).

Accesses go to one ``array.array`` (see :class:`ElementTrace`): no Python object per access; each operator is a
Python function of about 1-2 µs.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

_PRIMITIVE = (int, float, bool, complex, str)
_NUMBERS = frozenset({int, float, bool, complex})
"""Result types stored directly by the inlined fast path of a binary op (anything else goes through ``_result``)."""


class ElementTrace:
    """The access stream of one traced call, one machine integer per access in one ``array.array``: a store is
    ``-1`` (the k-th store has key k), the first read of an operation's batch is ``-key - 2``, a further read of
    the same batch ``key``. One append per access (three columns took three, and most of a traced op's time is
    spent recording it). :meth:`columns` decodes the stream into ``(is_store, key, op)``."""

    def __init__(self) -> None:
        self._events = array("q")
        self._push = self._events.append
        self._next_key = 0

    def __len__(self) -> int:
        return len(self._events)

    def store(self, value: Any) -> Tracked:
        key = self._next_key
        self._next_key = key + 1
        self._push(-1)
        return Tracked(self, key, value)

    def wrap(self, value: Any, memo: dict[int, Any], synced: list[tuple[Any, Any]]) -> Any:
        """Tracked copy of an argument (see :func:`wrap`)."""
        return wrap(self, value, memo, synced)

    def __deepcopy__(self, memo: dict[int, Any]) -> ElementTrace:
        """The trace itself: ``copy.deepcopy`` of tracked values (copying references, free) keeps them on it."""
        return self

    def read(self, first: int, *more: int) -> None:
        """One operation's read batch: every tracked operand, in operand order (a repeated one twice)."""
        push = self._push
        push(-first - 2)
        for key in more:
            push(key)

    def columns(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(is_store, key, op)`` per access: op numbers are non-decreasing, one per store and one per read batch."""
        v = np.frombuffer(self._events, dtype=np.int64)
        is_store = v == -1
        opens = v < 0  # a store or the first read of a batch
        key = np.where(v >= 0, v, -v - 2)
        key[is_store] = np.arange(int(is_store.sum()), dtype=np.int64)
        return is_store, key, np.cumsum(opens) - 1


class Tracked:
    """A scalar value with a key on an :class:`ElementTrace`; arithmetic returns new tracked values."""

    __slots__ = ("_trace", "_key", "val")

    def __init__(self, trace: ElementTrace, key: int, val: Any) -> None:
        self._trace = trace
        self._key = key
        self.val = val

    def _escape(self) -> Any:
        self._trace.read(self._key)
        return self.val

    def __bool__(self) -> bool:
        return bool(self._escape())

    def __int__(self) -> int:
        return int(self._escape())

    def __float__(self) -> float:
        return float(self._escape())

    def __complex__(self) -> complex:
        return complex(self._escape())

    def __index__(self) -> int:
        return operator.index(self._escape())

    def __hash__(self) -> int:
        return hash(self._escape())

    def __repr__(self) -> str:
        return f"Tracked({self.val!r})"

    def __str__(self) -> str:  # prints like the plain value (as the reference does); not a read
        return str(self.val)


def _result(trace: ElementTrace, value: Any) -> Any:
    if value is NotImplemented:
        return value
    if isinstance(value, tuple | list | np.ndarray):  # divmod, or an op on an array: tracked elements kept as they are
        return wrap(trace, value, {}, [])
    return trace.store(value)


def _binary(fn: Callable[[Any, Any], Any]) -> Callable[[Tracked, Any], Any]:
    def forward(self: Tracked, other: Any) -> Any:
        trace = self._trace
        if type(other) is Tracked:
            value = fn(self.val, other.val)
            # trace.read(self._key, other._key) and trace.store(value), inlined: the hottest lines of a traced call
            push = trace._push
            push(-self._key - 2)
            push(other._key)
            if type(value) in _NUMBERS:
                key = trace._next_key
                trace._next_key = key + 1
                push(-1)
                return Tracked(trace, key, value)
        else:  # an array operand: numpy applies the op per element (each tracked element reads itself), then one read
            value = fn(self.val, other)
            trace.read(self._key)
        return _result(trace, value)

    return forward


def _ternary_pow(self: Tracked, exponent: Any, modulo: Any = None) -> Any:
    """``pow(x, e[, m])``: one read batch of every tracked operand, in operand order."""
    operands = (exponent,) if modulo is None else (exponent, modulo)
    value = pow(self.val, *(o.val if type(o) is Tracked else o for o in operands))
    self._trace.read(self._key, *(o._key for o in operands if type(o) is Tracked))
    return _result(self._trace, value)


def _reflected(fn: Callable[[Any, Any], Any]) -> Callable[[Tracked, Any], Any]:
    def reflected(self: Tracked, other: Any) -> Any:
        value = fn(other, self.val)
        self._trace.read(self._key)
        return _result(self._trace, value)

    return reflected


def _unary(fn: Callable[..., Any]) -> Callable[..., Any]:
    def unary(self: Tracked, *extra: Any) -> Any:
        value = fn(self.val, *extra)
        self._trace.read(self._key)
        return _result(self._trace, value)

    return unary


_BINARY: dict[str, Callable[..., Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": pow,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "matmul": operator.matmul,
    "divmod": divmod,
}
_COMPARE: dict[str, Callable[..., Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}
_UNARY: dict[str, Callable[..., Any]] = {
    "neg": operator.neg,
    "pos": operator.pos,
    "abs": abs,
    "invert": operator.invert,
    "trunc": math.trunc,
    "ceil": math.ceil,
    "floor": math.floor,
    "round": round,
}

for _name, _fn in _BINARY.items():
    setattr(Tracked, f"__{_name}__", _binary(_fn))
    setattr(Tracked, f"__r{_name}__", _reflected(_fn))
setattr(Tracked, "__pow__", _ternary_pow)  # noqa: B010 - beside the loops that set the other operators
for _name, _fn in _COMPARE.items():
    setattr(Tracked, f"__{_name}__", _binary(_fn))
for _name, _fn in _UNARY.items():
    setattr(Tracked, f"__{_name}__", _unary(_fn))


def wrap(trace: ElementTrace, value: Any, memo: dict[int, Any], synced: list[tuple[Any, Any]]) -> Any:
    """Tracked copy of an argument (lists/tuples/arrays recursively; shared containers wrapped once)."""
    if isinstance(value, Tracked):
        return value
    if id(value) in memo:
        return memo[id(value)]
    if isinstance(value, np.ndarray):
        out = np.empty(value.shape, dtype=object)
        memo[id(value)] = out
        synced.append((value, out))
        for index in np.ndindex(value.shape):
            item = value[index]
            out[index] = wrap(trace, item.item() if isinstance(item, np.generic) else item, memo, synced)
        return out
    if isinstance(value, list | tuple):
        wrapped = type(value)(wrap(trace, v, memo, synced) for v in value)
        memo[id(value)] = wrapped
        if isinstance(value, list):
            synced.append((value, wrapped))
        return wrapped
    tracked = trace.store(value)
    if type(value) not in _PRIMITIVE:
        memo[id(value)] = tracked
    return tracked
