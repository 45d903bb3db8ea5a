"""``curriculum``: n-curriculum — train the ``sgd`` network on the first n0 bits, then widen W1 stage by stage.

Idea: finding the secret is the hard part and it is cheap at small n, so train on the first ``n0`` input columns
until the rows are fitted, then append ``grow`` columns to W1 (trained columns kept, new columns drawn small:
0.1 × He scale) and continue on the wider input, until the full n. The feature detector on the secret bits carries
over, so each widening stage fits in about one epoch. The group's instances place the secret inside the first
stage (the secret is drawn among the first ``n0`` bits); this method uses the same instances and says so on the
card. The group measured n-curriculum 10→30→50 at k=3 solving n=50 in 20 epochs in all (98.5 % test) against 292
epochs for direct training (95.5 %), 14.6× fewer epochs; 10→20 reached 100 % in 19 epochs against 33.

Parameters: the ``sgd`` ones (hidden units, lr, wd, batch rows, epochs per stage, m rows), ``n0`` (bits of the
first stage, default 10) and ``grow`` (bits added per stage, default 20: 10→20 at n=20, 10→30→50 at n=50).
Source: cybertronai/SutroYaro ``src/sparse_parity/experiments/exp_curriculum.py`` and
``SutroYaro:docs/findings/exp_curriculum.md``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from engine.challenges.sparse_parity import SparseParityData, make_instance
from engine.errors import BadParameter
from engine.methods.method import Method, Outcome, Problem
from engine.methods.mlp import STOP_MARGIN, Fit, Params, fit, init, outcome
from engine.methods.sgd import DEFAULTS as SGD_DEFAULTS
from engine.methods.sgd import sgd_step

DEFAULTS = {**SGD_DEFAULTS, "n0": 10, "grow": 20}
NEW_COLUMN_SCALE = 0.1
"""New W1 columns are drawn at this fraction of the He scale √(2/n), so they barely disturb the trained detector."""

EARLY_MARGIN = 0.0
"""Stages before the last stop once every row has the right sign (the group stops a stage at 95 % test accuracy):
the detector only has to be found, not polished, before the input widens."""


def stages(n: int, n0: int, grow: int) -> list[int]:
    """Input widths of the stages: n0, n0 + grow, … and finally n (n0 ≤ n)."""
    return [*range(n0, n, grow), n]


def curriculum_instance(values: Mapping[str, int | float]) -> SparseParityData:
    """The group's curriculum instance: the usual draw, with the secret among the first ``n0`` bits."""
    n, k, n0 = int(values["n"]), int(values["k"]), int(values["n0"])
    if not k <= n0 <= n:
        raise BadParameter(f"n0={n0} must lie in [k={k}, n={n}]", hint="n0 is the first stage's width; try n0=10")
    return make_instance(n, k, int(values["m"]), int(values["seed"]), secret_among=n0)


def widen(p: Params, new_columns: int, rng: object, width: int) -> None:
    """Append ``new_columns`` small random columns to W1 (in place in the parameter list)."""
    hidden = p[0].shape[0]
    fresh = rng.randn(hidden, new_columns) * (NEW_COLUMN_SCALE * np.sqrt(2.0 / width))  # type: ignore[attr-defined]
    p[0] = np.hstack([p[0], fresh])


def run(problem: Problem) -> Outcome:
    prm = problem.params
    widths = stages(problem.n, int(prm["n0"]), int(prm["grow"]))
    p = init(widths[0], int(prm["hidden"]), problem.rng)
    steps = epochs = 0
    done = Fit(steps=0, epochs=0, first=p)
    for i, width in enumerate(widths):
        if i:
            widen(p, width - widths[i - 1], problem.rng, width)
        x = problem.x[:, :width] if width < problem.n else problem.x
        last = i == len(widths) - 1
        margin = STOP_MARGIN if last else EARLY_MARGIN
        done = fit(problem, x, problem.y, p, sgd_step, int(prm["epochs"]), margin)
        steps, epochs = steps + done.steps, epochs + done.epochs
        if done.note:
            break
    stage_line = "→".join(str(w) for w in widths)
    result = outcome(problem, p, sgd_step, Fit(steps=steps, epochs=epochs, first=done.first, note=done.note))
    result.note = (
        f"stages n = {stage_line}; the secret was drawn among the first {widths[0]} bits (the group's setup)"
        + (f"; {done.note}" if done.note else "")
    )
    return result


METHOD = Method(
    name="curriculum",
    summary="n-curriculum: train sgd on the first n0 bits, then widen W1 stage by stage to n",
    kind="training",
    run=run,
    defaults=DEFAULTS,
    instance=curriculum_instance,
)
