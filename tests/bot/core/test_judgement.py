"""The rules of a result's one verdict (bot/core/judgement.py) and its words, each with a hand-worked oracle.

Default rule: on log costs, margin = max(1.0 × the log spread, ln 1.01) (docs/verdicts.md).
"""

from __future__ import annotations

import statistics

from bot.core.judgement import Judgement, judgement_data, judgement_from, swamped
from bot.core.judgement_words import judgement_lines, judgement_summary, record_words
from bot.core.verdict import DEFAULT_RULE, Outcome, judge
from tools.metric_format import format_factor, format_relative_change, percent_needed, ratio_words

BOARD = "sparse_parity n=20 k=3 · submission · dmc@1"


def _judged(values: list[float], *, baseline: list[float] | None, record: list[float] | None) -> Judgement:
    mean = statistics.fmean(values)
    return Judgement(
        "dmc@1",
        BOARD,
        True,
        mean,
        baseline=None if baseline is None else "best built-in solver gf2 (#1)",
        versus_baseline=None if baseline is None else judge(values, baseline),
        record=None if record is None else statistics.fmean(record),
        record_label="" if record is None else "#2",
        versus_record=None if record is None else judge(values, record),
    )


def test_a_win_over_the_record_that_loses_to_the_baseline_is_not_a_record() -> None:
    # the case: the only earlier entry is the member's own brute force (9,000); the GF(2) solve() costs
    # 1,200 — a WIN over it (change 7,800 > margin 90) — but the built-in gf2 costs 200: change −1,000, margin 2 →
    # a LOSS against the baseline, so no record; 1,200 / 200 = 6.0 → "6.0× cheaper"
    j = _judged([1200.0], baseline=[200.0], record=[9000.0])
    assert j.versus_record is not None and j.versus_record.outcome is Outcome.WIN
    assert j.loses_to_baseline and j.beats_record and not j.new_record
    line = record_words(j)
    assert line == (
        f"dmc@1 1,200: best on {BOARD} so far, not a record: best built-in solver gf2 (#1), the baseline, "
        "is 6.0× cheaper"
    )
    assert "new record" not in " ".join(judgement_lines(j)) and "WIN —" not in " ".join(judgement_lines(j))
    assert judgement_summary(j).endswith("best on its board so far, not a record")
    # the headline outcome is the baseline's: LOSS, never a WIN from the record
    assert j.outcome is Outcome.LOSS


def test_a_win_over_the_record_that_does_not_lose_to_the_baseline_is_a_new_record() -> None:
    # 66,707 against the record 66,720: change 13 = 0.019 % < 1 % → INCONCLUSIVE, not a record; 65,000: change
    # 1,720 = 2.6 % > 1 % → WIN, and against the baseline 340,704 a WIN → new record
    close = _judged([66707.0], baseline=[340704.0], record=[66720.0])
    assert not close.new_record and close.versus_record is not None
    assert close.versus_record.outcome is Outcome.INCONCLUSIVE
    assert record_words(close) == f"INCONCLUSIVE — dmc@1 66,707: −0.019 % vs the record on {BOARD} (#2)"
    win = _judged([65000.0], baseline=[340704.0], record=[66720.0])
    assert win.new_record
    assert record_words(win) == f"WIN — dmc@1 65,000: new record on {BOARD}, −2.6 % vs the previous one (#2)"


def test_the_first_result_on_a_board_says_so_and_a_failed_run_has_no_verdict() -> None:
    first = _judged([500.0], baseline=[100.0], record=None)
    assert first.first_on_board and not first.new_record
    assert record_words(first) == (
        f"dmc@1 500: first result on {BOARD}, not a record: best built-in solver gf2 (#1), the baseline, is 5.0× "
        "cheaper"
    )
    failed = Judgement("dmc@1", BOARD, False, None, failure="mean accuracy 0.530 on hidden test rows is below 0.95")
    assert failed.outcome is None and not failed.new_record and not failed.first_on_board
    assert judgement_lines(failed) == [
        "FAILED — mean accuracy 0.530 on hidden test rows is below 0.95: not a result (no verdict, not on any board)"
    ]


