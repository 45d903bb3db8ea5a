"""The baseline a stored result is compared with ("vs baseline" on result cards and in sprint-log entries), per
board: the same instance, the same seeds, the track's reference.

- **program** (IR challenges): the challenge's built-in ``baseline`` generator program, priced by the engine
  (deterministic: the Dally cost depends only on engine code, so it is computed once per process, and kept in the
  data directory for every later process of the same engine code: :func:`keep_program_baselines_in`). These
  reproduce the published baselines (matmul 4×4 1,316, 16×16 340,704; sparse parity small 6,918, medium 816,251).
- **training** methods: ``sgd`` with the *same* parameters (every parameter sgd takes, at the method run's values)
  and the same seed set.
- **solver** methods: the best *other* built-in solver on the same instance (n, k) and seed set
  (:func:`engine.methods.best_reference_solver`: every solver traced on the seeds' instances from their training rows
  alone, membership queries refused — so ``km`` and ``km_min``, which need an oracle, are never the reference — the
  lowest mean dmc@1, the solver board's primary metric, wins), run at its own defaults on those seeds and named by
  its method (``vs gf2``). The admins' ``baseline.reference`` may name one method instead; with the default
  ``best``, where no other solver solves the instances (or for a task of the family with no solver ranking yet) the
  reference is ``sgd``. Solvers that ask membership queries stand on a board of their own (track
  ``oracle solver``), never ranked with those that learn from the training rows.
- **submission** (a judged ``solve()``): the best built-in solver on the same hidden instances
  (:mod:`bot.core.solve_baseline`; the rule in :mod:`engine.methods.on_instances`), found by the instances'
  seeds and the metric that ranked the solvers; named ``best built-in solver gf2 (#12)``.

The system runs a missing method baseline itself (:mod:`bot.core.run_method`) and stores it as the system's
(``role`` ``baseline``, never a member's entry); it is found again by its request key, and a member's own run with
exactly those parameters serves as well.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import Session

from bot.core.method_request import MethodRequest
from engine.challenges import SPARSE_PARITY_TASK, TASKS, instance_params
from engine.errors import EngineError
from engine.methods import COMMON_DEFAULTS, METHODS
from engine.metrics import metrics_for
from engine.result import RunResult
from engine.scoring import ir_challenge, is_ir_name, score_ir
from engine.version import code_digest
from storage.runs import find_by_request_key, latest_passing_run
from storage.tables import ROLE_BASELINE, Run
from tools.board import instance_of, seeds_of, track_of
from tools.run_request import NormalisedRequest

TRAINING_BASELINE = "sgd"
"""The method every training method is compared with (the group's baseline training method)."""
BEST_REFERENCE = "best"
"""``baseline.reference`` value meaning: the best other built-in solver on the run's instance and seeds."""
DEFAULT_REFERENCE = BEST_REFERENCE
"""The default reference of the solver board (``baseline.reference``)."""
SOLVE_BASELINE = "best built-in solver"
"""How the baseline of a solve() is named on cards and in the log (with the winning solver's name)."""
SOLVE_METRICS = metrics_for("numpy", "solve")
DEFAULT_RANKING = "dmc@1"
"""What ranks the solvers when the board's primary metric is one they are not measured by on the hidden instances."""
RANKABLE = ("dmc@1", "ard@1", "ard_per_read@1")
"""The metrics the built-in solvers are measured by on a solve()'s hidden instances: the clock metrics of their
traced runs (engine.methods.on_instances). A solve()'s ``bytedmd@2`` and ``dmd@1`` have no counterpart there."""


def ranking_metric(primary: str | None) -> str:
    """The metric the solvers are ranked by: the board's primary when the solvers are measured by it, else dmc@1."""
    return primary if primary in RANKABLE else DEFAULT_RANKING


def solve_baseline_request(params: Mapping[str, Any], primary: str | None) -> NormalisedRequest | None:
    """The system's request for the baseline of a solve() judged with ``params`` (None: no recorded instances,
    e.g. a result stored before they were recorded)."""
    from engine.sandbox import HIDDEN_INSTANCES

    instances = params.get(HIDDEN_INSTANCES)
    if not isinstance(instances, list) or not instances:
        return None
    shape = {key: int(params[key]) for key in ("n_bits", "k_sparse", "n_train", "n_test") if key in params}
    return NormalisedRequest(
        challenge="sparse_parity",
        kind="method",
        subject=SOLVE_BASELINE,
        params={**shape, HIDDEN_INSTANCES: [str(s) for s in instances], "ranked_by": ranking_metric(primary)},
        metric_versions=SOLVE_METRICS,
        role=ROLE_BASELINE,
    )


BASELINE_GENERATOR = "baseline"
"""The name of an IR challenge's built-in baseline program among its generators."""


@dataclass(frozen=True)
class BaselineRun:
    """A stored baseline run as its caller already holds it (the method runner stores the baseline first): its id
    and its result, so that recording the member's run neither reads it back nor explains the change twice."""

    run_id: int
    result: RunResult


@dataclass(frozen=True)
class Baseline:
    """What a run is compared with: its name (shown on the card and in the log), the stored run holding it (None: a
    built-in program, computed), the metric values (means over its seeds) and the per-seed values."""

    name: str
    metrics: dict[str, float]
    seed_metrics: dict[str, list[float]] = field(default_factory=dict)
    run_id: int | None = None
    note: str = ""
    """How the baseline was chosen, as its stored run says (a solve()'s: which solvers were ranked, and which were
    not taken because they need oracle queries the board does not give)."""
    keys: tuple[str, ...] = ()
    """What each per-seed value was measured on, in order: the seeds, or a solve()'s hidden instances (empty: one
    value, or a built-in program)."""

    def values(self, metric: str) -> list[float]:
        """The per-seed values of ``metric`` (one value for a single seed or a program); [] when absent."""
        if metric in self.seed_metrics:
            return list(self.seed_metrics[metric])
        return [self.metrics[metric]] if metric in self.metrics else []

    @property
    def label(self) -> str:
        """``sgd (#12)`` or ``baseline program``."""
        return f"{self.name} (#{self.run_id})" if self.run_id is not None else self.name


PROGRAM_BASELINES_FILE = "baseline-programs.json"
"""In the directory named by :func:`keep_program_baselines_in`: the metrics of the built-in baseline programs, by
challenge and engine code (:func:`engine.version.code_digest`)."""

_kept_in: list[Path] = []


def keep_program_baselines_in(directory: Path) -> None:
    """Keep the built-in baseline programs' metrics in ``directory`` (the composition root names the data
    directory's ``cache``), so that each is computed once per engine code rather than once per process.

    Each job is a process of its own, and mask sparse parity's baseline program (1.77 million lines on the
    1,024-instance dev suite) takes about 4 CPU s to price: without this, every judged mask program paid that on
    top of its own 0.1 s (``bench/bench_mask_job.py``; docs/verdicts.md#baselines)."""
    _kept_in[:] = [directory]


@functools.cache
def builtin_baseline_metrics(challenge: str) -> dict[str, float]:
    """Metric -> value of ``challenge``'s built-in baseline program; {} when it has none (or it fails).

    Computed once per process, and read back from the kept file (:func:`keep_program_baselines_in`) when the same
    engine code computed it before: the value depends only on that code (the generator, the scorer and the
    challenge's fixed instances are all engine code)."""
    if not is_ir_name(challenge):
        return {}
    generate = ir_challenge(challenge).generators.get(BASELINE_GENERATOR)
    if generate is None:
        return {}
    program = f"{challenge} {BASELINE_GENERATOR}"
    key = f"{program} {code_digest()}"
    kept = _kept_metrics(key)
    if kept is not None:
        return kept
    try:
        result = score_ir(challenge, generate(), seeds=(0,), subject="baseline")
    except EngineError:
        return {}
    metrics = {k: float(v) for k, v in result.metrics.items()} if result.ok else {}
    if metrics:
        _keep_metrics(program, key, metrics)
    return metrics


def _kept_file() -> Path | None:
    return _kept_in[0] / PROGRAM_BASELINES_FILE if _kept_in else None


def _read_kept() -> dict[str, dict[str, float]]:
    """The kept file's entries; {} when there is none or it cannot be read as one (it is then written anew)."""
    path = _kept_file()
    if path is None:
        return {}
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return entries if isinstance(entries, dict) else {}


def _kept_metrics(key: str) -> dict[str, float] | None:
    entry = _read_kept().get(key)
    if not isinstance(entry, dict) or not entry:
        return None
    try:
        return {str(k): float(v) for k, v in entry.items()}
    except (TypeError, ValueError):
        return None


def _keep_metrics(program: str, key: str, metrics: dict[str, float]) -> None:
    """Add ``key``'s metrics to the kept file in place of any other entry of ``program`` (older engine code), written
    whole and then renamed into place, so a reader never sees half of it; two processes writing at once may drop
    each other's new entry, which is then computed again. A directory that cannot be written keeps nothing."""
    path = _kept_file()
    if path is None:
        return
    entries = {k: v for k, v in _read_kept().items() if not k.startswith(f"{program} ")}
    entries[key] = metrics
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)  # the directory itself, never a tree of missing parents
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(entries, out, sort_keys=True)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def baseline_method(
    challenge: str, kind: str, subject: str, reference: str = DEFAULT_REFERENCE, params: Mapping[str, Any] | None = None
) -> str | None:
    """The built-in method a run of ``subject`` with ``params`` is compared with, or None (not a method run, the
    baseline itself, or no other solver solves its instances)."""
    if kind != "method" or challenge not in TASKS:
        return None
    if track_of(kind, subject) == "training":
        method: str | None = TRAINING_BASELINE
    elif reference == BEST_REFERENCE:  # no other solver solves it, or a task with no solver ranking yet: sgd
        method = _best_other_solver(challenge, subject, params or {}) or TRAINING_BASELINE
    else:
        method = reference
    return None if subject == method else method


