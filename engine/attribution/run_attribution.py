"""Attribution of one traced run: the per-buffer table of each scope and the per-argument ByteDMD split.

A method run has up to two buffer-level scopes, labelled as its metrics are (docs/metrics.md#names-and-versions):
``whole run`` (the trace of the whole run) and ``one step`` (one representative training step traced alone), and
one element-level split (``bytedmd@2``, ``one step``). Every table adds up to the metrics of the same scope (see
:mod:`engine.attribution.buffers`, :mod:`engine.attribution.elements`).

:meth:`Attribution.to_dict` is compact (rows as lists, the histogram as its JSON), a few KB per run;
:meth:`Attribution.from_dict` reads that form and also the form ``dataclasses.asdict`` gives.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.attribution.buffers import BufferAttribution, ScopeAttribution, attribute_indexed
from engine.attribution.elements import ElementAttribution, ElementScope
from engine.attribution.histogram import ReuseHistogram
from engine.attribution.naming import NamingEventLog
from engine.metrics.clock import ReadDistances

WHOLE_RUN = "whole run"
ONE_STEP = "one step"


@dataclass(frozen=True)
class Attribution:
    """Where a run's cost went: buffer tables by scope and element-level splits by metric and scope."""

    scopes: tuple[ScopeAttribution, ...]
    elements: tuple[ElementScope, ...] = ()

    def scope(self, name: str) -> ScopeAttribution | None:
        return next((s for s in self.scopes if s.scope == name), None)

    def element_scope(self, metric: str) -> ElementScope | None:
        return next((e for e in self.elements if e.metric == metric), None)

    def to_dict(self) -> dict[str, Any]:
        return {"scopes": [s.to_dict() for s in self.scopes], "elements": [e.to_dict() for e in self.elements]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Attribution:
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Attribution:
        return cls(
            scopes=tuple(_scope(s) for s in data.get("scopes", ())),
            elements=tuple(_elements(e) for e in data.get("elements", ())),
        )


def _scope(data: dict[str, Any]) -> ScopeAttribution:
    rows = data["rows"]
    if rows and isinstance(rows[0], dict):  # dataclasses.asdict form
        histogram = data["histogram"]
        return ScopeAttribution(
            scope=data["scope"],
            rows=tuple(BufferAttribution(**r) for r in rows),
            reads=data["reads"],
            floats_read=data["floats_read"],
            distance_sum=data["distance_sum"],
            read_distance_sum=data["read_distance_sum"],
            metrics=dict(data["metrics"]),
            histogram=ReuseHistogram(
                names=tuple(histogram["names"]),
                rows=tuple({int(b): int(v) for b, v in row.items()} for row in histogram["rows"]),
            ),
        )
    return ScopeAttribution.from_dict(data)


def _elements(data: dict[str, Any]) -> ElementScope:
    rows = data["rows"]
    if rows and isinstance(rows[0], dict):
        return ElementScope(data["metric"], data["scope"], data["total"], tuple(ElementAttribution(**r) for r in rows))
    return ElementScope.from_dict(data)


def attribute_log(
    log: NamingEventLog,
    scope: str,
    events: tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]] | None = None,
    distances: ReadDistances | None = None,
    dmc: float | None = None,
) -> ScopeAttribution:
    """The per-buffer table of everything ``log`` recorded, names resolved from the creation sites. ``events``
    (``log.arrays()``), ``distances`` (their read distances) and ``dmc`` (the ``dmc@1`` of those distances): pass
    them when already computed for the metrics."""
    names, name_of_buffer = log.name_table()
    events = log.arrays() if events is None else events
    return attribute_indexed(*events, names, name_of_buffer, scope, distances, dmc)