def test_spreads_that_swamp_a_comparison_are_said_in_words() -> None:
    # log costs: candidate 50, 100, 200 (geometric mean 100, log spread ln 2 = 0.693, a factor of 2.0) against 103:
    # change ln 1.03 = 0.0296 is above the 1 % minimum (ln 1.01 = 0.00995) but within the spread → INCONCLUSIVE
    # because of the spread; the change shown is the arithmetic means', (116.67 − 103) / 103 = +13.3 %
    v = judge([50.0, 100.0, 200.0], [103.0])
    assert v.outcome is Outcome.INCONCLUSIVE
    assert swamped(v, DEFAULT_RULE) == "spread ×/÷2.0 swamps the change (+13.3 %)"
    # paired: candidate 1, 10, 100 against 2, 5, 200 on the same seeds: log-ratios ln 2, −ln 2, ln 2, mean ln 2 / 3
    # = 0.231; deviations (2/3) ln 2, −(4/3) ln 2, (2/3) ln 2 → Σ² = (24/9) ln²2 → s = (2/√3) ln 2 = 0.800, a factor
    # e^0.800 = 2.2 → INCONCLUSIVE; the means shown: 111 / 3 = 37 against 207 / 3 = 69, (37 − 69) / 69 = −46.4 %
    v = judge([1.0, 10.0, 100.0], [2.0, 5.0, 200.0], paired=True)
    assert v.outcome is Outcome.INCONCLUSIVE
    assert swamped(v, DEFAULT_RULE) == "spread of the per-seed ratios ×/÷2.2 swamps the change (−46.4 %)"
    # the linear scale (a cost of 0 has no log): reference 0, 100, 200: mean 100, s = 100 ≥ its mean, so no
    # cheaper candidate can win: 1 vs it → change 99 < margin 100 → INCONCLUSIVE whatever the mean; the spread is
    # 100 / max(100, 1) = 100 %
    v = judge([1.0], [0.0, 100.0, 200.0])
    assert v.outcome is Outcome.INCONCLUSIVE and v.spread == 100.0
    assert swamped(v, DEFAULT_RULE) == "spread ±100 %: INCONCLUSIVE whatever the mean"
    # a change inside the 1 % minimum with no spread is plain INCONCLUSIVE: nothing to say about spread
    assert swamped(judge([100.0], [100.5]), DEFAULT_RULE) == ""
    # a WIN is never "swamped"
    assert swamped(judge([50.0, 51.0], [100.0, 101.0]), DEFAULT_RULE) == ""


def test_changes_beyond_a_factor_two_read_as_ratios_with_their_precision() -> None:
    # the figures: +66,442.4 % is 665.424× → "665× costlier"; a 2×10⁵-fold cut printed "−100.0 %"
    assert format_relative_change(665.424, 1.0) == "665× costlier"
    assert format_relative_change(1.0, 2.1e5) == "2.1×10⁵× cheaper"
    assert format_relative_change(1.0, 230.0) == "230× cheaper"
    assert format_factor(18.4) == "18×" and format_factor(2.55) == "2.5×" and format_factor(12345.0) == "1.2×10⁴×"
    # a 13-unit record on 66,720 is 0.0195 %: one decimal would say 0.0, two significant digits say 0.019
    assert percent_needed(-13 / 66720) == "−0.019 %"
    assert format_relative_change(99.54, 100.0) == "−0.5 %"
    assert format_relative_change(150.0, 100.0) == "+50.0 %"  # below a factor 2: a percentage
    assert ratio_words(0.0, 100.0) is None and format_relative_change(0.0, 100.0) == "−100.0 %"  # zero: exact


def test_a_stored_judgement_reads_back_the_same() -> None:
    j = _judged([90.0, 100.0, 110.0], baseline=[103.0, 104.0, 105.0], record=[120.0])
    again = judgement_from(judgement_data(j))
    assert again == j
    data = judgement_data(j)
    assert data["outcome"] == j.outcome.value if j.outcome else data["outcome"] is None
    assert data["new_record"] is j.new_record and data["first_on_board"] is False
