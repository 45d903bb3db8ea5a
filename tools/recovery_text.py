"""How a recovery-scored result (mask sparse parity) is worded on every card, one rendering for all of them.

``recovered the secret on 760 of 1,024 dev instances (74.2%) — band 60%`` and, when a fresh secret suite decided
it, ``adjudicated on a fresh suite: 1,517 of 2,048 (74.1 % ± 1.9 pp), key fresh-…, suite sha256 3f2a9c…``: the
integer counts and denominators, the noise (95 % binomial half-width) and the suite's key and content digest, as
the group publishes them when adjudication decides a record.
"""

from __future__ import annotations

from typing import Any

from engine.result import Recovery, SuiteCount


def _count(count: SuiteCount) -> str:
    return f"{count.successes:,} of {count.instances:,}"


def band_words(band: int | None) -> str:
    """``band 60%`` or ``below every band``."""
    return "below every band" if band is None else f"band {band}%"


def recovery_lines(recovery: Recovery | None) -> list[str]:
    """The card's lines for ``recovery`` (none for a result that is not recovery-scored)."""
    if recovery is None:
        return []
    dev = recovery.dev
    lines = [f"recovered the secret on {_count(dev)} dev instances ({dev.recovery:.1%}) — {band_words(recovery.band)}"]
    audit = recovery.adjudication
    if audit is not None:
        lines.append(
            f"adjudicated on a fresh suite: {_count(audit)} ({audit.recovery:.1%} ± {audit.noise_pp:.1f} pp), "
            f"key {audit.suite_key}, suite sha256 {audit.suite_digest[:12]}…"
        )
    return lines


def recovery_data(recovery: Recovery | None) -> dict[str, Any] | None:
    """The JSON form: ``band``, ``dev`` and ``adjudication`` (each ``suite_key``, ``suite_digest``, ``successes``,
    ``instances``, ``recovery``, ``noise_pp``), or None."""
    if recovery is None:
        return None

    def one(count: SuiteCount | None) -> dict[str, Any] | None:
        if count is None:
            return None
        return {
            "suite_key": count.suite_key,
            "suite_digest": count.suite_digest,
            "successes": count.successes,
            "instances": count.instances,
            "recovery": count.recovery,
            "noise_pp": round(count.noise_pp, 3),
        }

    return {"band": recovery.band, "dev": one(recovery.dev), "adjudication": one(recovery.adjudication)}
