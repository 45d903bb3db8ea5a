"""The trusted scorer's entry point for submitted IR text, run in a resource-limited child.

``run_trusted_limited("engine.scoring.verdict:score_or_reject", [challenge, text, subject])`` calls this: it scores
like :func:`engine.scoring.ir.score_ir` on fresh hidden instances, but a malformed program (an
``EngineError``, e.g. "line 17: `mul 3,1` reads address 3 before it is written") comes back as a failed
RunResult with that one-line reason instead of an exception, so the parent can store and show it.
"""

from __future__ import annotations

from engine.errors import EngineError
from engine.result import FailureKind, RunResult
from engine.scoring.ir import score_ir


def score_or_reject(challenge: str, text: str, subject: str = "ir") -> RunResult:
    """Score ``text`` on ``challenge``; a rule-breaking program returns ok=False with the one-line reason."""
    try:
        return score_ir(challenge, text, subject=subject)
    except EngineError as err:
        return RunResult(
            challenge=challenge,
            subject=subject,
            kind="ir",
            ok=False,
            failure=err.one_line(),
            failure_kind=FailureKind.REJECTED,
        )
