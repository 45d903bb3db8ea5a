"""The metric registry: which ``name@version`` each kind of run computes, track by track — the one list.

Stored requests carry these versions (a version change makes a new request and re-scores stored ones), the admins'
``metric.primary.<challenge>`` accepts only its track's metrics, and the judges compute exactly these.

- IR track (``ir`` text, ``generate()`` programs, built-in generators): ``dally@1``, the Dally-model read cost of
  the program (engine.scoring.ir).
- numpy track, traced methods: ``ard@1``, ``ard_per_read@1``, ``dmc@1`` over the whole run (engine.metrics.clock)
  and ``bytedmd@2`` (engine.metrics.bytedmd): of one step for training methods (scope "one step"), of the whole
  solve for the solvers that redo it element by element (``km_min``, ``gf2``, ``fourier``; scope "whole run");
  the other solvers report none. ``RunResult.metric_scopes`` labels each.
- numpy track, ``solve()`` submissions: ``dmc@1``, ``ard@1``, ``ard_per_read@1`` measured by the parent on remote
  arrays (engine.sandbox.judge), and ``bytedmd@2`` of the whole solve() call from the element trace of the same
  requests run again on tracked elements in the parent (engine.sandbox.remote.element_shadow).
- both numpy kinds also report ``dmd@1``, the group's element LRU stack distance (the "DMD" column of their
  tables), from the same buffer-level events (engine.metrics.element_dmd): whole run for methods and submissions,
  and of one step beside it for training methods (``dmd@1 (one step)``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.metrics.bytedmd import BYTEDMD
from engine.metrics.clock import ARD, ARD_PER_READ, DMC
from engine.metrics.lru_stack import DMD

DALLY = "dally@1"
"""The IR track's metric: the Dally-model cost of an IR program (sum of ⌈√address⌉ over its reads)."""


@dataclass(frozen=True)
class Computed:
    """The metrics one kind of run on one track computes, in the order they are shown."""

    track: str
    kind: str
    metrics: tuple[str, ...]


REGISTRY: tuple[Computed, ...] = (
    Computed("ir", "ir", (DALLY,)),
    Computed("ir", "generate", (DALLY,)),
    Computed("numpy", "method", (ARD, ARD_PER_READ, DMC, BYTEDMD, DMD)),
    Computed("numpy", "solve", (DMC, ARD, ARD_PER_READ, DMD, BYTEDMD)),
)


def metrics_for(track: str, kind: str) -> tuple[str, ...]:
    """The metrics a ``kind`` run on ``track`` computes; KeyError for a pair that does not exist."""
    for entry in REGISTRY:
        if (entry.track, entry.kind) == (track, kind):
            return entry.metrics
    raise KeyError(f"no {kind} runs on the {track} track")


def track_metrics(track: str) -> tuple[str, ...]:
    """Every metric stored for runs of ``track`` (first-seen order); () for an unknown track."""
    seen = [m for entry in REGISTRY if entry.track == track for m in entry.metrics]
    return tuple(dict.fromkeys(seen))
