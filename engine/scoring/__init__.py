"""Scoring on a challenge: an IR program priced by the Dally model and checked on the challenge's instances.

Sits above both what it combines — ``engine.ir`` (parse, check, simulate, cost) and ``engine.challenges`` (the
instances and correctness rules) — so neither of those imports the other's user.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.scoring.ir import METRIC as METRIC
    from engine.scoring.ir import current_ir_names as current_ir_names
    from engine.scoring.ir import infer_challenges as infer_challenges
    from engine.scoring.ir import ir_challenge as ir_challenge
    from engine.scoring.ir import ir_names as ir_names
    from engine.scoring.ir import is_ir_name as is_ir_name
    from engine.scoring.ir import score_ir as score_ir
    from engine.scoring.program_judge import ProgramJudge as ProgramJudge
    from engine.scoring.program_judge import ProgramVerdict as ProgramVerdict
    from engine.scoring.recovery import adjudicate as adjudicate

_PUBLIC: dict[str, str] = {
    "METRIC": "engine.scoring.ir",
    "ProgramJudge": "engine.scoring.program_judge",
    "ProgramVerdict": "engine.scoring.program_judge",
    "adjudicate": "engine.scoring.recovery",
    "current_ir_names": "engine.scoring.ir",
    "infer_challenges": "engine.scoring.ir",
    "ir_challenge": "engine.scoring.ir",
    "ir_names": "engine.scoring.ir",
    "is_ir_name": "engine.scoring.ir",
    "score_ir": "engine.scoring.ir",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = [
    "METRIC",
    "ProgramJudge",
    "ProgramVerdict",
    "adjudicate",
    "current_ir_names",
    "infer_challenges",
    "ir_challenge",
    "ir_names",
    "is_ir_name",
    "score_ir",
]


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
