"""Judge one candidate of an IR search with the board's own rules, in this process (docs/explore.md#judging).

IR is data: it is parsed and simulated, never executed as Python, so the loop judges its candidates here with the
board's long-lived judge (:class:`engine.scoring.ProgramJudge`: the matmul polynomials or the mask dev suite built
once per process, the same verdicts as :func:`engine.scoring.ir.score_ir`) instead of paying a new process, or a
rebuilt board, per candidate. A candidate counts only when it passes the board's correctness rule (matmul: the
symbolic identity of rules@2; mask sparse parity: the dev suite at the board's recovery band or above).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from engine.scoring.program_judge import ProgramJudge

BAND_PARAM = "band"


@dataclass(frozen=True)
class CandidateVerdict:
    """ok: the candidate passes the board's rules; cost: its dally@1 (None when it could not be priced); reason:
    one line when not ok; band: the recovery band it reaches (mask sparse parity), else None."""

    ok: bool
    cost: int | None
    reason: str = ""
    band: int | None = None


@functools.lru_cache(maxsize=8)
def board_judge(challenge: str, band: int | None) -> ProgramJudge:
    """The long-lived judge of ``challenge`` at ``band`` (None: the board's lowest band), made once per process."""
    return ProgramJudge(challenge, band=band)


def judge_candidate(challenge: str, params: Mapping[str, object], text: str) -> CandidateVerdict:
    """Judge ``text`` on ``challenge`` at the instance ``params`` names (a mask program: its band, or the lowest)."""
    wanted = params.get(BAND_PARAM)
    verdict = board_judge(challenge, wanted if isinstance(wanted, int) else None).judge(text)
    return CandidateVerdict(ok=verdict.correct, cost=verdict.cost, reason=verdict.reason or "", band=verdict.band)
