"""Checks made BEFORE the parent executes a solve()'s request, so that no request can make the parent allocate or
compute more than the run's budget (the child's own rlimits do not protect the parent).

Every allow-listed call is bounded on its *result*: an upper bound of the element count (broadcasting of every
array argument, batch dimensions of matmul, broadcast fancy indices, positional size arguments, repeat/tile
counts, bincount's largest value) is compared with ``max_elements``, and the multiply-adds of a matrix product
with ``MAX_MATMUL_WORK``. Arguments are plain numbers, numeric arrays held by the parent, or short lists;
integers beyond 64 bits (which would make numpy build object arrays) are refused.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np

from engine.sandbox.remote import allowlist as al
from engine.sandbox.remote.allowlist import Refused

__all__ = ["Refused"]

MAX_MATMUL_WORK = 50_000_000  # multiply-adds per request (~25 ms on one core)
MAX_LIST_RESULT = 65_536  # elements a reply may carry as a Python list (tolist, nonzero's tuple …)
INT64 = 2**63
_ONLY_INT = frozenset([int])
_STACKING = frozenset(["concatenate", "stack", "vstack", "hstack", "column_stack"])
# numpy functions whose result is at most the broadcast of their array arguments (elementwise, reductions,
# sorts, cumulative ops): everything COMPUTE except the ones with their own rule below.
_OWN_RULE = frozenset(["outer", "tile", "repeat", "dot", "matmul", "diag", "bincount", "array", "asarray", *_STACKING])


class LimitRefused(Refused):
    """A request over one of the run's resource limits (operations, array memory): a limit failure."""


def check_size(n: float, max_elements: int) -> None:
    if n > max_elements:
        raise LimitRefused(f"array memory limit ({max_elements:,} elements held at once) exceeded")


def _shape(value: Any) -> tuple[int, ...]:
    """Shape of an argument: an array's own, a nested list's (bounded by the request size), () for numbers."""
    if isinstance(value, np.ndarray):
        return tuple(int(d) for d in value.shape)
    if isinstance(value, list | tuple):
        if type(value) is list and _ONLY_INT.issuperset(map(type, value)):
            return (len(value),)  # a flat list of ints (an index), without building an object array
        return np.shape(np.asarray(value, dtype=object)) if value else (0,)
    return ()


