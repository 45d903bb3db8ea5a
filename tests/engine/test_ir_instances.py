"""Hidden-instance generation (docs/challenges.md#hidden-instances, docs/challenges.md#symmetry-ir-track) equals the
plain definition, written here as the oracle."""

from __future__ import annotations

import math
from itertools import combinations
from random import Random

import numpy as np
import pytest

from engine.challenges import CHALLENGES
from engine.challenges.sparse_parity_instances import MEDIUM, SMALL, Spec, choice_bits, hidden_seeds, instance


def plain_instance(seed: int, spec: Spec) -> tuple[list[int], list[int]]:
    """docs/challenges.md#hidden-instances word for word: Random(seed), sample the secret, redraw X_train until
    identifiable."""
    rng = Random(seed)
    secret = sorted(rng.sample(range(spec.n_bits), spec.k_secret))

    def parity(row: list[int], subset) -> int:  # type: ignore[no-untyped-def]
        return sum(row[j] for j in subset) % 2

    while True:
        x_train = [[rng.choice((0, 1)) for _ in range(spec.n_bits)] for _ in range(spec.m_train)]
        y_train = [parity(r, secret) for r in x_train]
        fits = [
            s
            for s in combinations(range(spec.n_bits), spec.k_secret)
            if all(parity(r, s) == y for r, y in zip(x_train, y_train, strict=True))
        ]
        if len(fits) == 1:
            break
    x_test = [[rng.choice((0, 1)) for _ in range(spec.n_bits)] for _ in range(spec.m_test)]
    inputs = [v for r in x_train for v in r] + y_train + [v for r in x_test for v in r]
    return inputs, [parity(r, secret) for r in x_test]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**255 + 12345, 987654321987654321])
def test_choice_bits_equal_rng_choice(seed: int) -> None:
    rng = Random(seed)
    rng.random()  # any prior use of the generator
    probe = Random()
    probe.setstate(rng.getstate())
    want = [probe.choice((0, 1)) for _ in range(1000)]
    assert choice_bits(rng, 1000).tolist() == want


@pytest.mark.parametrize("spec", [SMALL, MEDIUM])
@pytest.mark.parametrize("seed", [3, 77, 2**200 + 1])
def test_instance_equals_plain_definition(spec: Spec, seed: int) -> None:
    inputs, labels, _ = instance(seed, spec)
    want_inputs, want_labels = plain_instance(seed, spec)
    assert inputs.tolist() == want_inputs
    assert labels.tolist() == want_labels


@pytest.mark.parametrize(("spec", "count"), [(SMALL, 64), (MEDIUM, 8)])
def test_hidden_seeds_cover_distinct_secrets(spec: Spec, count: int) -> None:
    seeds = hidden_seeds(spec, count)
    assert len(seeds) == count == len(set(seeds))
    assert all(0 <= s < 2**256 for s in seeds)
    secrets_ = {tuple(sorted(Random(s).sample(range(spec.n_bits), spec.k_secret))) for s in seeds}
    assert len(secrets_) == min(count, math.comb(spec.n_bits, spec.k_secret))


def test_hidden_instances_are_fresh_each_scoring() -> None:
    challenge = CHALLENGES.get("sparse_parity_medium")
    a, b = challenge.test_set(None), challenge.test_set(None)  # type: ignore[attr-defined]
    assert a.hidden and set(a.seeds).isdisjoint(b.seeds)


def test_symmetry_tests_every_pattern() -> None:
    tests = CHALLENGES.get("symmetry_eight").test_set(None)  # type: ignore[attr-defined]
    assert tests.inputs.shape == (256, 8)
    assert len({tuple(r) for r in tests.inputs.tolist()}) == 256
    assert int(tests.expected.sum()) == 16  # 2**4 palindromes of 8 bits
    assert np.array_equal(tests.inputs[5], [1, 0, 1, 0, 0, 0, 0, 0])  # bit i of the code is input i


def test_matmul_test_data() -> None:
    tests = CHALLENGES.get("matmul_1x1").test_set(None)  # type: ignore[attr-defined]
    assert tests.inputs.tolist() == [[1, 3]] and tests.expected.tolist() == [[3]]
    four = CHALLENGES.get("matmul_4x4").test_set(None)  # type: ignore[attr-defined]
    # C[0][0] = Σ_k A[0][k]·B[k][0] = 1·3 + 2·4 + 3·5 + 4·6 = 50
    assert four.expected[0, 0] == 50 and four.inputs.shape == (1, 32)
