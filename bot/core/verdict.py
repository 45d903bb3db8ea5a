"""WIN / LOSS / INCONCLUSIVE for a candidate result against a reference (a baseline or the record) — pure.

The rule (docs/verdicts.md explains it with worked numbers; it follows the group's practice of classifying a result
over several seeds and calling small changes inconclusive):

1. Accuracy first: a candidate that did not pass its challenge's accuracy check is a LOSS, whatever its cost.
2. Lower is better (every stored metric is an energy or distance cost). ``change = mean(reference) −
   mean(candidate)``; positive means the candidate is cheaper.
3. The change must exceed a *margin*: the larger of

   - ``spread_factor × spread``, where ``spread`` is the larger of the two sides' sample standard deviations
     (n − 1 in the denominator) over their seed values; a side with a single value contributes no spread, and
   - ``min_change × |mean(reference)|`` (a minimum relative size, e.g. 0.01 = 1 %).

   ``change > margin`` is a WIN, ``change < −margin`` a LOSS, anything in between INCONCLUSIVE.
4. Single-seed or deterministic values (IR programs: the Dally cost depends on the program only) have no spread;
   the comparison is exact and only the minimum relative size applies.

The two tolerances are admin settings: ``verdict.min_change`` (default 0.01) and ``verdict.spread_factor``
(default 1.0), see tools/config/schema.py.
"""

from __future__ import annotations

import enum
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_MIN_CHANGE = 0.01
"""Minimum relative change (fraction of the reference's mean) that can be a WIN or a LOSS: 1 %."""

DEFAULT_SPREAD_FACTOR = 1.0
"""How many seed standard deviations a change must exceed."""


class Outcome(enum.Enum):
    WIN = "WIN"
    LOSS = "LOSS"
    INCONCLUSIVE = "INCONCLUSIVE"


@dataclass(frozen=True)
class VerdictRule:
    """The two tolerances of the rule (see the module docstring)."""

    min_change: float = DEFAULT_MIN_CHANGE
    spread_factor: float = DEFAULT_SPREAD_FACTOR

    def __post_init__(self) -> None:
        if not (self.min_change >= 0 and math.isfinite(self.min_change)):
            raise ValueError(f"min_change must be a finite number ≥ 0, not {self.min_change}")
        if not (self.spread_factor >= 0 and math.isfinite(self.spread_factor)):
            raise ValueError(f"spread_factor must be a finite number ≥ 0, not {self.spread_factor}")


DEFAULT_RULE = VerdictRule()
"""The rule with the default tolerances (the admins' settings override it: :func:`configured_rule`)."""


@dataclass(frozen=True)
class Verdict:
    """The outcome with the figures that decided it (metric units; ``relative`` is a fraction of the reference)."""

    outcome: Outcome
    candidate_mean: float
    reference_mean: float
    change: float
    margin: float
    spread: float
    reason: str

    @property
    def relative(self) -> float | None:
        """``change / |reference mean|`` (positive: cheaper), None when the reference is 0."""
        return None if self.reference_mean == 0 else self.change / abs(self.reference_mean)


def spread_of(values: Sequence[float]) -> float:
    """Sample standard deviation of ``values`` (n − 1 in the denominator); 0 for fewer than two values."""
    return statistics.stdev(values) if len(values) >= 2 else 0.0


def judge(
    candidate: Sequence[float],
    reference: Sequence[float],
    *,
    candidate_passed: bool = True,
    rule: VerdictRule = DEFAULT_RULE,
) -> Verdict:
    """The verdict of ``candidate`` (per-seed values, or one deterministic value) against ``reference``."""
    if not candidate or not reference:
        raise ValueError("a verdict needs at least one candidate value and one reference value")
    c_mean, r_mean = statistics.fmean(candidate), statistics.fmean(reference)
    change = r_mean - c_mean
    spread = max(spread_of(candidate), spread_of(reference))
    margin = max(rule.spread_factor * spread, rule.min_change * abs(r_mean))
    figures = {"candidate_mean": c_mean, "reference_mean": r_mean, "change": change, "margin": margin}
    if not candidate_passed:
        return Verdict(Outcome.LOSS, spread=spread, reason="accuracy check failed", **figures)
    if change > margin:
        return Verdict(Outcome.WIN, spread=spread, reason="cheaper by more than the margin", **figures)
    if change < -margin:
        return Verdict(Outcome.LOSS, spread=spread, reason="costlier by more than the margin", **figures)
    return Verdict(Outcome.INCONCLUSIVE, spread=spread, reason="change within the margin", **figures)


def configured_rule(get: Callable[[str], Any]) -> VerdictRule:
    """The admins' rule: ``get`` reads a setting (``ToolConfig.get``) — ``verdict.min_change`` and
    ``verdict.spread_factor``."""
    return VerdictRule(min_change=float(get("verdict.min_change")), spread_factor=float(get("verdict.spread_factor")))
