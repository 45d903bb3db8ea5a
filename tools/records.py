"""Record history: which valid run beat the standing record, whose record it beat, by how much, when (pure).

A run sets a record when its value is strictly lower than the best before it (an equal value does not: the
earlier run keeps the record). Input must be oldest first, as :func:`storage.scores.scored_runs` returns it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.scores import ScoredRun
from tools.metric_format import format_change, format_value


@dataclass(frozen=True)
class RecordChange:
    record: ScoredRun
    previous: ScoredRun | None

    @property
    def improvement(self) -> float | None:
        """How much lower than the previous record (metric units), None for the first record."""
        return None if self.previous is None else self.previous.value - self.record.value


def record_history(scores_oldest_first: Sequence[ScoredRun]) -> list[RecordChange]:
    """Every record in time order."""
    history: list[RecordChange] = []
    current: ScoredRun | None = None
    for score in scores_oldest_first:
        if current is None or score.value < current.value:
            history.append(RecordChange(record=score, previous=current))
            current = score
    return history


def _beaten(score: ScoredRun) -> str:
    """Whose record was beaten: member, method, value and run (a published record: member and value)."""
    if score.published:
        return f"{score.member}, {format_value(score.value)}"
    return f"{score.member} ({score.subject}, {format_value(score.value)}, #{score.run_id})"


RECORD_HEADERS = ["when (UTC)", "member", "method", "metric", "value", "beat", "change"]


def record_cells(history: Sequence[RecordChange]) -> list[list[str]]:
    """Table cells in :data:`RECORD_HEADERS` order, oldest record first."""
    cells = []
    for change in history:
        r, p = change.record, change.previous
        beat = "—" if p is None else _beaten(p)
        cells.append(
            [
                f"{r.created_at:%Y-%m-%d %H:%M}",
                r.member,
                r.subject,
                r.metric,
                format_value(r.value),
                beat,
                format_change(r.value, None if p is None else p.value),
            ]
        )
    return cells