def _broadcast(shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    shapes = [shape for shape in shapes if shape]  # () broadcasts to anything
    if not shapes:
        return ()
    if all(shape == shapes[0] for shape in shapes):  # the common case, without numpy's general routine
        return shapes[0]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        return ()  # numpy will fail on it (a metered failure): nothing is allocated


shape_of = _shape
broadcast_shape = _broadcast


def check_matmul(sa: tuple[int, ...], sb: tuple[int, ...], max_elements: int) -> None:
    """Result size and multiply-adds of ``a @ b`` (and ``np.dot``), batch dimensions broadcast."""
    if not sa or not sb:
        check_size(math.prod(sa) * math.prod(sb), max_elements)
        return
    a2 = sa if len(sa) >= 2 else (1, *sa)
    b2 = sb if len(sb) >= 2 else (*sb, 1)
    batch = _broadcast([a2[:-2], b2[:-2]])
    n, k, m = a2[-2], a2[-1], b2[-1]
    check_size(math.prod(batch) * n * m, max_elements)
    if math.prod(batch) * n * k * m > MAX_MATMUL_WORK:
        raise LimitRefused("a matrix product that large is over the per-operation budget")


def check_binary(name: str, a: Any, b: Any, max_elements: int) -> None:
    if name == "matmul":
        check_matmul(_shape(a), _shape(b), max_elements)
    else:
        check_size(math.prod(_broadcast([_shape(a), _shape(b)])), max_elements)


def index_bound(target: np.ndarray, index: Any) -> int:
    """Upper bound of the element count of ``target[index]``: the broadcast of all integer index arrays (a boolean
    mask counts as its size), times the lengths of the sliced dimensions and of the dimensions not indexed."""
    parts = list(index) if isinstance(index, tuple) else [index]
    fancy: list[tuple[int, ...]] = []
    kept = 1
    dim = 0
    for part in parts:
        if part is None:
            continue
        if part is Ellipsis:
            named = sum(1 for p in parts if p is not None and p is not Ellipsis)
            for _ in range(max(0, target.ndim - named)):
                kept *= target.shape[dim] if dim < target.ndim else 1
                dim += 1
            continue
        size = target.shape[dim] if dim < target.ndim else 1
        if isinstance(part, slice):
            kept *= len(range(*part.indices(size)))
            dim += 1
        elif isinstance(part, np.ndarray | list):
            arr_shape = _shape(part)
            is_bool = isinstance(part, np.ndarray) and part.dtype == np.bool_
            fancy.append((math.prod(arr_shape),) if is_bool else arr_shape)
            dim += len(arr_shape) if is_bool else 1
        else:
            dim += 1
    for rest in range(dim, target.ndim):
        kept *= target.shape[rest]
    return math.prod(_broadcast(fancy)) * kept


def check_index(target: np.ndarray, index: Any, max_elements: int) -> None:
    """``target[index]`` within ``max_elements`` (:func:`index_bound`)."""
    check_size(index_bound(target, index), max_elements)


def plain_arguments(args: list[Any]) -> list[Any]:
    """Strings are allowed only as dtype names (converted); anything else textual is refused."""
    out = []
    for value in args:
        if isinstance(value, str):
            value = al.resolve_dtype(value)
        elif isinstance(value, list | tuple) and any(isinstance(v, str) for v in value):
            raise Refused("text values are not supported in solve()")
        out.append(value)
    return out


def _elements(values: list[Any]) -> list[tuple[int, ...]]:
    return [_shape(v) for v in values if isinstance(v, np.ndarray | list | tuple)]


def matmul_work(sa: tuple[int, ...], sb: tuple[int, ...]) -> int:
    """Multiply-adds of ``a @ b`` for operands of shapes ``sa`` and ``sb`` (batch dimensions broadcast)."""
    if not sa or not sb:
        return math.prod(sa) * math.prod(sb)
    a2 = sa if len(sa) >= 2 else (1, *sa)
    b2 = sb if len(sb) >= 2 else (*sb, 1)
    return math.prod(_broadcast([a2[:-2], b2[:-2]])) * a2[-2] * a2[-1] * b2[-1]


def function_bound(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """An upper bound of the element count of ``np.<name>(*args, **kwargs)``'s result."""
    if name in al.FUNCTIONS and al.FUNCTIONS[name] == al.CREATE:
        return _creation_bound(name, args, kwargs)
    if name == "outer" and len(args) >= 2:
        return int(np.size(args[0]) * np.size(args[1]))
    if name == "tile" and len(args) >= 2:
        reps = np.atleast_1d(np.asarray(args[1], dtype=np.int64)).tolist()
        return math.prod(_shape(args[0]) or (1,)) * math.prod(max(1, int(r)) for r in reps)
    if name == "repeat" and len(args) >= 2:
        counts = np.asarray(args[1], dtype=np.int64)
        total = int(counts.sum()) if counts.ndim and counts.size == np.size(args[0]) else 0
        return max(total, int(np.size(args[0])) * int(np.max(counts, initial=1)))
    if name in ("dot", "matmul") and len(args) == 2:
        sa, sb = _shape(args[0]), _shape(args[1])
        if not sa or not sb:
            return math.prod(sa) * math.prod(sb)
        a2 = sa if len(sa) >= 2 else (1, *sa)
        b2 = sb if len(sb) >= 2 else (*sb, 1)
        return math.prod(_broadcast([a2[:-2], b2[:-2]])) * a2[-2] * b2[-1]
    if name in _STACKING and args:
        return sum(math.prod(_shape(a)) for a in args[0])
    if name == "diag" and args:
        return (int(np.size(args[0])) + abs(int(kwargs.get("k") or 0))) ** 2
    if name == "bincount" and args:
        data = np.asarray(args[0])
        top = int(data.max(initial=0)) + 1 if data.size and data.dtype.kind in "iub" else 0
        return max(top, int(kwargs.get("minlength") or 0))
    if name in ("array", "asarray") and args:
        return math.prod(_shape(args[0]))
    return math.prod(_broadcast(_elements([*args, *kwargs.values()])))


def check_function(name: str, args: list[Any], kwargs: dict[str, Any], max_elements: int) -> None:
    """A bound of the result of ``np.<name>(*args, **kwargs)``."""
    if name in ("dot", "matmul") and len(args) == 2:
        check_matmul(_shape(args[0]), _shape(args[1]), max_elements)
        return
    check_size(function_bound(name, args, kwargs), max_elements)


def check_method(name: str, arr: np.ndarray, args: list[Any], kwargs: dict[str, Any], max_elements: int) -> None:
    """A bound of ``arr.<name>(…)``: same size as ``arr`` (or the broadcast with its arguments); ``dot``/``clip`` by
    their arguments; ``tolist``/``nonzero`` by what a reply may carry."""
    if name == "dot" and args:
        check_matmul(arr.shape, _shape(args[0]), max_elements)
    else:
        check_size(math.prod(_broadcast([arr.shape, *_elements([*args, *kwargs.values()])])), max_elements)
    if name in ("tolist", "nonzero") and arr.size > MAX_LIST_RESULT:
        raise Refused(f".{name}() of more than {MAX_LIST_RESULT:,} elements is not sent back; index a smaller part")


def _creation_bound(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    if name.endswith("_like"):
        return int(np.size(args[0])) if args else 0
    if name == "arange":
        nums = [a for a in args if isinstance(a, int | float) and not isinstance(a, bool)]
        if len(nums) != len(args) or not nums:
            raise Refused("np.arange takes plain numbers here")
        start, stop, step = (0, nums[0], 1) if len(nums) == 1 else (nums + [1])[:3]
        return int(max(0.0, math.ceil((stop - start) / step)) if step else 0)
    shape = args[0] if args else kwargs.get("shape", 0)
    dims = (shape,) if isinstance(shape, int) else tuple(shape) if isinstance(shape, list | tuple) else (None,)
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        raise Refused(f"np.{name} needs an integer shape")
    n = math.prod(dims)
    if name in ("eye", "identity"):
        cols = args[1] if len(args) > 1 and isinstance(args[1], int) else dims[0]
        n = dims[0] * cols
    return int(n)


def draw_size(method: Any, name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """Elements a random draw produces, from its ``size`` argument however it is passed (by position too)."""
    try:
        bound = inspect.signature(method).bind(*args, **kwargs)
    except TypeError:
        raise Refused(f"np.random.{name} got arguments it does not take") from None
    size = bound.arguments.get("size")
    if name == "permutation":
        x = bound.arguments.get("x")
        # an array's own ``size`` attribute, not np.size(): that is a numpy call, which a tracked array records as
        # a read (the in-process oracle of tests/engine/sandbox/test_price_property.py draws through this function)
        if x is None:
            return 0
        return int(x) if isinstance(x, int) else int(x.size) if isinstance(x, np.ndarray) else int(np.size(x))
    if size is None:
        return max(1, max((int(v.size) for v in bound.arguments.values() if isinstance(v, np.ndarray)), default=1))
    dims = (size,) if isinstance(size, int) else tuple(size) if isinstance(size, list | tuple) else (None,)
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
        raise Refused("random draws need a non-negative integer size")
    return math.prod(dims)