def _best_other_solver(challenge: str, subject: str, params: Mapping[str, Any]) -> str | None:
    """The best built-in solver other than ``subject`` on the run's instance and seeds (sparse parity; other tasks
    of the family have no solver ranking yet, so they keep no reference)."""
    if challenge != SPARSE_PARITY_TASK.name or str(params.get("task", challenge)) != SPARSE_PARITY_TASK.name:
        return None
    instance = dict(instance_of(challenge, params))  # the board's n and k (the standard's where not named)
    seeds = seeds_of(params) or (int(COMMON_DEFAULTS["seed"]),)
    return _best_reference(int(instance["n"]), int(instance["k"]), seeds, subject)


@functools.lru_cache(maxsize=64)
def _best_reference(n: int, k: int, seeds: tuple[int, ...], subject: str) -> str | None:
    """Cached per process: the ranking traces the solvers (up to about 2 s at n=20) and depends only on its inputs."""
    from engine.methods import best_reference_solver

    try:
        return best_reference_solver(n, k, seeds, DEFAULT_RANKING, exclude=(subject,))
    except EngineError:
        return None


def baseline_request(
    challenge: str, kind: str, subject: str, params: dict[str, Any], reference: str = DEFAULT_REFERENCE
) -> MethodRequest | None:
    """The baseline run that a method run with the validated ``params`` is compared with (see the module
    docstring), as the system would ask for it, on the same task and instance; None when it has none or the
    baseline cannot run there (e.g. sgd above its n limit)."""
    method = baseline_method(challenge, kind, subject, reference, params)
    if method is None or method not in METHODS:
        return None
    if "task" not in params and challenge in TASKS.names() and challenge != SPARSE_PARITY_TASK.name:
        params = {**params, "task": challenge}  # a stored request names its task as its challenge, not in params
    task = TASKS.get(str(params.get("task", SPARSE_PARITY_TASK.name)))
    if track_of(kind, subject) == "training":
        takes = {*METHODS.get(method).defaults, *task.defaults, *COMMON_DEFAULTS, "task"}
        shared = {k: v for k, v in params.items() if k in takes and k != "seed"}
    else:
        instance = {*instance_params(challenge), "task"}  # the problem instance (the registry's keys), the task
        shared = {k: v for k, v in params.items() if k in instance}
    seeds = params.get("seeds") or [params.get("seed", COMMON_DEFAULTS["seed"])]
    try:
        return MethodRequest.parse(method, {**shared, "seeds": list(seeds)}, role=ROLE_BASELINE)
    except EngineError:
        return None


