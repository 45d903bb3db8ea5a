"""Judge a numpy ``solve(x, y, n_bits, k_sparse)`` with metrics it cannot forge (remote arrays).

Per hidden instance (fresh randomness from ``secrets``, never the public seeds 42/123/456): the parent draws
the secret and the rows, keeps the test rows, opens a remote-array session holding x_train/y_train, and starts
one fresh sandboxed child whose solve() sees only handles. Every numpy operation is a metered request executed
here, so ``dmc@1``/``ard@1`` come from the parent's own event log (docs/metrics.md#reuse-distance-and-dmc), and
``bytedmd@2`` from the element trace of the same requests run again on tracked elements in the parent
(engine.sandbox.remote.element_shadow; docs/metrics.md#bytedmd) while the judge's CPU for the submission (numpy
work charged plus element trace) stays within ``Limits.parent_cpu_s``; past it the run is judged as usual and
reports no ``bytedmd@2`` (``RunResult.note`` says so). Accuracy:
the returned indices predict the held-back test labels (product of those bits); the run passes at mean accuracy ≥ 0.95
(docs/challenges.md#solve-submissions). Metrics are the mean over instances.

Where the cost went (``RunResult.buffer_attribution``, scope ``whole run``): the per-buffer table of the first hidden
instance's solve() call, buffers named by the request that made them (:mod:`engine.sandbox.remote.buffer_names`).
Its totals are that instance's metrics (``per_instance_metrics[0]``), not the mean over instances: a mean of ratios
has no per-buffer split that adds up, and every instance runs the same code on data of the same shape.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engine.attribution.buffers import attribute_events
from engine.attribution.run_attribution import WHOLE_RUN, Attribution
from engine.challenges.sparse_parity import SparseParityData
from engine.metrics.clock import floats_read
from engine.metrics.registry import metrics_for
from engine.result import FailureKind, Provenance, RunResult
from engine.sandbox.judge_memory import judge_address_space
from engine.sandbox.launch import run_submission
from engine.sandbox.limits import DEFAULT_LIMITS, Limits
from engine.sandbox.lint import check_source_size, lint
from engine.sandbox.remote import allowlist
from engine.sandbox.remote.budget import LimitRefused, Refused
from engine.sandbox.remote.session import Session
from engine.sandbox.result_keys import HIDDEN_INSTANCES
from engine.sandbox.results import BadResult, check_answer, one_line
from engine.sandbox.tier import TierReport, probe_tier

PASS_ACCURACY = 0.95
PER_REQUEST_ALLOWANCE_S = 0.001  # an honest request costs the parent ~0.1-0.2 ms; numpy work beyond 1 ms is charged
SCOPE = "whole solve() call, measured by the parent (remote arrays), mean over hidden instances"
FLOATS_READ = "floats_read"
"""The count of floats the counted reads read over all instances (0: the clock metrics had nothing to measure)."""


def hidden_instance(n_bits: int, k_sparse: int, n_train: int, n_test: int, seed: int | None = None) -> dict[str, Any]:
    """One instance: secret (sorted), x/y train and test in {−1, +1} (docs/challenges.md#instance-data
    convention), all drawn from ``seed`` (a fresh 128-bit one from ``secrets`` when None: unpredictable to the
    submission, which never sees it; the judge records it afterwards so the same instance can be rebuilt)."""
    rng = np.random.default_rng(secrets.randbits(128) if seed is None else seed)
    secret = sorted(int(i) for i in rng.choice(n_bits, k_sparse, replace=False))
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(n_train + n_test, n_bits))
    y = np.prod(x[:, secret], axis=1)
    return {
        "secret": secret,
        "x_train": x[:n_train],
        "y_train": y[:n_train],
        "x_test": x[n_train:],
        "y_test": y[n_train:],
    }


def instance_data(seed: str, n_bits: int, k_sparse: int, n_train: int, n_test: int) -> SparseParityData:
    """The hidden instance judged under ``seed`` (as recorded in a result's ``hidden_instances``, hex), as float
    arrays for a built-in method (engine.methods.on_instances)."""
    inst = hidden_instance(n_bits, k_sparse, n_train, n_test, int(seed, 16))
    return SparseParityData(
        x_train=inst["x_train"].astype(np.float64),
        y_train=inst["y_train"].astype(np.float64),
        x_test=inst["x_test"].astype(np.float64),
        y_test=inst["y_test"].astype(np.float64),
        secret=list(inst["secret"]),
    )


def accuracy(answer: list[int], x_test: np.ndarray, y_test: np.ndarray) -> float:
    """Fraction of test labels the parity of ``answer``'s bits predicts."""
    predicted = np.prod(x_test[:, answer], axis=1) if answer else np.ones(len(y_test), dtype=np.int64)
    return float(np.mean(predicted == y_test))


def cpu_allowance(
    limits: Limits, spent: list[float], judge_start: float, clock: list[float]
) -> Callable[[], tuple[float, str]]:
    """What is left of the judge's CPU allowances for a submission, the tighter first: ``parent_cpu_s`` less the
    numpy work charged so far (``spent``; a request's first millisecond is not charged), or ``judge_cpu_s`` less this
    thread's CPU from ``judge_start`` to ``clock[0]`` (the thread's clock when the current request began, set by the
    meter: reading the thread clock is a system call, which an honest run would pay on each of its thousands of
    requests); with that limit's one-line message. The session refuses a request whose estimated work passes it
    before running it (engine.sandbox.remote.work)."""

    def left() -> tuple[float, str]:
        numpy_left = limits.parent_cpu_s - spent[0] + PER_REQUEST_ALLOWANCE_S
        judge_left = limits.judge_cpu_s - (clock[0] - judge_start)
        if numpy_left < judge_left:
            return numpy_left, limits.parent_cpu_message()
        return judge_left, limits.judge_cpu_message()

    return left


class _Meter:
    """Answers the child's requests from a Session; a refusal ends the run with its message."""

    def __init__(
        self,
        session: Session,
        limits: Limits = DEFAULT_LIMITS,
        spent: list[float] | None = None,
        judge_start: float | None = None,
        clock: list[float] | None = None,
    ) -> None:
        self.session = session
        self.clock = clock if clock is not None else [0.0]  # the thread's clock when the current request began
        # this thread's CPU clock when the judgement began: everything done for the submission is counted
        self.judge_start = time.thread_time() if judge_start is None else judge_start
        self.refusal: str | None = None
        self.refusal_kind = FailureKind.REJECTED
        self.limits = limits
        self.spent = spent if spent is not None else [0.0]  # CPU seconds of work done for this submission so far

    def __call__(self, request: dict[str, Any]) -> dict[str, Any] | None:
        try:
            start = self.clock[0] = time.thread_time()
            element = self.session.shadow.spent[0]
            try:
                return self.session.handle(request)
            finally:  # the first ms of each request is the protocol's own cost (bounded by max_ops): not charged,
                # nor the element trace (it stops itself within the same allowance)
                element = self.session.shadow.spent[0] - element
                self.spent[0] += max(0.0, time.thread_time() - start - element - PER_REQUEST_ALLOWANCE_S)
                if self.spent[0] > self.limits.parent_cpu_s and self.refusal is None:
                    self.refusal = self.limits.parent_cpu_message()
                    self.refusal_kind = FailureKind.LIMIT
                    raise BadResult(self.refusal)
                if time.thread_time() - self.judge_start > self.limits.judge_cpu_s and self.refusal is None:
                    self.refusal = self.limits.judge_cpu_message()
                    self.refusal_kind = FailureKind.LIMIT
                    raise BadResult(self.refusal)
        except BadResult:
            raise
        except (Refused, ValueError) as exc:
            self.refusal = one_line(str(exc))
            if isinstance(exc, LimitRefused):
                self.refusal_kind = FailureKind.LIMIT
        except RecursionError:
            self.refusal = "your code sent a request nested too deeply"
        except MemoryError:  # the judge's address-space limit (engine.sandbox.judge_memory)
            self.refusal = self.limits.judge_memory_message()
            self.refusal_kind = FailureKind.LIMIT
        except Exception as exc:  # noqa: BLE001 — the child's bytes must end in a verdict, never a crash
            self.refusal = f"your code sent a request the judge could not carry out ({type(exc).__name__})"
        raise BadResult(self.refusal)


def _one_instance(
    code: str,
    inst: dict[str, Any],
    n_bits: int,
    k_sparse: int,
    limits: Limits,
    report: TierReport,
    dev_override: bool,
    check_imports: bool,
    spent: list[float],
    element_spent: list[float],
    judge_start: float | None = None,
) -> tuple[float | None, tuple[str, FailureKind] | None, Session]:
    judge_start = time.thread_time() if judge_start is None else judge_start
    clock = [judge_start]
    session = Session(
        [inst["x_train"], inst["y_train"]],
        max_elements=limits.max_elements,
        max_ops=limits.max_ops,
        element_cpu_s=limits.parent_cpu_s,
        element_spent=element_spent,
        charged=spent,
        cpu_left=cpu_allowance(limits, spent, judge_start, clock),
    )
    meter = _Meter(session, limits, spent, judge_start, clock)
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
        "next_id": session.next_id,
        "pipeline": True,
    }
    out = run_submission(
        cfg, limits, tier=report, dev_override=dev_override, result_cap=limits.output_bytes, on_request=meter
    )
    if meter.refusal is not None:
        return None, (meter.refusal, meter.refusal_kind), session
    if out.failure is not None or out.final is None:
        failure = out.failure or "solve() ended without an answer"
        return None, (failure, out.failure_kind or FailureKind.ERROR), session
    try:
        answer = check_answer(out.final, n_bits)
    except BadResult as exc:
        return None, (str(exc), FailureKind.REJECTED), session
    return accuracy(answer, inst["x_test"], inst["y_test"]), None, session


