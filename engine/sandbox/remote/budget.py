"""Size checks made BEFORE the parent executes a solve()'s request, so that a request cannot make the parent
allocate or compute more than the run's budget (the child's own rlimits do not protect the parent).

Each check takes an upper bound of the result's element count and raises Refused over ``max_elements``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.sandbox.remote import allowlist as al
from engine.sandbox.remote.allowlist import Refused

__all__ = ["Refused"]

MAX_MATMUL_WORK = 2_000_000_000  # multiply-adds per request (~1 s on one core)
_STACKING = frozenset(["concatenate", "stack", "vstack", "hstack", "column_stack"])


def check_size(n: float, max_elements: int) -> None:
    if n > max_elements:
        raise Refused(f"array memory limit ({max_elements:,} elements held at once) exceeded")


def check_matmul(sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    work = math.prod(sa) * (sb[-1] if len(sb) >= 2 else 1)
    if work > MAX_MATMUL_WORK:
        raise Refused("a matrix product that large is over the per-operation budget")


def check_binary(name: str, a: Any, b: Any, max_elements: int) -> None:
    sa, sb = np.shape(a), np.shape(b)
    if name == "matmul":
        check_matmul(sa, sb)
    else:
        check_size(math.prod(np.broadcast_shapes(sa, sb)), max_elements)


def check_index(target: np.ndarray, index: Any, max_elements: int) -> None:
    """Upper bound of ``target[index]``: integer index arrays of size m give at most m·size/min(shape)."""
    parts = index if isinstance(index, tuple) else (index,)
    largest = 0
    for part in parts:
        if isinstance(part, np.ndarray | list) and np.asarray(part).dtype != np.bool_:
            largest = max(largest, int(np.size(part)))
    if largest and target.ndim:
        check_size(largest * target.size / max(1, min(target.shape)), max_elements)


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


def check_function(name: str, args: list[Any], kwargs: dict[str, Any], max_elements: int) -> None:
    """Bounds for the numpy functions whose result can be much larger than their inputs."""
    if name in al.FUNCTIONS and al.FUNCTIONS[name] == al.CREATE:
        _check_creation(name, args, kwargs, max_elements)
    elif name == "outer" and len(args) >= 2:
        check_size(np.size(args[0]) * np.size(args[1]), max_elements)
    elif name == "tile" and len(args) >= 2:
        reps = math.prod(np.atleast_1d(np.asarray(args[1], dtype=np.int64)).tolist())
        check_size(np.size(args[0]) * reps, max_elements)
    elif name == "repeat" and len(args) >= 2:
        check_size(np.size(args[0]) * int(np.max(np.asarray(args[1], dtype=np.int64), initial=1)), max_elements)
    elif name in ("dot", "matmul") and len(args) == 2:
        check_matmul(np.shape(args[0]), np.shape(args[1]))
    elif name in _STACKING and args:
        check_size(sum(int(np.size(a)) for a in args[0]), max_elements)
    elif name == "diag" and args:
        check_size(int(np.size(args[0])) ** 2, max_elements)
    elif name == "bincount":
        check_size(int(kwargs.get("minlength") or 0), max_elements)
    elif name in ("array", "asarray") and args and not isinstance(args[0], np.ndarray):
        check_size(np.size(np.asarray(args[0], dtype=object)), max_elements)


def _check_creation(name: str, args: list[Any], kwargs: dict[str, Any], max_elements: int) -> None:
    if name.endswith("_like"):
        check_size(np.size(args[0]) if args else 0, max_elements)
        return
    if name == "arange":
        nums = [a for a in args if isinstance(a, int | float)]
        if len(nums) != len(args) or not nums:
            raise Refused("np.arange takes plain numbers here")
        start, stop, step = (0, nums[0], 1) if len(nums) == 1 else (nums + [1])[:3]
        check_size(max(0.0, math.ceil((stop - start) / step)) if step else 0, max_elements)
        return
    shape = args[0] if args else kwargs.get("shape", 0)
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    if not all(isinstance(d, int) for d in dims):
        raise Refused(f"np.{name} needs an integer shape")
    n = math.prod(dims)
    if name in ("eye", "identity"):
        n = dims[0] * (args[1] if len(args) > 1 and isinstance(args[1], int) else dims[0])
    check_size(n, max_elements)
