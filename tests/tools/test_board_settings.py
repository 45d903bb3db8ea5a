"""What differs between two results' settings, in one line: instance, track, seeds, metric version (pure), and the
line on a leaderboard whose entries were measured on different seed sets. Oracles: the settings are written by
hand, so the expected line is known."""

from __future__ import annotations

from datetime import UTC, datetime

from storage.scores import ScoredRun
from tools.board import mixed_seeds_note, seeds_of, setting_of, what_differs

N20 = {"n": 20, "k": 3}


def test_like_for_like_says_nothing() -> None:
    a = setting_of("sparse_parity", "method", "sgd", {**N20, "seeds": [1, 2]}, [1, 2], ["dmc@1"])
    b = setting_of("sparse_parity", "method", "local_update", {**N20, "seeds": [1, 2]}, [1, 2], ["dmc@1", "ard@1"])
    assert what_differs(a, b) == ""


def test_each_difference_is_named_once_in_one_line() -> None:
    a = setting_of("sparse_parity", "method", "sgd", {**N20, "seeds": [42, 123, 456]}, [42, 123, 456], ["dmc@1"])
    b = setting_of("sparse_parity", "method", "gf2", {"n": 30, "k": 4, "seed": 7}, [7], ["dmc@2"])
    assert what_differs(a, b) == (
        "not like for like: instance n=20 k=3 vs n=30 k=4; track training vs solver; seeds 42,123,456 vs 7; "
        "metric dmc@1 vs dmc@2"
    )


def test_programs_are_deterministic_so_their_seeds_do_not_count() -> None:
    a = setting_of("matmul_4x4", "ir", "mine", {}, [0], ["dally@1"])
    b = setting_of("matmul_4x4", "generate", "tiled", {}, [5], ["dally@1"])
    assert what_differs(a, b) == ""


def _score(run_id: int, params: dict[str, object]) -> ScoredRun:
    return ScoredRun(run_id, "ann", "sgd", "dmc@1", 1.0, datetime(2026, 1, 1, tzinfo=UTC), "method", dict(params))


def test_a_board_with_several_seed_sets_says_so() -> None:
    one_set = [_score(1, {"seeds": [42, 123, 456]}), _score(2, {"seeds": [42, 123, 456]})]
    assert mixed_seeds_note(one_set) == ""
    mixed = [*one_set, _score(3, {"seed": 7}), _score(4, {"seeds": [42, 123, 456]})]
    assert mixed_seeds_note(mixed) == "not like for like: seeds 42,123,456 (3 entries), 7 (1 entry)"
    assert seeds_of({"seed": 0}) == (0,) and seeds_of({}) == ()
