"""Re-score a published program with our engine: its Dally cost, whether it passes the board's rules as we judge
them today, and the rules version it was judged under.

Only boards in the challenge registry are scored (IR track); any other board is left unscored (None), so a new
table in the group's repository is kept as published until this product learns its challenge — once it does (a
new challenge module), the next sync scores its programs with no change here. A board joined to one instance of a
challenge (:mod:`tools.published.joins`: mask32's bands) is scored on that challenge, and a banded program passes
only when the recovery it reaches on the dev suite is at least its board's band.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.metrics import DALLY
from engine.scoring import is_ir_name, score_ir
from tools.board import BAND_KEY
from tools.published.joins import join_of


@dataclass(frozen=True)
class Rescore:
    """Our reading of one program: cost (None when the program could not be priced), whether it passes, the rules
    (``name@version``, "" unversioned) and why it fails (one line; "" when it passes)."""

    cost: int | None
    ok: bool
    rules: str = ""
    note: str = ""


def rescore_program(board: str, text: str) -> Rescore | None:
    """Score ``text`` on published board ``board`` (fresh hidden instances where it draws them); None when the
    board is not an IR challenge of ours, by name or by join."""
    join = join_of(board)
    challenge = board if join is None else join.challenge
    if not is_ir_name(challenge):
        return None
    try:
        result = score_ir(challenge, text, subject="published")
    except EngineError as error:
        return Rescore(cost=None, ok=False, note=error.one_line())
    cost = result.metrics.get(DALLY)
    ok, note = result.ok, result.failure or ""
    band = None if join is None else join.instance.get(BAND_KEY)
    if ok and band is not None:
        reached = None if result.recovery is None else result.recovery.band
        if reached is None or reached < band:
            shown = "no band" if reached is None else f"the {reached} % band"
            ok, note = False, f"reaches {shown} on the dev suite, below this board's {band} %"
    return Rescore(cost=None if cost is None else int(cost), ok=ok, rules=result.rules or "", note=note)