def stored_baseline(session: Session, request: MethodRequest) -> Run | None:
    """The system's stored baseline for ``request`` (passing or not: it is not run again), else a member's passing
    run with exactly its parameters."""
    run = find_by_request_key(session, request_key=request.stored.key)
    if run is not None:
        return run
    return latest_passing_run(
        session, challenge=request.challenge, kind="method", subject=request.name, params=request.params
    )


def is_baseline_program(run: Run) -> bool:
    """Whether ``run`` is the challenge's built-in baseline program scored by ``run CHALLENGE baseline`` (a member's
    submission labelled "baseline" is not: it has no ``generator`` parameter)."""
    return run.kind == "generate" and (run.params or {}).get("generator") == BASELINE_GENERATOR


def baseline_of(
    session: Session, run: Run, *, reference: str = DEFAULT_REFERENCE, primary: str | None = None
) -> Baseline | None:
    """The baseline of the stored ``run`` (see the module docstring); None when it has none (yet). ``primary``: the
    board's primary metric (what ranks the built-in solvers a solve() is compared with)."""
    if run.kind == "solve":
        return _solve_baseline(session, run, primary)
    if is_ir_name(run.challenge):
        if is_baseline_program(run):  # the baseline itself compares with nothing
            return None
        metrics = builtin_baseline_metrics(run.challenge)
        return Baseline("baseline program", metrics) if metrics else None
    request = baseline_request(run.challenge, run.kind, run.subject, run.params, reference)
    if request is None:
        return None
    stored = stored_baseline(session, request)
    if stored is None or not stored.ok:  # a baseline that failed its accuracy check compares with nothing
        return None
    return _stored_baseline(request.name, stored)


