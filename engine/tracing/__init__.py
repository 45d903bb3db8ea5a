"""Tracing: one compact trace per run, from which every metric is computed (docs/metrics.md#names-and-versions).

- buffer level (:mod:`engine.tracing.tracked_array`, :class:`EventLog`): numpy code records one event per array
  operation, following the group's TrackedArray convention (feeds ``ard@1``, ``ard_per_read@1``, ``dmc@1``);
- element level (:mod:`engine.tracing.tracked_scalar`): Python-level code on tracked scalars records one access
  per value read or stored (feeds ``bytedmd@2``).
"""

from engine.tracing.event_log import EventLog
from engine.tracing.tracked_array import TrackedArray, tracing, track
from engine.tracing.tracked_random import TrackedRandom

__all__ = ["EventLog", "TrackedArray", "TrackedRandom", "track", "tracing"]
