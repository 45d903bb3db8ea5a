"""Judge one candidate of an IR search with the board's own scorer, in this process (docs/explore.md#judging).

IR is data: it is parsed and simulated, never executed as Python, so the loop scores its candidates here with
:func:`engine.scoring.ir.score_ir` — the scorer every stored IR result comes from — instead of paying a new process
per candidate. A candidate counts only when it passes the board's correctness rule (matmul: the test instance and
the symbolic identity check; mask sparse parity: the dev suite at the board's recovery band or above).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import EngineError
from engine.metrics.registry import DALLY
from engine.scoring.ir import score_ir

BAND_PARAM = "band"


@dataclass(frozen=True)
class CandidateVerdict:
    """ok: the candidate passes the board's rules; cost: its dally@1 (None when it could not be priced); reason:
    one line when not ok; band: the recovery band it reaches (mask sparse parity), else None."""

    ok: bool
    cost: int | None
    reason: str = ""
    band: int | None = None


def judge_candidate(challenge: str, params: Mapping[str, object], text: str) -> CandidateVerdict:
    """Score ``text`` on ``challenge``; refuse it when it breaks a rule or falls below the board's band."""
    try:
        result = score_ir(challenge, text, subject="candidate")
    except EngineError as err:
        return CandidateVerdict(ok=False, cost=None, reason=err.one_line())
    cost = int(result.metrics[DALLY])
    band = result.params.get(BAND_PARAM)
    band = int(band) if isinstance(band, int) else None
    if not result.ok:
        return CandidateVerdict(ok=False, cost=cost, reason=result.failure or "fails the board's rules", band=band)
    wanted = params.get(BAND_PARAM)
    if isinstance(wanted, int) and (band is None or band < wanted):
        reached = "no band" if band is None else f"the {band} % band"
        return CandidateVerdict(
            ok=False, cost=cost, reason=f"reaches {reached} on the dev suite, below this board's {wanted} %", band=band
        )
    return CandidateVerdict(ok=True, cost=cost, band=band)
