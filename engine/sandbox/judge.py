"""Judge a numpy ``solve(x, y, n_bits, k_sparse)`` with metrics it cannot forge (remote arrays).

Per hidden instance (fresh randomness from ``secrets``, never the public seeds 42/123/456): the parent draws
the secret and the rows, keeps the test rows, opens a remote-array session holding x_train/y_train, and starts
one fresh sandboxed child whose solve() sees only handles. Every numpy operation is a metered request executed
here, so ``dmc@1``/``ard@1`` come from the parent's own event log (engine.md §1.3). Accuracy: the returned
indices predict the held-back test labels (product of those bits); the run passes at mean accuracy ≥ 0.95
(engine.md §2.1). Metrics are the mean over instances.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

import numpy as np

from engine.metrics.clock import ARD, ARD_PER_READ, DMC
from engine.result import RunResult
from engine.sandbox.launch import run_submission
from engine.sandbox.limits import DEFAULT_LIMITS, Limits
from engine.sandbox.lint import lint
from engine.sandbox.remote import allowlist
from engine.sandbox.remote.budget import Refused
from engine.sandbox.remote.session import Session
from engine.sandbox.results import BadResult, check_answer
from engine.sandbox.tier import TierReport, probe_tier

PASS_ACCURACY = 0.95
SCOPE = "whole solve() call, measured by the parent (remote arrays), mean over hidden instances"


def hidden_instance(n_bits: int, k_sparse: int, n_train: int, n_test: int) -> dict[str, Any]:
    """One fresh instance: secret (sorted), x/y train and test in {−1, +1} (engine.md §2.1 convention)."""
    secret = sorted(secrets.SystemRandom().sample(range(n_bits), k_sparse))
    rng = np.random.default_rng(secrets.randbits(128))
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(n_train + n_test, n_bits))
    y = np.prod(x[:, secret], axis=1)
    return {
        "secret": secret,
        "x_train": x[:n_train],
        "y_train": y[:n_train],
        "x_test": x[n_train:],
        "y_test": y[n_train:],
    }


def accuracy(answer: list[int], x_test: np.ndarray, y_test: np.ndarray) -> float:
    """Fraction of test labels the parity of ``answer``'s bits predicts."""
    predicted = np.prod(x_test[:, answer], axis=1) if answer else np.ones(len(y_test), dtype=np.int64)
    return float(np.mean(predicted == y_test))


class _Meter:
    """Answers the child's requests from a Session; a refusal ends the run with its message."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.refusal: str | None = None

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            return self.session.handle(request)
        except (Refused, ValueError) as exc:
            self.refusal = str(exc)
            raise BadResult(str(exc)) from exc


def _one_instance(
    code: str,
    inst: dict[str, Any],
    n_bits: int,
    k_sparse: int,
    limits: Limits,
    report: TierReport,
    dev_override: bool,
    check_imports: bool,
) -> tuple[float | None, str | None, Session]:
    session = Session([inst["x_train"], inst["y_train"]], max_elements=limits.max_elements, max_ops=limits.max_ops)
    meter = _Meter(session)
    inputs = [session.describe(i)["a"] for i in session.input_ids]
    cfg = {
        "mode": "solve",
        "code": code,
        "inputs": inputs,
        "n_bits": n_bits,
        "k_sparse": k_sparse,
        "check_imports": check_imports,
        "functions": sorted(allowlist.FUNCTIONS),
        "dtypes": sorted(allowlist.DTYPES),
    }
    out = run_submission(
        cfg, limits, tier=report, dev_override=dev_override, result_cap=limits.output_bytes, on_request=meter
    )
    if meter.refusal is not None:
        return None, meter.refusal, session
    if out.failure is not None or out.final is None:
        return None, out.failure or "solve() ended without an answer", session
    try:
        answer = check_answer(out.final, n_bits)
    except BadResult as exc:
        return None, str(exc), session
    return accuracy(answer, inst["x_test"], inst["y_test"]), None, session


def judge_solve(
    code: str,
    *,
    n_bits: int = 20,
    k_sparse: int = 3,
    instances: int = 3,
    limits: Limits = DEFAULT_LIMITS,
    n_train: int = 200,
    n_test: int = 1000,
    tier: TierReport | None = None,
    dev_override: bool = False,
    label: str = "submission",
    check_imports: bool = True,
) -> RunResult:
    """Run ``solve()`` on ``instances`` fresh hidden instances; metrics measured in the parent.

    Raises SubmissionRefused (before running) on a lint refusal or at tier D without ``dev_override``.
    ``check_imports=False`` skips the lint and the import guard (the exploit suite's way to test
    the OS layers).
    """
    start = time.monotonic()
    flags = lint(code, "solve").flags if check_imports else []
    report = tier or probe_tier()
    params = {
        "n_bits": n_bits,
        "k_sparse": k_sparse,
        "instances": instances,
        "n_train": n_train,
        "n_test": n_test,
    }
    accs: list[float] = []
    per_instance: list[dict[str, float]] = []
    ops = events = 0
    failure = None
    for _ in range(instances):
        inst = hidden_instance(n_bits, k_sparse, n_train, n_test)
        acc, failure, session = _one_instance(code, inst, n_bits, k_sparse, limits, report, dev_override, check_imports)
        ops += session.ops
        events += len(session.sizes)
        if failure is not None:
            break
        accs.append(acc if acc is not None else 0.0)
        per_instance.append(session.metrics())
    mean_acc = float(np.mean(accs)) if accs and failure is None else None
    ok = failure is None and mean_acc is not None and mean_acc >= PASS_ACCURACY
    if failure is None and not ok:
        failure = f"mean accuracy {mean_acc:.3f} on hidden test rows is below {PASS_ACCURACY}"
    metrics = (
        {name: float(np.mean([m[name] for m in per_instance])) for name in (DMC, ARD, ARD_PER_READ)}
        if per_instance and failure is None
        else {}
    )
    return RunResult(
        challenge="sparse_parity",
        subject=label,
        kind="solve",
        ok=ok,
        params=params,
        accuracy=mean_acc,
        failure=failure,
        metrics=metrics,
        metric_scopes={name: SCOPE for name in metrics},
        wall_s=time.monotonic() - start,
        counts={"numpy_ops": ops, "events": events, "instances": len(accs)},
        code_hash=hashlib.sha256(code.encode()).hexdigest(),
        extra={
            "sandbox_tier": report.tier,
            "sandbox": report.description,
            "review_flags": flags,
            "per_instance_metrics": per_instance,
        },
    )
