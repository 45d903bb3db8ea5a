"""The trusted scorer's entry point for submitted IR text, run in a resource-limited child.

``run_trusted_limited("engine.scoring.verdict:score_or_reject", [challenge, text, subject])`` calls this: it scores
like :func:`engine.scoring.ir.score_ir` on fresh hidden instances, but a malformed program (an
``EngineError``, e.g. "line 17: `mul 3,1` reads address 3 before it is written") comes back as a failed
RunResult with that one-line reason instead of an exception, so the parent can store and show it. A program
whose cost does not fit a stored number (addresses thousands of digits long give a cost of 10^2000) is
rejected the same way, so that no result the parent receives can break storing, ranking or showing it.
"""

from __future__ import annotations

import math
from typing import Any

from engine.errors import EngineError
from engine.result import FailureKind, RunResult
from engine.scoring.ir import ir_challenge, score_ir
from engine.scoring.recovery import adjudicate


def score_or_reject(challenge: str, text: str, subject: str = "ir") -> RunResult:
    """Score ``text`` on ``challenge``; a rule-breaking program returns ok=False with the one-line reason."""
    try:
        result = score_ir(challenge, text, subject=subject)
    except EngineError as err:
        return RunResult(
            challenge=challenge,
            subject=subject,
            kind="ir",
            ok=False,
            failure=err.one_line(),
            failure_kind=FailureKind.REJECTED,
        )
    too_large = [name for name, value in result.metrics.items() if not _storable(value)]
    if too_large:
        return RunResult(
            challenge=challenge,
            subject=subject,
            kind="ir",
            ok=False,
            failure=f"the program's {too_large[0]} cost is too large to record (over 2**63); use addresses below 2**53",
            failure_kind=FailureKind.REJECTED,
        )
    return result


def _storable(value: object) -> bool:
    """A metric that fits a 64-bit integer column and a finite float (what storage and ranking use)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, int):
        return abs(value) < 2**63
    return math.isfinite(value) and abs(value) < 2.0**63


def adjudicate_or_reject(challenge: str, text: str, result: dict[str, Any], key: str | None = None) -> RunResult:
    """``result`` (the dev-suite scoring of ``text`` as a dict) with its count on a fresh secret suite added
    (:func:`engine.scoring.recovery.adjudicate`); ``key`` re-draws a disclosed suite."""
    return adjudicate(ir_challenge(challenge), text, RunResult.from_dict(result), key=key)
