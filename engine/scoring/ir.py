"""Score an IR program on a challenge: parse, price (dally@1), check on every test instance at once.

The public entry points other layers call: :func:`score_ir` and :func:`infer_challenges`.

Rule for bad programs (one rule, everywhere): a program that breaks a rule decidable from its text — syntax,
unknown op, arity, addresses, read-before-write, outputs never written, input/output counts, ``set`` range, line
cap — **raises** :class:`engine.ir.errors.InvalidProgram` (an ``EngineError``) naming the line. A program that
is well formed but fails on the test data — a wrong output, or division by zero — **returns** a RunResult with
``ok=False`` and a one-line ``failure`` (its cost is still reported: it is static).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from engine.challenges import CHALLENGES
from engine.challenges.ir_track import IRChallenge, TestSet
from engine.errors import BadParameter
from engine.ir.cost import read_cost
from engine.ir.parser import parse, statement_ends
from engine.ir.program import Program
from engine.ir.simulate import RunFault, run
from engine.ir.static_check import Expect, check
from engine.metrics.registry import DALLY
from engine.result import FailureKind, RunResult

METRIC = DALLY


def ir_challenge(name: str) -> IRChallenge:
    """The registered IR-track challenge called ``name`` (did-you-mean on a typo; refused if not IR-track)."""
    entry = CHALLENGES.get(name)
    if not isinstance(entry, IRChallenge):
        raise BadParameter(f"challenge '{name}' is not scored from IR", hint="IR challenges: " + ", ".join(ir_names()))
    return entry


def ir_names() -> list[str]:
    return [c.name for c in CHALLENGES if isinstance(c, IRChallenge)]


def score_ir(challenge: str, text: str, *, seeds: Sequence[int] | None = None, subject: str = "ir") -> RunResult:
    """Price and check ``text`` on ``challenge``; ``seeds`` fixes hidden instances (None: fresh from ``secrets``).

    Raises InvalidProgram for malformed programs; returns ok=False with ``failure`` for wrong answers.
    metrics: {"dally@1": cost}; counts: instructions, reads (operand reads + output reads), instances;
    attribution: cost and reads by spiral ring (addresses (r-1)²+1..r², cost r each).
    """
    started = time.perf_counter()
    spec = ir_challenge(challenge)
    program = parse(text, spec.dialect)
    slots = check(program, spec.dialect, Expect(spec.n_inputs, spec.n_outputs, spec.inputs_what, spec.outputs_what))
    read_addr = np.concatenate((program.reads()[1], program.outputs))
    costs = read_cost(read_addr)
    cost = int(costs.sum()) if costs.size else 0
    tests = spec.test_set(seeds)
    failure = _failure(program, spec, tests, slots)
    return RunResult(
        challenge=spec.name,
        subject=subject,
        kind="ir",
        ok=failure is None,
        seeds=[int(s) for s in tests.seeds],
        failure=None if failure is None else failure[0],
        failure_kind=None if failure is None else failure[1],
        metrics={METRIC: cost},
        metric_scopes={METRIC: "static (whole program)"},
        wall_s=time.perf_counter() - started,
        counts={
            "instructions": program.n_instructions,
            "reads": int(read_addr.size),
            "instances": int(tests.inputs.shape[0]),
        },
        attribution=_by_ring(costs),
        dialect=spec.dialect.name,
    )


def _failure(program: Program, spec: IRChallenge, tests: TestSet, slots: object) -> tuple[str, FailureKind] | None:
    """None if every instance passes; else one line naming the first failing instance (and output), and whether
    the program faulted (an error) or answered wrongly."""
    n_inst = tests.inputs.shape[0]
    kind = "hidden instance" if tests.hidden else "test instance"
    try:
        actual = run(program, slots, spec.dialect, tests.inputs)  # type: ignore[arg-type]
    except RunFault as fault:
        line = int(program.line[fault.index])
        return f"line {line}: division by zero on {kind} {fault.instance + 1}/{n_inst}", FailureKind.ERROR
    right = actual == tests.expected
    if spec.threshold >= 1.0:
        bad = np.flatnonzero(~right.all(axis=1))
        if not bad.size:
            return None
        i = int(bad[0])
        j = int(np.argmin(right[i]))
        return (
            f"wrong answer on {kind} {i + 1}/{n_inst}: output {j + 1} (address {program.outputs[j]}) "
            f"is {actual[i, j]}, expected {tests.expected[i, j]}",
            FailureKind.WRONG_ANSWER,
        )
    share = right.mean(axis=1)
    low = np.flatnonzero(share < spec.threshold)
    if not low.size:
        return None
    i = int(low[0])
    return (
        f"only {share[i]:.0%} of outputs right on {kind} {i + 1}/{n_inst}; needs ≥ {spec.threshold:.0%}",
        FailureKind.WRONG_ANSWER,
    )


def _by_ring(costs: np.ndarray) -> dict[str, dict[str, float]]:
    """dally@1 cost and read count per spiral ring: ring r holds addresses (r-1)²+1 .. r², each read costing r.

    Two runs compared ring by ring show where their cost moved (engine.md §3 attribution).
    """
    if not costs.size:
        return {"dally@1 by address ring": {}, "reads by address ring": {}}
    if costs.dtype != object and int(costs.max()) < 4096:
        counts = np.bincount(costs)
        rings = np.flatnonzero(counts)
        reads = counts[rings]
    else:
        rings, reads = np.unique(costs, return_counts=True)
    cost_by: dict[str, float] = {}
    reads_by: dict[str, float] = {}
    for r, k in zip(rings.tolist(), reads.tolist(), strict=True):
        label = f"{(r - 1) ** 2 + 1}-{r * r}"
        cost_by[label] = r * k
        reads_by[label] = k
    return {"dally@1 by address ring": cost_by, "reads by address ring": reads_by}


def infer_challenges(text: str) -> list[str]:
    """IR challenges whose input and output counts match the program's first and last lines (maybe several)."""
    first, last = statement_ends(text)
    if first is None or last is None:
        return []
    n_in = len([t for t in first.split(",") if t.strip()])
    n_out = len([t for t in last.split(",") if t.strip()])
    return [c.name for c in CHALLENGES if isinstance(c, IRChallenge) and (c.n_inputs, c.n_outputs) == (n_in, n_out)]
