"""rl: value-blind Q-learning finds the secret as the group reports (cybertronai/SutroYaro:docs/findings/exp_rl.md:
6 of 6 runs correct at n=10 and n=20, k=3, 500 rows; 56 and 211 states), within the episode limit; tracing changes
no numbers; the table has one row per set of fewer than k queried bits."""

from __future__ import annotations

import re
from math import comb

import numpy as np
import pytest

from engine.errors import BadParameter
from engine.methods import run_method
from engine.methods.rl import states
from tests.engine.method_checks import check_docstring, plain_outcome


def test_value_blind_states_are_the_sets_of_fewer_than_k_bits():
    # the group's counts: 56 states at n=10, 211 at n=20 (k=3): 1 + 10 + 45 and 1 + 20 + 190
    assert len(states(10, 3)) == 56 and len(states(20, 3)) == 211
    assert len(states(12, 4)) == sum(comb(12, j) for j in range(4))
    assert states(4, 2) == {(): 0, (0,): 1, (1,): 2, (2,): 3, (3,): 4}
    check_docstring("rl")


def _episodes(note: str | None) -> int:
    match = re.search(r"after ([\d,]+) episodes", note or "")
    assert match, note
    return int(match.group(1).replace(",", ""))


@pytest.mark.slow
@pytest.mark.parametrize("n", [10, 20])
def test_rl_finds_the_secret_like_the_group(n: int):
    for seed in range(3):
        result = run_method("rl", {"n": str(n), "seed": str(seed)})
        assert result.ok and result.found == result.secret, (n, seed, result.note)
        assert "fits every training row" in (result.note or "") and _episodes(result.note) <= 50_000
        assert result.metrics["dmc@1"] > 0 and result.metric_scopes["dmc@1"] == "whole run"


def test_tracing_changes_nothing():
    params = {"n": "10", "k": "3", "seed": "4", "m": "200"}
    traced = run_method("rl", params)
    plain, data = plain_outcome("rl", {"n": 10, "k": 3, "seed": 4, "m": 200})
    assert plain.secret == traced.found and plain.note == traced.note
    assert np.all(np.prod(data.x_train[:, traced.found], axis=1) == data.y_train)


def test_an_episode_limit_too_small_is_reported_and_the_cap_refused():
    result = run_method("rl", {"n": "20", "seed": "1", "episodes": "200"})
    assert not result.ok and "did not fit every training row after 200 episodes" in (result.failure or "")
    with pytest.raises(BadParameter) as err:
        run_method("rl", {"n": "100", "episodes": "200"})  # its own parameter named: past the defaults' reach
    assert "n=100 is above rl's limit of n ≤ 64" in err.value.one_line()
    with pytest.raises(BadParameter) as err:
        run_method("rl", {"n": "100"})  # at the defaults: the reach rule, naming an n that passes
    assert "rl's defaults do not solve n=100 k=3" in err.value.one_line() and "set n=20" in err.value.one_line()