def _solve_baseline(session: Session, run: Run, primary: str | None) -> Baseline | None:
    request = solve_baseline_request(run.params or {}, primary)
    stored = None if request is None else find_by_request_key(session, request_key=request.key)
    if stored is None or not stored.ok:
        return None
    return _stored_baseline(f"{SOLVE_BASELINE} {stored.subject}", stored)


def value_keys(run: Run) -> tuple[str, ...]:
    """What each of ``run``'s per-seed values was measured on, in order: the hidden instances of a judged solve()
    (or of the built-in solvers' run on them), else its seeds — what pairs two runs' values seed by seed."""
    from engine.sandbox import HIDDEN_INSTANCES

    params = run.params or {}
    instances = params.get(HIDDEN_INSTANCES)
    if isinstance(instances, list) and instances:
        return tuple(str(i) for i in instances)
    return tuple(str(s) for s in seeds_of(params))


def chosen_baseline(session: Session, run: Run, *, name: str | None, run_id: int | None) -> Baseline | None:
    """The baseline ``run`` was judged against, as its stored judgement names it (:class:`bot.core.judgement.
    BaselineChoice`): read, never chosen again — no solver ranking, no request built. None when it had none or its
    stored run is gone; a built-in program (no run) is priced again (deterministic, cached)."""
    if name is None:
        return None
    if run_id is None:
        return baseline_of(session, run) if is_ir_name(run.challenge) else None
    stored = session.get(Run, run_id)
    if stored is None or not stored.ok:
        return None
    return _stored_baseline(name, stored)


def _stored_baseline(name: str, stored: Run) -> Baseline:
    seed_metrics = stored.result.get("seed_metrics") if isinstance(stored.result, dict) else None
    note = stored.result.get("note") if isinstance(stored.result, dict) else None
    return Baseline(
        name,
        {k: float(v) for k, v in stored.metrics.items()},
        {k: [float(x) for x in v] for k, v in (seed_metrics or {}).items()},
        stored.id,
        note if isinstance(note, str) and stored.kind == "method" and name.startswith(SOLVE_BASELINE) else "",
        value_keys(stored),
    )


def baseline_metrics(session: Session, run: Run, *, reference: str = DEFAULT_REFERENCE) -> dict[str, float]:
    """Metric -> baseline value for ``run``; {} when there is no baseline."""
    baseline = baseline_of(session, run, reference=reference)
    return {} if baseline is None else dict(baseline.metrics)
