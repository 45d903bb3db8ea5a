"""The verdict rule (bot/core/verdict.py, docs/verdicts.md) on hand-worked spreads.

Sample standard deviation s = sqrt(Σ(x − mean)² / (n − 1)); every figure below is worked out in the comments.
"""

from __future__ import annotations

import pytest

from bot.core.verdict import Outcome, VerdictRule, configured_rule, judge, spread_of
from tools.config.schema import build_schema

REFERENCE = [104.0, 105.0, 106.0]  # mean 105; deviations −1, 0, 1 → Σ² = 2 → s² = 2/2 = 1 → s = 1


def test_spread_is_the_sample_standard_deviation() -> None:
    # [98, 100, 102]: mean 100; deviations −2, 0, 2 → Σ² = 8 → s² = 8/2 = 4 → s = 2
    assert spread_of([98.0, 100.0, 102.0]) == pytest.approx(2.0)
    assert spread_of(REFERENCE) == pytest.approx(1.0)
    assert spread_of([7.0]) == 0.0


def test_a_change_beyond_the_larger_spread_is_a_win() -> None:
    # candidate mean 100 (s = 2), reference mean 105 (s = 1): change = 5;
    # margin = max(1.0 × max(2, 1), 0.01 × 105 = 1.05) = 2; 5 > 2 → WIN
    v = judge([98.0, 100.0, 102.0], REFERENCE)
    assert v.outcome is Outcome.WIN
    assert (v.change, v.spread, v.margin) == pytest.approx((5.0, 2.0, 2.0))
    assert v.relative == pytest.approx(5 / 105)


def test_a_change_inside_the_seed_spread_is_inconclusive() -> None:
    # [90, 100, 110]: mean 100; deviations −10, 0, 10 → Σ² = 200 → s² = 100 → s = 10
    # change = 5; margin = max(10, 1.05) = 10; |5| ≤ 10 → INCONCLUSIVE
    v = judge([90.0, 100.0, 110.0], REFERENCE)
    assert v.outcome is Outcome.INCONCLUSIVE
    assert v.margin == pytest.approx(10.0)
    # the admins' spread factor 0.4: margin = max(0.4 × 10 = 4, 1.05) = 4; 5 > 4 → WIN
    assert judge([90.0, 100.0, 110.0], REFERENCE, rule=VerdictRule(spread_factor=0.4)).outcome is Outcome.WIN


def test_the_minimum_relative_size_applies_when_the_seeds_agree() -> None:
    # [999.8, 1000, 1000.2]: mean 1000; Σ² = 0.04 + 0 + 0.04 = 0.08 → s² = 0.04 → s = 0.2
    # reference [1005] × 3: s = 0. change = 5 (0.5 %); margin = max(0.2, 0.01 × 1005 = 10.05) = 10.05 → INCONCLUSIVE
    v = judge([999.8, 1000.0, 1000.2], [1005.0] * 3)
    assert v.outcome is Outcome.INCONCLUSIVE
    assert v.margin == pytest.approx(10.05)


def test_costlier_beyond_the_margin_is_a_loss() -> None:
    # [110, 112, 114]: mean 112, s = 2; reference [100] × 3: mean 100, s = 0;
    # change = 100 − 112 = −12; margin = max(2, 1) = 2; −12 < −2 → LOSS
    assert judge([110.0, 112.0, 114.0], [100.0] * 3).outcome is Outcome.LOSS


def test_a_candidate_failing_accuracy_is_a_loss_even_when_cheaper() -> None:
    # 50 vs 105 would be a WIN by 55 > margin 2, but accuracy comes first
    v = judge([50.0, 50.0, 50.0], REFERENCE, candidate_passed=False)
    assert v.outcome is Outcome.LOSS
    assert "accuracy" in v.reason


def test_deterministic_values_compare_exactly_with_only_the_minimum_size() -> None:
    # sutro-problems matmul 16×16: 66,707 against the previous record 67,821:
    # change = 1,114 = 1.64 % of 67,821 > 1 % (margin 678.21) → WIN
    assert judge([66707.0], [67821.0]).outcome is Outcome.WIN
    # 67,821 against 67,834: change 13 = 0.019 % < 1 % (margin 678.34) → INCONCLUSIVE
    assert judge([67821.0], [67834.0]).outcome is Outcome.INCONCLUSIVE
    # with no minimum size the exact comparison decides: 13 > 0 → WIN; an equal value is never a win
    exact = VerdictRule(min_change=0.0)
    assert judge([67821.0], [67834.0], rule=exact).outcome is Outcome.WIN
    assert judge([67821.0], [67821.0], rule=exact).outcome is Outcome.INCONCLUSIVE


def test_one_seed_half_a_percent_better_is_not_a_win() -> None:
    # the example: 995 vs 1000 on one seed is a 0.5 % change, under the 1 % minimum → INCONCLUSIVE
    assert judge([995.0], [1000.0]).outcome is Outcome.INCONCLUSIVE


def test_the_rule_comes_from_the_admin_settings() -> None:
    schema = build_schema()
    defaults = {name: schema[name].default for name in ("verdict.min_change", "verdict.spread_factor")}
    assert configured_rule(defaults.__getitem__) == VerdictRule(min_change=0.01, spread_factor=1.0)
    with pytest.raises(ValueError):
        schema["verdict.min_change"].parse("-0.5")
    with pytest.raises(ValueError):
        VerdictRule(min_change=float("nan"))
    with pytest.raises(ValueError):
        judge([], REFERENCE)
