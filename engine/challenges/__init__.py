"""The challenge registry: one module per challenge, registered here.

A challenge names its track (``ir`` for Dally-scored IR programs, ``numpy`` for instrumented Python methods and
``solve()`` submissions), a one-line summary and its primary metric (``name@version``).
"""

from __future__ import annotations

from typing import Protocol

from engine.registry import Registry


class Challenge(Protocol):
    """What every registry entry offers; tracks add their own fields (inputs/outputs, hidden instances …)."""

    @property
    def name(self) -> str: ...

    @property
    def track(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def primary_metric(self) -> str: ...


CHALLENGES: Registry[Challenge] = Registry("challenge")

from engine.challenges import sparse_parity as _sparse_parity  # noqa: E402,F401  (registers the numpy track)
