"""The verdict rule (bot/core/verdict.py, docs/verdicts.md) on hand-worked log costs.

Every figure below is worked out in the comments with ln 2 = 0.693147 and ln 10 = 2.302585. The sample standard
deviation is s = sqrt(Σ(x − mean)² / (n − 1)); for three logs spaced d apart (ln a − d, ln a, ln a + d) it is
sqrt(2d² / 2) = d, so [50, 100, 200] has a log spread of ln 2 and [1, 10, 100] one of ln 10.
"""

from __future__ import annotations

import math

import pytest

from bot.core.verdict import LINEAR, LOG, Outcome, VerdictRule, configured_rule, is_paired, judge, spread_of
from tools.config.schema import build_schema

LN2, LN10 = 0.693147, 2.302585


def test_spread_is_the_sample_standard_deviation() -> None:
    # [98, 100, 102]: mean 100; deviations −2, 0, 2 → Σ² = 8 → s² = 8/2 = 4 → s = 2
    assert spread_of([98.0, 100.0, 102.0]) == pytest.approx(2.0)
    assert spread_of([7.0]) == 0.0


def test_a_ratio_beyond_the_log_spread_is_a_win() -> None:
    # candidate [50, 100, 200]: logs ln 100 − ln 2, ln 100, ln 100 + ln 2 → geometric mean 100, log spread ln 2;
    # reference [400] × 3: geometric mean 400, no spread. change = ln 400 − ln 100 = ln 4 = 1.386294;
    # margin = max(1.0 × ln 2, ln 1.01 = 0.00995) = ln 2 = 0.693; 1.386 > 0.693 → WIN: the geometric means are 4×
    # apart. The figures shown are the arithmetic means, (50 + 100 + 200) / 3 = 116.67 against 400: −70.8 %
    v = judge([50.0, 100.0, 200.0], [400.0] * 3)
    assert (v.outcome, v.scale, v.paired) == (Outcome.WIN, LOG, False)
    assert (v.candidate_mean, v.reference_mean) == pytest.approx((350 / 3, 400.0))
    assert (v.change, v.spread, v.margin) == pytest.approx((2 * LN2, LN2, LN2), abs=1e-6)
    assert v.relative == pytest.approx(1 - 350 / 1200)
    assert v.geometric_ratio == pytest.approx(0.25)


def test_a_ratio_inside_the_log_spread_is_inconclusive() -> None:
    # candidate [25, 100, 400]: logs spaced ln 4 apart → log spread ln 4 = 1.386294, geometric mean 100;
    # reference [200] × 3. change = ln 2 = 0.693 < margin ln 4 → INCONCLUSIVE
    v = judge([25.0, 100.0, 400.0], [200.0] * 3)
    assert v.outcome is Outcome.INCONCLUSIVE
    assert v.margin == pytest.approx(2 * LN2, abs=1e-6)
    # the admins' spread factor 0.4: margin = max(0.4 × 1.386 = 0.5545, 0.00995); 0.693 > 0.5545 → WIN
    assert judge([25.0, 100.0, 400.0], [200.0] * 3, rule=VerdictRule(spread_factor=0.4)).outcome is Outcome.WIN


def test_paired_seeds_read_the_spread_of_the_per_seed_ratios() -> None:
    # candidate [1, 10, 100] and reference [2, 20, 200] on the same three seeds: each seed's log-ratio is ln 2, so
    # the paired spread is 0 and the margin is ln 1.01 = 0.00995; change ln 2 = 0.693 → WIN, 2× cheaper.
    paired = judge([1.0, 10.0, 100.0], [2.0, 20.0, 200.0], paired=True)
    assert (paired.outcome, paired.paired) == (Outcome.WIN, True)
    assert paired.spread == pytest.approx(0.0, abs=1e-12)
    assert paired.change == pytest.approx(LN2, abs=1e-6)
    assert (paired.candidate_mean, paired.reference_mean) == pytest.approx((37.0, 74.0))  # 111 / 3, 222 / 3
    assert paired.geometric_ratio == pytest.approx(0.5)
    assert paired.margin == pytest.approx(math.log(1.01))
    # unpaired (different seeds), the same values: each side's log spread is ln 10 = 2.303 > ln 2 → INCONCLUSIVE
    unpaired = judge([1.0, 10.0, 100.0], [2.0, 20.0, 200.0])
    assert (unpaired.outcome, unpaired.paired) == (Outcome.INCONCLUSIVE, False)
    assert unpaired.spread == pytest.approx(LN10, abs=1e-6)


def test_paired_ratios_that_vary_from_seed_to_seed() -> None:
    # candidate [1, 10, 100], reference [2, 40, 200]: log-ratios ln 2, ln 4 = 2 ln 2, ln 2; mean (4/3) ln 2 = 0.924196;
    # deviations −(1/3) ln 2, (2/3) ln 2, −(1/3) ln 2 → Σ² = (6/9) ln²2 → s² = (1/3) ln²2 → s = ln 2 / √3 = 0.400189.
    # 0.924 > 0.400 → WIN
    v = judge([1.0, 10.0, 100.0], [2.0, 40.0, 200.0], paired=True)
    assert v.outcome is Outcome.WIN
    assert (v.change, v.spread) == pytest.approx((4 / 3 * LN2, LN2 / math.sqrt(3)), abs=1e-6)


