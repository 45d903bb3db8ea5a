"""The sparse-parity IR challenges (docs/challenges.md#sparse-parity-ir-track): small, medium and medium_approx50 on v3
with 8-bit values.

Source: cybertronai/sutro-problems ``sparse-parity``. v3 instruction set on signed 8-bit values. Every scoring
draws fresh hidden instances from :mod:`secrets` (small: 64 instances covering all 3 secrets; medium: 8 instances
with 8 distinct secrets); tests pass a fixed seed list. Outputs are the predicted test labels (0/1). The
``medium_approx50`` variant passes an instance with ≥ 50% of its labels right.

Retired: the group replaced these tiers by mask sparse parity (n=32, k=5; :mod:`engine.challenges.mask_sparse_parity`)
on 2026-08-26 and moved them to ``sparse-parity/legacy.md``. They stay scoreable, marked retired with that date.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from engine.challenges.ir_track import IRChallenge, TestSet
from engine.challenges.sparse_parity_baseline import baseline_medium, baseline_small
from engine.challenges.sparse_parity_instances import MEDIUM, SMALL, Spec, hidden_seeds, instance
from engine.ir.instruction_set import INT8_V3

RETIRED_ON = "2026-08-26"
"""The day the group's mask tier replaced these (sutro-problems ``sparse-parity/legacy.md``)."""


def _test_set(spec: Spec, count: int, seeds: Sequence[int] | None = None) -> TestSet:
    chosen = list(seeds) if seeds is not None else hidden_seeds(spec, count)
    drawn = [instance(seed, spec) for seed in chosen]
    inputs = np.array([d[0] for d in drawn], dtype=np.int8).reshape(len(drawn), spec.n_inputs)
    expected = np.array([d[1] for d in drawn], dtype=np.int8).reshape(len(drawn), spec.m_test)
    return TestSet(inputs=inputs, expected=expected, seeds=chosen, hidden=True)


def _challenge(
    name: str, spec: Spec, count: int, threshold: float, generators: dict[str, Callable[[], str]], note: str
) -> IRChallenge:
    return IRChallenge(
        name=name,
        summary=f"sparse parity n={spec.n_bits} k={spec.k_secret} in v3 IR (8-bit), {count} hidden instances{note}",
        dialect=INT8_V3,
        n_inputs=spec.n_inputs,
        n_outputs=spec.m_test,
        inputs_what=(
            f"inputs: X_train ({spec.m_train}×{spec.n_bits}) row-major, y_train ({spec.m_train}), "
            f"X_test ({spec.m_test}×{spec.n_bits}) row-major"
        ),
        outputs_what=f"outputs: the {spec.m_test} predicted test labels (0/1)",
        test_set=partial(_test_set, spec, count),
        generators=generators,
        threshold=threshold,
        retired=RETIRED_ON,
    )


SPARSE_PARITY_SMALL = _challenge("sparse_parity_small", SMALL, 64, 1.0, {"baseline": baseline_small}, "")
SPARSE_PARITY_MEDIUM = _challenge("sparse_parity_medium", MEDIUM, 8, 1.0, {"baseline": baseline_medium}, "")
SPARSE_PARITY_MEDIUM_APPROX50 = _challenge(
    "sparse_parity_medium_approx50",
    MEDIUM,
    8,
    0.5,
    {"baseline": baseline_medium},
    ", ≥ 50% labels right each",
)
