"""Adjudicate a recovery-banded result (mask sparse parity) on a fresh secret suite when it would change a band's
record, before it is stored (docs/challenges.md#mask-sparse-parity).

The dev suite is public and fixed, so a program can be tuned to it; the group therefore confirms a result that
decides a record on a freshly drawn 2,048-instance suite and publishes the counts. Here: a passing dev result whose
cost is below the best valid result on its band's board (stored runs and the group's published entries), or the
first on that board, is scored again on a fresh suite whose key is drawn from :mod:`secrets`; the stored result
keeps both counts, the key and the suite's digest (:class:`engine.result.Recovery`), and its band — hence its board —
becomes the one the fresh count reaches. Submitted text is adjudicated by the trusted scorer in a resource-limited
child, like its first scoring; the built-in generators' text in this process.
"""

from __future__ import annotations

from bot.core.scorer_limits import scorer_limits
from bot.core.services import Services
from engine.errors import EngineError
from engine.metrics import DALLY
from engine.result import RunResult
from engine.sandbox import LimitExceeded, run_trusted_limited
from engine.scoring import adjudicate, ir_challenge
from storage.scores import scored_runs
from tools.board import BAND_KEY
from tools.published.records import published_scores

ADJUDICATOR = "engine.scoring.verdict:adjudicate_or_reject"


def band_record(services: Services, challenge: str, band: int) -> float | None:
    """The lowest dally@1 cost on ``challenge``'s board for ``band`` (stored valid runs and published entries),
    or None when the board is empty."""
    with services.sessions()() as session:  # the newest sync's published rows, not the shipped ones
        entries = [
            *published_scores(challenge, DALLY, session),
            *scored_runs(session, challenge=challenge, metric=DALLY),
        ]
    costs = [s.value for s in entries if s.params.get(BAND_KEY) == band]
    return min(costs) if costs else None


def would_change_record(services: Services, result: RunResult) -> bool:
    """Whether ``result`` passes on the dev suite and beats (or opens) its band's board."""
    if not result.ok or result.recovery is None or result.recovery.band is None:
        return False
    record = band_record(services, result.challenge, result.recovery.band)
    return record is None or result.metrics[DALLY] < record


def adjudicated(services: Services, result: RunResult, text: str, *, trusted_text: bool = False) -> RunResult:
    """``result`` adjudicated on a fresh suite when it would change its band's record; else ``result`` as it is.

    ``trusted_text``: the text is a built-in generator's (scored in this process); otherwise it runs in the
    trusted scorer's limited child, and a limit hit keeps the dev result with a note saying so."""
    if not would_change_record(services, result):
        return result
    if trusted_text:
        return adjudicate(ir_challenge(result.challenge), text, result)
    try:
        value = run_trusted_limited(
            ADJUDICATOR, [result.challenge, text, result.to_dict()], scorer_limits(result.challenge)
        )
    except (LimitExceeded, EngineError) as err:
        result.note = f"not adjudicated: {err}"
        return result
    judged = RunResult.from_dict(value)
    judged.provenance = result.provenance
    return judged
