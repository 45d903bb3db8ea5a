"""Re-score a published program with our engine: its Dally cost, whether it passes the board's rules as we judge
them today, and the rules version it was judged under.

Only boards in the challenge registry are scored (IR track); any other board is left unscored (None), so a new
table in the group's repository is kept as published until this product learns its challenge — once it does (a
new challenge module, e.g. mask32's bands), the next sync scores its programs with no change here.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.metrics import DALLY
from engine.scoring import is_ir_name, score_ir


@dataclass(frozen=True)
class Rescore:
    """Our reading of one program: cost (None when the program could not be priced), whether it passes, the rules
    (``name@version``, "" unversioned) and why it fails (one line; "" when it passes)."""

    cost: int | None
    ok: bool
    rules: str = ""
    note: str = ""


def rescore_program(challenge: str, text: str) -> Rescore | None:
    """Score ``text`` on ``challenge`` (fresh hidden instances where it draws them); None when not an IR board."""
    if not is_ir_name(challenge):
        return None
    try:
        result = score_ir(challenge, text, subject="published")
    except EngineError as error:
        return Rescore(cost=None, ok=False, note=error.one_line())
    cost = result.metrics.get(DALLY)
    return Rescore(
        cost=None if cost is None else int(cost),
        ok=result.ok,
        rules=result.rules or "",
        note=result.failure or "",
    )