def session_attribution(session: Session) -> Attribution:
    """The per-buffer table of everything ``session`` metered (scope ``whole run``)."""
    table = attribute_events(session.is_write, session.buffers, session.sizes, session.labels, WHOLE_RUN)
    return Attribution(scopes=(table,))


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
    suite: Sequence[tuple[str, int]] | None = None,
) -> RunResult:
    """Run ``solve()`` on ``instances`` fresh hidden instances; metrics measured in the parent.

    ``suite``: the hidden instances to use instead of fresh draws, as (name, seed) pairs — a fixed secret suite, so
    the same code gives the same figure (the judge epochs of bot/core/epochs.py). The result then records the
    names in ``hidden_instances``, never the seeds (they stay secret for the suite's lifetime); without a suite it
    records the fresh seeds (hex), revealed once used.

    Raises SubmissionRefused (before running) on a lint refusal or at tier D without ``dev_override``.
    ``check_imports=False`` skips the lint and the import guard (the exploit suite's way to test
    the OS layers).
    """
    check_source_size(code, limits.source_bytes)
    flags = lint(code, "solve", limits.source_bytes).flags if check_imports else []
    report = tier or probe_tier()
    with judge_address_space(limits.judge_memory_bytes):
        try:
            return _judge_solve(
                code, n_bits, k_sparse, instances, limits, n_train, n_test, report, dev_override, label,
                check_imports, suite, flags,
            )  # fmt: skip
        except MemoryError:  # outside a request (the protocol, the metrics): the same one line
            failure = RunResult(
                challenge="sparse_parity",
                subject=label,
                kind="solve",
                ok=False,
                params={"n_bits": n_bits, "k_sparse": k_sparse, "instances": instances},
                failure=limits.judge_memory_message(),
                failure_kind=FailureKind.LIMIT,
                code_hash=hashlib.sha256(code.encode()).hexdigest(),
                provenance=Provenance(
                    judged_by="solve", sandbox_tier=report.tier, sandbox=report.description, review_flags=flags
                ),
            )
    return failure


