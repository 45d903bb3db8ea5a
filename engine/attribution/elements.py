"""ByteDMD of one call, split by named argument (``bytedmd@2`` attribution, docs/metrics.md#bytedmd).

The element tracer gives every wrapped argument element a key, in wrapping order (arguments in reverse order, each
one's elements in iteration order; :mod:`engine.tracing.tracked_scalar`). This module wraps the arguments the same
way as :func:`engine.tracing.tracked_scalar.call_traced`, noting where each argument's keys start, so every read can
be charged to the argument its value came from. A list argument is split one level further (``p`` → ``w1``, ``b1``
…, see :func:`engine.attribution.naming.argument_names`). Reads of values the call computed itself cannot be named by
the element tracer (it keeps no source position per value) and are one row, :data:`COMPUTED`.

The rows' costs are integers and add up exactly to the call's ``bytedmd@2``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.metrics.bytedmd import BYTEDMD, depths_of, read_costs
from engine.tracing.tracked_scalar import ElementTrace, call_and_write_back, wrap

COMPUTED = "(computed values)"


@dataclass(frozen=True)
class ElementAttribution:
    """One named argument (or :data:`COMPUTED`): element reads charged to it and their ByteDMD cost (integer)."""

    name: str
    elements: int
    reads: int
    cost: int


@dataclass(frozen=True)
class ElementScope:
    """``metric``'s split in one scope; ``total`` equals the metric's value (Σ of the rows' costs)."""

    metric: str
    scope: str
    total: int
    rows: tuple[ElementAttribution, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "scope": self.scope,
            "total": self.total,
            "rows": [[r.name, r.elements, r.reads, r.cost] for r in self.rows],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ElementScope:
        return cls(
            metric=str(data["metric"]),
            scope=str(data["scope"]),
            total=int(data["total"]),
            rows=tuple(ElementAttribution(str(n), int(e), int(r), int(c)) for n, e, r, c in data["rows"]),
        )


def bytedmd_by_argument(
    func: Callable[..., Any], args: Sequence[Any], names: Sequence[str | Sequence[str]], scope: str
) -> ElementScope:
    """Trace ``func(*args)`` at element level and split its ``bytedmd@2`` (1 byte per element) by argument.

    ``names[i]`` names argument i; a sequence of names splits a list/tuple argument element by element.
    """
    trace = ElementTrace()
    memo: dict[int, Any] = {}
    synced: list[tuple[Any, Any]] = []
    spans: list[tuple[str, int, int]] = []  # (name, first key, end key)
    wrapped: list[Any] = []
    for arg, name in reversed(list(zip(args, names, strict=True))):
        if isinstance(arg, list | tuple) and not isinstance(name, str) and id(arg) not in memo:
            parts = []
            for item, part in zip(arg, name, strict=True):
                start = trace._next_key
                parts.append(wrap(trace, item, memo, synced))
                spans.append((part, start, trace._next_key))
            container = type(arg)(parts)
            memo[id(arg)] = container
            if isinstance(arg, list):
                synced.append((arg, container))
            wrapped.append(container)
        else:
            start = trace._next_key
            wrapped.append(wrap(trace, arg, memo, synced))
            spans.append((name if isinstance(name, str) else "/".join(name), start, trace._next_key))
    _, kept = call_and_write_back(func, wrapped, synced)
    depths, keys = depths_of(trace, kept)
    costs = read_costs(depths)
    labels = [name for name, _, _ in spans] + [COMPUTED]
    # spans are in key order and do not overlap: a read belongs to the last span starting at or before its key,
    # if it ends after it; otherwise the call computed the value (one searchsorted, not a loop over arguments)
    starts = np.array([start for _, start, _ in spans], dtype=np.int64)
    ends = np.array([end for _, _, end in spans], dtype=np.int64)
    span = np.searchsorted(starts, keys, side="right") - 1
    inside = (span >= 0) & (keys < ends[np.maximum(span, 0)]) if spans else np.zeros(keys.size, dtype=bool)
    group = np.where(inside, span, len(spans))
    reads = np.bincount(group, minlength=len(labels)).tolist()
    total = int(costs.sum())
    if total < 2**52:  # float sums of integers below this are exact
        cost = np.bincount(group, weights=costs, minlength=len(labels)).astype(np.int64).tolist()
    else:
        exact = np.zeros(len(labels), dtype=object)
        np.add.at(exact, group, costs.astype(object))
        cost = [int(c) for c in exact]
    elements = (ends - starts).tolist() + [trace._next_key - int((ends - starts).sum())]
    rows = [
        ElementAttribution(name=label, elements=e, reads=r, cost=c)
        for label, e, r, c in zip(labels, elements, reads, cost, strict=True)
    ]
    rows.sort(key=lambda r: (-r.cost, r.name))
    return ElementScope(metric=BYTEDMD, scope=scope, total=total, rows=tuple(rows))
