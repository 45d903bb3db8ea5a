"""A stored run and the RunResult it was made from: which fields are columns, which go into the ``detail`` JSON,
and how a RunResult is put back together from either shape of row (pure)."""

from __future__ import annotations

from typing import Any

from engine.result import RunResult
from storage.tables import Run

COLUMNS = (
    "challenge",
    "kind",
    "subject",
    "ok",
    "params",
    "seeds",
    "metrics",
    "accuracy",
    "failure",
    "wall_s",
    "engine_version",
    "code_hash",
)
"""RunResult fields that are columns of a stored run (everything else goes into its ``detail`` JSON)."""


def detail_of(result: RunResult) -> dict[str, Any]:
    """The part of ``result`` without a column of its own (stored as the run's JSON ``detail``)."""
    return {k: v for k, v in result.to_dict().items() if k not in COLUMNS}


def result_of(run: Run) -> RunResult:
    """The RunResult a stored run was made from: columns first, then its JSON detail.

    Rows written before columns and detail were split hold a full copy of the result (and an ``extra`` dict);
    the columns win where both exist, so the reading is the same for either shape.
    """
    columns = {name: getattr(run, name) for name in COLUMNS}
    return RunResult.from_dict({**(run.result or {}), **columns})