def test_two_hundred_times_cheaper_on_every_seed_is_a_win() -> None:
    # the "INCONCLUSIVE … 188× cheaper (spread ±132 %)": candidate [1, 10, 100] against [200, 2000, 20000].
    # The linear rule read the reference's standard deviation, 10,949 (deviations −7,200, −5,400, 12,600 from 7,400),
    # against a change of 7,363 → INCONCLUSIVE. On log costs: paired log-ratios all ln 200 = 5.298 (spread 0) → WIN;
    # unpaired, the log spread ln 10 = 2.303 < 5.298 → WIN as well.
    assert judge([1.0, 10.0, 100.0], [200.0, 2000.0, 20000.0], paired=True).outcome is Outcome.WIN
    v = judge([1.0, 10.0, 100.0], [200.0, 2000.0, 20000.0])
    assert v.outcome is Outcome.WIN
    assert v.geometric_ratio == pytest.approx(1 / 200)
    assert v.relative == pytest.approx(1 - 37 / 7400)  # the means shown: 37 against 7,400, 200× cheaper


def test_costlier_beyond_the_margin_is_a_loss() -> None:
    # candidate [200, 400, 800] (geometric mean 400, log spread ln 2) against [100] × 3: change = ln 100 − ln 400 =
    # −ln 4 = −1.386 < −0.693 → LOSS
    assert judge([200.0, 400.0, 800.0], [100.0] * 3).outcome is Outcome.LOSS


def test_a_candidate_failing_accuracy_is_a_loss_even_when_cheaper() -> None:
    v = judge([50.0, 50.0, 50.0], [400.0] * 3, candidate_passed=False)
    assert v.outcome is Outcome.LOSS
    assert "accuracy" in v.reason


def test_deterministic_values_compare_exactly_with_only_the_minimum_size() -> None:
    # sutro-problems matmul 16×16: 66,707 against the previous record 67,821: ln(67,821 / 66,707) = ln 1.016700 =
    # 0.016562 > ln 1.01 = 0.009950 → WIN
    assert judge([66707.0], [67821.0]).outcome is Outcome.WIN
    # 67,821 against 67,834: ln(67,834 / 67,821) = 0.000192 < 0.00995 → INCONCLUSIVE
    assert judge([67821.0], [67834.0]).outcome is Outcome.INCONCLUSIVE
    # with no minimum size the exact comparison decides: 13 cheaper → WIN; an equal value is never a win
    exact = VerdictRule(min_change=0.0)
    assert judge([67821.0], [67834.0], rule=exact).outcome is Outcome.WIN
    assert judge([67821.0], [67821.0], rule=exact).outcome is Outcome.INCONCLUSIVE


def test_one_seed_half_a_percent_better_is_not_a_win() -> None:
    # 995 vs 1000 on one seed: ln(1000 / 995) = 0.005013 < ln 1.01 → INCONCLUSIVE
    assert judge([995.0], [1000.0]).outcome is Outcome.INCONCLUSIVE


def test_a_value_that_is_not_positive_is_judged_on_the_linear_scale() -> None:
    # candidate [0, 1, 2] (a cost of 0 has no logarithm): arithmetic mean 1, s = 1; reference [10] × 3.
    # change = 10 − 1 = 9; margin = max(1.0 × 1, 0.01 × 10) = 1 → WIN, on the linear scale, never paired
    v = judge([0.0, 1.0, 2.0], [10.0] * 3, paired=True)
    assert (v.outcome, v.scale, v.paired) == (Outcome.WIN, LINEAR, False)
    assert (v.change, v.margin) == pytest.approx((9.0, 1.0))
    assert v.geometric_ratio is None


def test_pairing_needs_the_same_seeds_in_the_same_order() -> None:
    values = [1.0, 2.0, 3.0]
    assert is_paired(("42", "123", "456"), ("42", "123", "456"), values, values)
    assert not is_paired(("42", "123", "456"), ("0", "1", "2"), values, values)
    assert not is_paired(("42", "123", "456"), ("123", "42", "456"), values, values)
    assert not is_paired(("42",), ("42",), [1.0], [1.0])  # one seed: nothing to pair
    assert not is_paired(("42", "123", "456"), ("42", "123", "456"), values, [1.0])  # one value: a mean
    with pytest.raises(ValueError, match="one value per seed"):
        judge([1.0, 2.0], [1.0], paired=True)


def test_the_rule_comes_from_the_admin_settings() -> None:
    schema = build_schema()
    defaults = {name: schema[name].default for name in ("verdict.min_change", "verdict.spread_factor")}
    assert configured_rule(defaults.__getitem__) == VerdictRule(min_change=0.01, spread_factor=1.0)
    with pytest.raises(ValueError):
        schema["verdict.min_change"].parse("-0.5")
    with pytest.raises(ValueError):
        VerdictRule(min_change=float("nan"))
    with pytest.raises(ValueError):
        judge([], [1.0])