def _judge_solve(
    code: str,
    n_bits: int,
    k_sparse: int,
    instances: int,
    limits: Limits,
    n_train: int,
    n_test: int,
    report: TierReport,
    dev_override: bool,
    label: str,
    check_imports: bool,
    suite: Sequence[tuple[str, int]] | None,
    flags: list[str],
) -> RunResult:
    """:func:`judge_solve`'s work, under the judge's address-space limit."""
    start = time.monotonic()
    judge_start = time.thread_time()  # all of the judge's CPU for this submission is counted (limits.judge_cpu_s)
    spent = [0.0]  # CPU seconds the parent spent executing this submission's requests (all instances)
    element_spent = [0.0]  # and on their element trace (bytedmd@2)
    params = {
        "n_bits": n_bits,
        "k_sparse": k_sparse,
        "instances": instances,
        "n_train": n_train,
        "n_test": n_test,
    }
    accs: list[float] = []
    per_instance: list[dict[str, float]] = []
    ops = events = read = 0
    failed: tuple[str, FailureKind] | None = None
    attribution: Attribution | None = None
    element_note: str | None = None  # why bytedmd@2 was not computed, if it was not
    drawn: list[str] = []  # the instances' seeds, recorded once judged (a baseline is rebuilt on them)
    if suite is not None and len(suite) != instances:
        raise ValueError(f"a suite of {len(suite)} instances for {instances} to judge")
    for i in range(instances):
        if suite is None:
            seed = secrets.randbits(128)
            drawn.append(f"{seed:032x}")
        else:
            name, seed = suite[i]
            drawn.append(name)
        inst = hidden_instance(n_bits, k_sparse, n_train, n_test, seed)
        acc, failed, session = _one_instance(
            code,
            inst,
            n_bits,
            k_sparse,
            limits,
            report,
            dev_override,
            check_imports,
            spent,
            element_spent,
            judge_start,
        )
        ops += session.ops
        events += len(session.sizes)
        element_note = element_note or session.shadow.stopped
        if failed is not None:
            break
        accs.append(acc if acc is not None else 0.0)
        per_instance.append(session.metrics())
        read += floats_read(session.is_write, session.buffers, session.sizes)
        if attribution is None:
            attribution = session_attribution(session)
    mean_acc = float(np.mean(accs)) if accs and failed is None else None
    ok = failed is None and mean_acc is not None and mean_acc >= PASS_ACCURACY
    if failed is None and not ok:
        failed = (
            f"mean accuracy {mean_acc:.3f} on hidden test rows is below {PASS_ACCURACY}",
            FailureKind.WRONG_ANSWER,
        )
    metrics = (
        {
            name: float(np.mean([m[name] for m in per_instance]))
            for name in metrics_for("numpy", "solve")
            if all(name in m for m in per_instance)
        }
        if per_instance and failed is None
        else {}
    )
    return RunResult(
        challenge="sparse_parity",
        subject=label,
        kind="solve",
        ok=ok,
        params={**params, HIDDEN_INSTANCES: drawn},
        accuracy=mean_acc,
        failure=None if failed is None else failed[0],
        failure_kind=None if failed is None else failed[1],
        metrics=metrics,
        metric_scopes={name: SCOPE for name in metrics},
        wall_s=time.monotonic() - start,
        counts={"numpy_ops": ops, "events": events, "instances": len(accs), FLOATS_READ: read},
        code_hash=hashlib.sha256(code.encode()).hexdigest(),
        note=element_note if metrics else None,
        per_instance_metrics=per_instance,
        buffer_attribution=attribution if metrics else None,
        provenance=Provenance(
            judged_by="solve", sandbox_tier=report.tier, sandbox=report.description, review_flags=flags
        ),
    )
