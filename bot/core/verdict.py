"""WIN / LOSS / INCONCLUSIVE for a candidate result against a reference (a baseline or the record) — pure.

The rule (docs/verdicts.md explains it with worked numbers; it follows the group's practice of classifying a result
over several seeds and calling small changes inconclusive):

1. Accuracy first: a candidate that did not pass its challenge's accuracy check is a LOSS, whatever its cost.
2. Lower is better, and costs are positive and multiplicative (every stored metric is an energy or distance cost;
   a method's cost on one seed can be several times its cost on another), so the rule reads **log costs**:
   ``change = mean(ln reference) − mean(ln candidate)``, the log of the ratio of the two geometric means; positive
   means the candidate is cheaper (``change = ln 2``: half the cost). The verdict's words state the change of the
   arithmetic means, the figures the boards and tables show; the logs decide.
3. The change must exceed a *margin* (natural-log units): the larger of

   - ``spread_factor × spread``. **Paired** — both sides measured on the same seeds (or the same hidden instances),
     value *i* of each on seed *i* — the spread is the sample standard deviation (n − 1 in the denominator) of the
     per-seed log-ratios ``ln reference_i − ln candidate_i``: what varies from seed to seed is the ratio, not the
     cost. **Unpaired** (different seeds, or one side a single value) it is the larger of the two sides' sample
     standard deviations of their log costs; a side with a single value contributes none;
   - ``ln(1 + min_change)``: the minimum relative size (``min_change`` 0.01: a factor of 1.01 either way).

   ``change > margin`` is a WIN, ``change < −margin`` a LOSS, anything in between INCONCLUSIVE.
4. Single-seed or deterministic values (IR programs: the Dally cost depends on the program only) have no spread;
   the comparison is exact and only the minimum relative size applies.
5. A side with a value that is not positive (a cost of 0 has no logarithm) is judged on the **linear** scale
   instead: the difference of the arithmetic means against ``max(spread_factor × the larger sample standard
   deviation, min_change × |mean(reference)|)``. Verdicts stored before the log rule read back on this scale.

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


LOG = "log"
"""The scale of a verdict on log costs (the rule's usual scale)."""
LINEAR = "linear"
"""The scale of a verdict on the costs themselves (a side with a value ≤ 0, or a verdict stored before the log
rule)."""


@dataclass(frozen=True)
class Verdict:
    """The outcome with the figures that decided it.

    candidate_mean / reference_mean: each side's arithmetic mean in metric units — the figure boards, tables and
    the verdict's words show (one figure for one comparison). change / margin / spread: natural-log units on the
    log scale (``change`` is the log of the ratio of the geometric means: what decided), metric units on the
    linear one. paired: the spread is the one of the per-seed log-ratios (both sides on the same seeds)."""

    outcome: Outcome
    candidate_mean: float
    reference_mean: float
    change: float
    margin: float
    spread: float
    reason: str
    scale: str = LINEAR
    paired: bool = False

    @property
    def relative(self) -> float | None:
        """``(reference_mean − candidate_mean) / |reference_mean|`` (positive: cheaper), None when the reference is
        0."""
        if self.reference_mean == 0:
            return None
        return (self.reference_mean - self.candidate_mean) / abs(self.reference_mean)

    @property
    def geometric_ratio(self) -> float | None:
        """The candidate's geometric mean over the reference's (below 1: cheaper) — the ratio the log rule judged;
        None on the linear scale."""
        return math.exp(-self.change) if self.scale == LOG else None


def spread_of(values: Sequence[float]) -> float:
    """Sample standard deviation of ``values`` (n − 1 in the denominator); 0 for fewer than two values."""
    return statistics.stdev(values) if len(values) >= 2 else 0.0


def is_paired(
    candidate_keys: Sequence[object],
    reference_keys: Sequence[object],
    candidate: Sequence[float],
    reference: Sequence[float],
) -> bool:
    """Whether the two sides' values were measured on the same seeds (or hidden instances) in the same order: the
    keys are equal, at least two, one per value on each side."""
    keys = list(candidate_keys)
    return len(keys) >= 2 and keys == list(reference_keys) and len(candidate) == len(keys) == len(reference)


def _positive(values: Sequence[float]) -> bool:
    return all(v > 0 and math.isfinite(v) for v in values)


def judge(
    candidate: Sequence[float],
    reference: Sequence[float],
    *,
    candidate_passed: bool = True,
    rule: VerdictRule = DEFAULT_RULE,
    paired: bool = False,
) -> Verdict:
    """The verdict of ``candidate`` (per-seed values, or one deterministic value) against ``reference``.

    ``paired``: value *i* of both sides was measured on the same seed (or hidden instance) — the sides must then
    have the same length; the spread is then the one of the per-seed log-ratios."""
    if not candidate or not reference:
        raise ValueError("a verdict needs at least one candidate value and one reference value")
    if paired and len(candidate) != len(reference):
        sizes = f"{len(candidate)} and {len(reference)}"
        raise ValueError(f"paired values need one value per seed on each side, not {sizes}")
    c_mean, r_mean = statistics.fmean(candidate), statistics.fmean(reference)
    if _positive(candidate) and _positive(reference):
        log_c, log_r = [math.log(v) for v in candidate], [math.log(v) for v in reference]
        paired = paired and len(candidate) >= 2
        if paired:
            spread = spread_of([r - c for c, r in zip(log_c, log_r, strict=True)])
        else:
            spread = max(spread_of(log_c), spread_of(log_r))
        change = statistics.fmean(log_r) - statistics.fmean(log_c)
        margin = max(rule.spread_factor * spread, math.log1p(rule.min_change))
        scale = LOG
    else:
        change = r_mean - c_mean
        spread = max(spread_of(candidate), spread_of(reference))
        margin = max(rule.spread_factor * spread, rule.min_change * abs(r_mean))
        scale, paired = LINEAR, False
    if not candidate_passed:
        outcome, reason = Outcome.LOSS, "accuracy check failed"
    elif change > margin:
        outcome, reason = Outcome.WIN, "cheaper by more than the margin"
    elif change < -margin:
        outcome, reason = Outcome.LOSS, "costlier by more than the margin"
    else:
        outcome, reason = Outcome.INCONCLUSIVE, "change within the margin"
    return Verdict(outcome, c_mean, r_mean, change, margin, spread, reason, scale=scale, paired=paired)


def configured_rule(get: Callable[[str], Any]) -> VerdictRule:
    """The admins' rule: ``get`` reads a setting (``ToolConfig.get``) — ``verdict.min_change`` and
    ``verdict.spread_factor``."""
    return VerdictRule(min_change=float(get("verdict.min_change")), spread_factor=float(get("verdict.spread_factor")))
