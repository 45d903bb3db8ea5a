"""genetic_prog: trees reduce to ±Π x_S (checked against direct evaluation, and on the group's published programs,
cybertronai/SutroYaro:docs/findings/exp_genetic_prog.md), a solved run names the secret, tracing changes nothing,
and it fails where the group's failed (n=20, k=5). The group solved n=20, k=3 on 3 of 3 seeds; this one solves 4 of
seeds 0-7 (the module docstring), so the solving test names a seed that solves rather than claiming every seed."""

from __future__ import annotations

import numpy as np
import pytest

from engine.methods import run_method
from engine.methods.genetic_prog import Form, canonical, random_tree, show
from tests.engine.method_checks import check_docstring, plain_outcome


def _evaluate(tree: tuple, x: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    op = tree[0]
    if op == "x":
        return x[:, tree[1]]
    if op == "c":
        return np.full(x.shape[0], tree[1])
    if op == "mul":
        return _evaluate(tree[1], x) * _evaluate(tree[2], x)
    inner = _evaluate(tree[1], x)
    return -inner if op == "neg" else np.sign(inner)


def test_the_groups_programs_reduce_to_their_secrets():
    # seed 43's program uses x[18]·x[18] = 1; seed 44's wraps a product in sign
    p43 = ("mul", ("mul", ("x", 19), ("mul", ("mul", ("x", 18), ("x", 18)), ("x", 6))), ("x", 9))
    p44 = ("mul", ("sign", ("mul", ("x", 9), ("x", 14))), ("x", 15))
    assert canonical(p43) == Form(1.0, frozenset({6, 9, 19})) and canonical(p44) == Form(1.0, frozenset({9, 14, 15}))
    assert show(p44) == "mul(sign(mul(x[9], x[14])), x[15])"
    assert canonical(("neg", ("mul", ("c", -1.0), ("x", 2)))) == Form(1.0, frozenset({2}))
    check_docstring("genetic_prog")


def test_canonical_forms_agree_with_direct_evaluation():
    rng = np.random.RandomState(0)
    x = rng.choice([-1.0, 1.0], size=(64, 12))
    for i in range(300):
        tree = random_tree(12, 2 + i % 5, bool(i % 2), rng)
        form = canonical(tree)
        product = np.prod(x[:, sorted(form.bits)], axis=1) if form.bits else np.ones(64)
        assert np.array_equal(_evaluate(tree, x), form.sign * product), show(tree)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [123, 456])
def test_the_groups_seed_set_is_solved(seed: int) -> None:
    result = run_method("genetic_prog", {"seed": str(seed)})
    assert result.ok and result.accuracy == 1.0 and result.found == result.secret


@pytest.mark.slow
def test_a_solved_run_names_the_secret_and_tracing_changes_nothing():
    result = run_method("genetic_prog", {"seed": "42"})
    assert result.ok and result.found == result.secret and "fits every training row" in (result.note or "")
    plain, _ = plain_outcome("genetic_prog", {"seed": 42})
    assert plain.secret == result.found and plain.note == result.note


@pytest.mark.slow
def test_it_fails_where_the_group_failed():
    result = run_method("genetic_prog", {"n": "20", "k": "5", "m": "2000", "epochs": "40", "seed": "1"})
    assert not result.ok and "no tree fits every training row after 40 generations" in (result.failure or "")
