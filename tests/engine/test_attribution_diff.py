"""diff_attribution (engine/attribution/diff.py): rows matched by name, sorted by their part of the change, changes
adding up to the change of the totals, the 1 % "moved" threshold, and names found in one run only."""

from __future__ import annotations

import math

import pytest

from engine.attribution import ONE_STEP, WHOLE_RUN, ScopeAttribution, attribute_events
from engine.attribution.diff import MOVED, ONLY_A, ONLY_B, UNCHANGED, diff_attribution, explain, mover_lines


def table(events: list[tuple[str, str, int]], scope: str = ONE_STEP) -> ScopeAttribution:
    """Attribution of ``(kind, name, size)`` events, kind "w" or "r"; buffer ids in order of first use."""
    ids: dict[str, int] = {}
    for _, name, _ in events:
        ids.setdefault(name, len(ids))
    names = sorted(ids, key=ids.__getitem__)
    return attribute_events(
        [k == "w" for k, _, _ in events], [ids[n] for _, n, _ in events], [s for _, _, s in events], names, scope
    )


# docs/metrics.md worked example A: ard = 15/4 (a: 1·3 + 1·6, b: 2·3)
A = [("w", "a", 1), ("w", "b", 2), ("r", "a", 1), ("r", "b", 2), ("r", "a", 1)]
# b read first now (distance 2 instead of 3), a's reads at 5 and 6; c is new and read at distance 1
B = [("w", "a", 1), ("w", "b", 2), ("r", "b", 2), ("r", "a", 1), ("r", "a", 1), ("w", "c", 1), ("r", "c", 1)]


def test_rows_explain_the_change_of_the_totals() -> None:
    a, b = table(A), table(B)
    assert a.metrics["ard@1"] == 15 / 4
    diff = diff_attribution(a, b)
    by_name = {r.name: r for r in diff.rows}
    # by hand: B's floats = 5; a: 1·5 + 1·6 = 11 → 11/5, b: 2·2 = 4 → 4/5, c: 1·1 → 1/5; total 16/5
    assert diff.total_b == 16 / 5
    assert by_name["a"].change == pytest.approx(11 / 5 - 9 / 4)
    assert by_name["b"].change == pytest.approx(4 / 5 - 6 / 4)
    assert by_name["c"].change == pytest.approx(1 / 5) and by_name["c"].verdict == ONLY_B and by_name["c"].a is None
    assert math.fsum(r.change for r in diff.rows) == pytest.approx(diff.change, rel=1e-12)
    assert math.fsum(r.share_of_change for r in diff.rows) == pytest.approx(1.0, rel=1e-12)
    assert [r.name for r in diff.rows] == ["b", "c", "a"]  # |−0.7| > |0.2| > |−0.05|
    assert by_name["a"].verdict == by_name["b"].verdict == MOVED  # 0.05 ≥ 1 % of 15/4
    assert diff.moved_floats_share == 1.0 and diff.unmatched() == [by_name["c"]]
    assert mover_lines(diff, top=1) == ["b: distance 3 → 2; ard@1 -0.7 (127% of the change)"]


def test_a_change_below_one_percent_of_the_total_is_unchanged() -> None:
    base = [("w", "big", 1000), ("w", "small", 1), ("r", "big", 1000), ("r", "small", 1)]
    later = [("w", "big", 1000), ("w", "small", 1), ("w", "pad", 1), ("r", "big", 1000), ("r", "small", 1)]
    diff = diff_attribution(table(base), table(later))
    by_name = {r.name: r for r in diff.rows}
    # big's distance 1001 → 1002 changes ard by 1000/1001 ≈ 0.1 % of 1001: unchanged
    assert by_name["big"].verdict == UNCHANGED and by_name["big"].a is not None
    assert "pad" not in by_name  # written, never read: no row in either run
    assert explain(diff) == "no buffer moved by 1% of ard@1 or more"
    assert diff.moved_floats_share == 0.0


def test_names_in_one_run_only_are_listed() -> None:
    diff = diff_attribution(table([("w", "p", 2), ("r", "p", 2)]), table([("w", "q", 2), ("r", "q", 2)]))
    assert {(r.name, r.verdict) for r in diff.rows} == {("p", ONLY_A), ("q", ONLY_B)}
    assert diff.moved() == []


def test_scopes_must_agree() -> None:
    with pytest.raises(ValueError, match="scope"):
        diff_attribution(table(A, ONE_STEP), table(A, WHOLE_RUN))
