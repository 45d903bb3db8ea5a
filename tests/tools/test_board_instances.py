"""Boards take their instance keys from the challenge registry, for every registered challenge (no second list in
tools/). Oracles: the registry's own entries (each walked), and hand-written runs whose instance is known."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from bot.cli import main
from engine.challenges import CHALLENGES, instance_params
from engine.challenges.ir_track import IRChallenge
from engine.challenges.sparse_tasks import TASKS
from storage.scores import ScoredRun
from tools.board import default_instance, instance_label, instance_of, requested_instance, split_by_board
from tools.errors import ToolError


def _score(run_id: int, challenge: str, params: dict[str, object]) -> ScoredRun:
    return ScoredRun(
        run_id, "ann", "fourier", "dmc@1", float(run_id), datetime(2026, 1, 1, tzinfo=UTC), "method", dict(params)
    )


def test_every_registered_challenge_has_its_instance_keys_from_the_registry() -> None:
    names = [*CHALLENGES.names(), "matmul_32x32"]  # a family member, built on demand
    for name in names:
        entry = CHALLENGES.get(name)
        keys = tuple(instance_params(name))
        standard = default_instance(name)
        assert tuple(key for key, _ in standard) == keys, name
        if isinstance(entry, IRChallenge) and entry.bands:  # mask sparse parity: a board per recovery band
            assert keys == ("band",) and standard == (("band", max(entry.bands)),), name
            continue
        if isinstance(entry, IRChallenge):
            assert keys == () and standard == (), name  # the name is the instance
            with pytest.raises(ToolError, match="'n' is not an instance parameter") as err:
                requested_instance(name, {"n": "20"}, ())
            assert "instance is in its name" in err.value.hint
            continue
        assert keys[:2] == ("n", "k") and dict(standard)["n"] == 20 and dict(standard)["k"] == 3, name
        # every instance key separates boards: a run off the standard on any one key is on another instance
        for key, value in standard:
            other = value + 1 if isinstance(value, int) else value / 2
            moved = instance_of(name, {key: other})
            assert moved != standard and dict(moved)[key] == other, (name, key)
            label = instance_label(moved)
            options = {key: str(other)}
            assert requested_instance(name, options, [standard, moved]) == moved, (name, label)
        with pytest.raises(ToolError, match="is not an instance parameter"):
            requested_instance(name, {"m": "500"}, [standard])


def test_the_sparse_tasks_own_problem_parameters_are_instance_keys() -> None:
    assert instance_params("threshold") == {"n": 20, "k": 3, "t": 2}
    assert instance_params("noisy_parity") == {"n": 20, "k": 3, "noise_rate": 0.1}
    assert instance_params("sparse_sum") == instance_params("sparse_parity") == {"n": 20, "k": 3}
    assert all(set(TASKS.get(t).instance_params) <= {"n", "k", "t", "noise_rate"} for t in TASKS.names())
    assert instance_params("no_such_challenge") == {}
    assert instance_label(instance_of("noisy_parity", {"noise_rate": 0.25, "n": 30})) == "n=30 k=3 noise_rate=0.25"


def test_sparse_sum_at_n20_and_n40_k5_are_separate_boards() -> None:
    runs = [
        _score(1, "sparse_sum", {"n": 20, "k": 3, "task": "sparse_sum"}),
        _score(2, "sparse_sum", {"n": 40, "k": 5, "task": "sparse_sum"}),
        _score(3, "sparse_sum", {"task": "sparse_sum"}),  # no n, k: the standard instance
    ]
    boards = split_by_board("sparse_sum", runs)
    assert {(b.instance_label, tuple(s.run_id for s in rows)) for b, rows in boards.items()} == {
        ("n=20 k=3", (1, 3)),
        ("n=40 k=5", (2,)),
    }


def test_a_bad_instance_value_is_one_line() -> None:
    stored = [default_instance("noisy_parity")]
    for options, words in (
        ({"n": "4.5"}, "n=4.5 is not a whole number"),
        ({"noise_rate": "lots"}, "noise_rate=lots is not a number"),
        ({"noise_rate": "0.3"}, "no results on noisy_parity n=20 k=3 noise_rate=0.3"),
    ):
        with pytest.raises(ToolError, match=words) as err:
            requested_instance("noisy_parity", options, stored)
        assert "\n" not in str(err.value) and "n=20 k=3 noise_rate=0.1" in err.value.hint


@pytest.mark.slow
def test_leaderboard_of_a_sparse_variant_at_another_instance() -> None:
    for args in (["seed=2"], ["n=40", "k=5", "seed=2"]):
        result = CliRunner().invoke(main, ["run", "sparse_sum", *args, "--json"])
        assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["leaderboard", "sparse_sum", "n=40", "k=5", "--json"])
    assert result.exit_code == 0, result.output
    boards = json.loads(result.output)["boards"]
    assert [(b["instance"], len(b["rows"])) for b in boards] == [({"n": 40, "k": 5}, 1)]
    standard = json.loads(CliRunner().invoke(main, ["leaderboard", "sparse_sum", "--json"]).output)["boards"]
    assert [(b["instance"], len(b["rows"])) for b in standard] == [({"n": 20, "k": 3}, 1)]
