"""The baseline a stored result is compared with ("vs baseline" on result cards and sprint-log tables).

- IR challenges: the challenge's built-in ``baseline`` generator program, priced by the engine (deterministic: the
  Dally cost depends only on the program, so it is computed once per process and cached). These reproduce the
  published baselines (matmul 4×4 1,316, 16×16 340,704; sparse parity small 6,918, medium 816,251).
- The numpy sparse-parity track: the group's baseline training method, ``sgd``, run with the *same* parameters
  (n, k, seed, …) — the latest such stored run; none when sgd was never run with those parameters.
- Anything else (a ``solve()`` submission): no baseline, and the column stays empty.
"""

from __future__ import annotations

import functools

from sqlmodel import Session

from engine.errors import EngineError
from engine.scoring.ir import ir_challenge, is_ir_name, score_ir
from storage.runs import latest_passing_run
from storage.tables import Run

BASELINE_METHOD = {"sparse_parity": "sgd"}
"""Challenge -> the built-in method its method runs are compared with."""


@functools.cache
def builtin_baseline_metrics(challenge: str) -> dict[str, float]:
    """Metric -> value of ``challenge``'s built-in baseline program; {} when it has none (or it fails)."""
    if not is_ir_name(challenge):
        return {}
    generate = ir_challenge(challenge).generators.get("baseline")
    if generate is None:
        return {}
    try:
        result = score_ir(challenge, generate(), seeds=(0,), subject="baseline")
    except EngineError:
        return {}
    return {k: float(v) for k, v in result.metrics.items()} if result.ok else {}


def baseline_method(challenge: str, kind: str, subject: str) -> str | None:
    """The built-in method a run of ``subject`` is compared with (``sgd``), or None (not a method run, or the
    baseline method itself)."""
    method = BASELINE_METHOD.get(challenge)
    return None if method is None or kind != "method" or subject == method else method


def baseline_metrics(session: Session, run: Run) -> dict[str, float]:
    """Metric -> baseline value for ``run`` (see the module docstring); {} when there is no baseline."""
    if is_ir_name(run.challenge):
        return builtin_baseline_metrics(run.challenge)
    method = baseline_method(run.challenge, run.kind, run.subject)
    if method is None:
        return {}
    same = latest_passing_run(session, challenge=run.challenge, kind="method", subject=method, params=run.params)
    return {k: float(v) for k, v in same.metrics.items()} if same is not None else {}
