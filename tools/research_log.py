"""Entries of the group's research log: the JSONL schema of SutroYaro's ``research/log.jsonl`` (pure).

Each line of that log is one experiment, with these keys in this order (cybertronai/SutroYaro
``research/log.jsonl``): ``id``, ``researcher``, ``date`` (YYYY-MM-DD), ``challenge``, ``hypothesis``, ``method``,
``changed`` (what differs from the baseline), ``baseline`` (method and its figures), ``result`` (the figures),
``delta_pct`` (metric → change against the baseline, percent), ``class`` (``WIN``, ``LOSS``, ``INCONCLUSIVE`` or
``BASELINE``) and ``notes``. ``sutro export journal`` writes an /explore loop's steps, or a board's stored results,
in this form so they can be appended to the group's log as they are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

CLASSES = ("WIN", "LOSS", "INCONCLUSIVE", "BASELINE")


@dataclass(frozen=True)
class LogEntry:
    """One line of the research log (see the module docstring for each key)."""

    id: str
    researcher: str
    date: str
    challenge: str
    hypothesis: str
    method: str
    changed: Mapping[str, Any] = field(default_factory=dict)
    baseline: Mapping[str, Any] = field(default_factory=dict)
    result: Mapping[str, Any] = field(default_factory=dict)
    delta_pct: Mapping[str, float] = field(default_factory=dict)
    outcome: str = "INCONCLUSIVE"
    notes: str = ""

    def __post_init__(self) -> None:
        if self.outcome not in CLASSES:
            raise ValueError(f"class must be one of {', '.join(CLASSES)}, not {self.outcome!r}")

    def as_dict(self) -> dict[str, Any]:
        """The entry with the log's keys in the log's order (``class`` for :attr:`outcome`)."""
        return {
            "id": self.id,
            "researcher": self.researcher,
            "date": self.date,
            "challenge": self.challenge,
            "hypothesis": self.hypothesis,
            "method": self.method,
            "changed": dict(self.changed),
            "baseline": dict(self.baseline),
            "result": dict(self.result),
            "delta_pct": dict(self.delta_pct),
            "class": self.outcome,
            "notes": self.notes,
        }


def jsonl(entries: Iterable[LogEntry]) -> str:
    """The entries as JSON lines (one object per line, UTF-8 kept as is, a final newline)."""
    lines = [json.dumps(e.as_dict(), ensure_ascii=False) for e in entries]
    return "\n".join(lines) + ("\n" if lines else "")
