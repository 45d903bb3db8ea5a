"""The baseline a stored result is compared with ("vs baseline" on result cards and sprint-log tables).

- IR challenges: the challenge's built-in ``baseline`` generator program, priced by the engine (deterministic: the
  Dally cost depends only on the program, so it is computed once per process and cached). These reproduce the
  published baselines (docs/challenges.md#published-figures: matmul 4×4 1,316, 16×16 340,704; sparse parity small 6,918,
  medium 816,251).
- The numpy sparse-parity track: the group's baseline training method, ``sgd``, run with the *same* parameters
  (n, k, seed, …) — the latest such stored run; none when sgd was never run with those parameters.
- Anything else (a ``solve()`` submission): no baseline, and the column stays empty.
"""

from __future__ import annotations

import functools

from sqlmodel import Session, col, select

from engine.errors import EngineError
from engine.ir.scoring import ir_challenge, ir_names, score_ir
from storage.tables import Run

BASELINE_METHOD = {"sparse_parity": "sgd"}
"""Challenge -> the built-in method its method runs are compared with."""


@functools.cache
def builtin_baseline_metrics(challenge: str) -> dict[str, float]:
    """Metric -> value of ``challenge``'s built-in baseline program; {} when it has none (or it fails)."""
    if challenge not in ir_names():
        return {}
    generate = ir_challenge(challenge).generators.get("baseline")
    if generate is None:
        return {}
    try:
        result = score_ir(challenge, generate(), seeds=(0,), subject="baseline")
    except EngineError:
        return {}
    return {k: float(v) for k, v in result.metrics.items()} if result.ok else {}


def baseline_metrics(session: Session, run: Run) -> dict[str, float]:
    """Metric -> baseline value for ``run`` (see the module docstring); {} when there is no baseline."""
    if run.challenge in ir_names():
        return builtin_baseline_metrics(run.challenge)
    method = BASELINE_METHOD.get(run.challenge)
    if method is None or run.kind != "method" or run.subject == method:
        return {}
    candidates = session.exec(
        select(Run)
        .where(
            col(Run.challenge) == run.challenge,
            col(Run.kind) == "method",
            col(Run.subject) == method,
            col(Run.ok).is_(True),
        )
        .order_by(col(Run.id).desc())
    ).all()
    same = next((r for r in candidates if r.params == run.params), None)
    return {k: float(v) for k, v in same.metrics.items()} if same is not None else {}
