"""The judge's CPU for one request, estimated from its operands' shapes and dtypes before the request runs.

The judge's CPU allowance for a submission (``Limits.judge_cpu_s`` for everything, ``Limits.parent_cpu_s`` for the
numpy work beyond each request's first millisecond) used to be checked only after a request: one large call could
pass it by its own cost. :func:`request_seconds` bounds a request's numpy work from metadata alone — element counts
(the same bounds :mod:`engine.sandbox.remote.budget` checks against the array memory limit), dtypes, the
multiply-adds of a matrix product and ``n·log2 n`` for sorts — and the session refuses a request whose estimate
passes what is left, before running it (docs/sandbox.md#limits).

The constants are worst cases measured with ``time.thread_time`` (numpy 2, one BLAS thread, a 2-core x86_64
machine, 2026-11-29), rounded up with room for a loaded machine: float16 is computed in software (``power`` up to
67 ns an element on 4 Mi elements with mixed exponents, ``argsort`` 2.8 ns per n·log2 n, matmul 3.3 ns a
multiply-add); among the other dtypes the slowest elementwise step is ``floor_divide`` on float64 (11.4 ns),
``median`` 11.2 ns an element, ``argsort`` 3.3-3.5 ns per n·log2 n, an int64 matmul 1.1-1.2 ns a multiply-add.
``bench/bench_judge_work.py`` prints each constant beside its measured cost (the ratio must stay above 1) and the
attacks with the estimate on and off. An estimate may be several times the real cost: it only decides whether a
request fits what is left of an allowance that an honest full brute force uses a small part of.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.sandbox.remote import budget

ELEMENT_S = 15e-9
"""Seconds per element read or written by one request (any allowed dtype but float16)."""
HALF_ELEMENT_S = 80e-9
"""The same for a request that involves float16 (numpy computes it in software)."""
SORT_S = 6e-9
"""Seconds per n·log2(n) element comparisons of a sort (``sort``, ``argsort``, ``unique``, ``median``)."""
MAC_S = 2e-9
"""Seconds per multiply-add of a matrix product (integers have no BLAS; float64 is far cheaper)."""
HALF_MAC_S = 5e-9
"""The same for float16."""
DRAW_S = 40e-9
"""Seconds per value of a random draw (``choice`` without replacement and ``permutation`` shuffle)."""

HANDLE_S = 10e-6
"""Seconds per element of ``.tolist()``: each element becomes a 0-d array held by the judge, with its own handle,
buffer and descriptor in the reply (65,536 elements took 0.24 s, 0.41 s with the element trace on, at a load of 10)."""

SORTING = frozenset(["sort", "argsort", "unique", "median"])
_MATMUL = frozenset(["matmul", "dot"])


def worst_seconds(read: int, max_elements: int, listing: bool = False) -> float:
    """An upper bound of :func:`request_estimate` for a request that reads ``read`` elements: its result is at most
    ``max_elements`` (the budget refuses more) and a matrix product at most ``budget.MAX_MATMUL_WORK``
    multiply-adds, and a ``.tolist()`` (``listing``) at most ``budget.MAX_LIST_RESULT`` handles. While more than
    this is left of the allowance the request needs no estimate (the honest requests' common case: no time spent
    on it)."""
    elements = read + max_elements
    sorting = elements * (HALF_ELEMENT_S + math.log2(elements + 2) * SORT_S)
    return sorting + budget.MAX_MATMUL_WORK * HALF_MAC_S + (budget.MAX_LIST_RESULT * HANDLE_S if listing else 0.0)


def elements_read(target: np.ndarray | None, args: list[Any], kwargs: dict[str, Any]) -> int:
    """Elements of the arrays a request names (its target, arguments, keywords and arrays in list arguments).
    Called on every request: written for speed (type checks, no lists built)."""
    n = 0 if target is None else target.size
    for group in (args, kwargs.values()):
        for value in group:
            kind = type(value)
            if kind is np.ndarray:
                n += value.size
            elif kind is list or kind is tuple:
                for part in value:
                    if type(part) is np.ndarray:
                        n += part.size
    return int(n)


@dataclass(frozen=True)
class Estimate:
    """A request's estimated numpy work: ``seconds`` of the judge's CPU, and what it is (for the one-line refusal)."""

    seconds: float
    what: str


def _arrays(values: list[Any]) -> list[np.ndarray]:
    found: list[np.ndarray] = []
    for value in values:
        if isinstance(value, np.ndarray):
            found.append(value)
        elif isinstance(value, list | tuple):
            found.extend(v for v in value if isinstance(v, np.ndarray))
    return found


def _is_half(arrays: list[np.ndarray], values: list[Any]) -> bool:
    half = np.dtype(np.float16)
    return any(a.dtype == half for a in arrays) or any(isinstance(v, np.dtype) and v == half for v in values)


def request_estimate(
    op: str, name: str, target: np.ndarray | None, args: list[Any], kwargs: dict[str, Any]
) -> Estimate:
    """The estimated numpy work of one request (``op`` as the wire protocol names it, ``name`` the operator, method,
    function or draw; ``target`` the array a method, index or in-place operator works on; ``args``/``kwargs``
    resolved to arrays and numbers). Requests the budget refuses are priced too (the estimate runs first)."""
    values = [*args, *kwargs.values()]
    arrays = _arrays(values) + ([target] if target is not None else [])
    half = _is_half(arrays, values)
    read = sum(int(a.size) for a in arrays)
    macs = 0
    if op in ("bin", "ibin") and len(args) == 2:
        shapes = [budget.shape_of(args[0]), budget.shape_of(args[1])]
        if name == "matmul":
            macs = budget.matmul_work(*shapes)
            out = 0
        else:
            out = math.prod(budget.broadcast_shape(shapes))
    elif op in ("get", "set") and target is not None and args:
        out = budget.index_bound(target, args[0])
    elif op == "np":
        if name in _MATMUL and len(args) == 2:
            macs = budget.matmul_work(budget.shape_of(args[0]), budget.shape_of(args[1]))
        out = budget.function_bound(name, args, kwargs)
    elif op == "meth" and target is not None:
        if name == "dot" and args:
            macs = budget.matmul_work(target.shape, budget.shape_of(args[0]))
            out = 0
        else:
            out = math.prod(budget.broadcast_shape([target.shape, *(budget.shape_of(a) for a in _arrays(values))]))
    elif op == "rng":
        size = kwargs.get("size")
        dims = (size,) if isinstance(size, int) else tuple(size) if isinstance(size, list | tuple) else ()
        drawn = math.prod(d for d in dims if isinstance(d, int) and d > 0) if dims else 1
        first = args[0] if args else None
        if isinstance(first, int) and not isinstance(first, bool):
            drawn = max(drawn, first)  # choice(n) and permutation(n) shuffle n values
        return Estimate((read + drawn) * DRAW_S, f"np.random.{name} of {max(read, drawn):,} values")
    else:
        out = max((int(a.size) for a in arrays), default=1)
    elements = read + out
    per_element = HALF_ELEMENT_S if half else ELEMENT_S
    seconds = elements * per_element + macs * (HALF_MAC_S if half else MAC_S)
    if op == "meth" and name == "tolist" and target is not None:
        seconds += target.size * HANDLE_S
    if name in SORTING and elements > 1:
        seconds += elements * math.log2(elements) * SORT_S
    what = f"{name or op} of {elements:,} elements" + (f" and {macs:,} multiply-adds" if macs else "")
    return Estimate(seconds, what)
