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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.attribution.rings import ring_attribution
from engine.challenges import CHALLENGES
from engine.challenges.ir_track import IRChallenge, TestSet
from engine.errors import BadParameter, EngineError, UnknownName
from engine.ir.cost import read_cost
from engine.ir.parser import parse, statement_ends
from engine.ir.program import Program
from engine.ir.short_path import MAX_STEPS, ShortProgram, compile_short
from engine.ir.simulate import RunFault, run
from engine.ir.static_check import Expect, Slots, check
from engine.metrics.registry import DALLY
from engine.result import FailureKind, RunResult
from engine.scoring.recovery import score_recovery

METRIC = DALLY


def ir_challenge(name: str) -> IRChallenge:
    """The registered IR-track challenge called ``name`` (did-you-mean on a typo; refused if not IR-track)."""
    entry = CHALLENGES.get(name)
    if not isinstance(entry, IRChallenge):
        raise BadParameter(
            f"challenge '{name}' is not scored from IR", hint="IR challenges: " + ", ".join(current_ir_names())
        )
    return entry


def ir_names() -> list[str]:
    """The listed IR-track challenges (family members reached by name, e.g. ``matmul_32x32``, are not listed)."""
    return [c.name for c in CHALLENGES if isinstance(c, IRChallenge)]


def current_ir_names() -> list[str]:
    """:func:`ir_names` less the challenges the group has retired (what hints offer; retired ones stay scoreable)."""
    return [c.name for c in CHALLENGES if isinstance(c, IRChallenge) and c.retired is None]


def is_ir_name(name: str) -> bool:
    """Whether ``name`` is an IR-track challenge, listed or reached by name through a family (``matmul_32x32``).

    A family name out of range (``matmul_100x100``) counts too: :func:`ir_challenge` then refuses it in one line
    that gives the range, which tells the user more than "unknown name".
    """
    try:
        return isinstance(CHALLENGES.get(name), IRChallenge)
    except UnknownName:
        return False
    except EngineError:
        return True


def score_ir(challenge: str, text: str, *, seeds: Sequence[int] | None = None, subject: str = "ir") -> RunResult:
    """Price and check ``text`` on ``challenge``; ``seeds`` fixes hidden instances (None: fresh from ``secrets``).

    Raises InvalidProgram for malformed programs; returns ok=False with ``failure`` for wrong answers.
    metrics: {"dally@1": cost}; counts: instructions, reads (operand reads + output reads), instances;
    attribution: cost and reads by spiral ring (addresses (r-1)²+1..r², cost r each).
    """
    started = time.perf_counter()
    return score_on(ir_challenge(challenge), text, seeds=seeds, subject=subject, started=started)


def score_on(
    spec: IRChallenge,
    text: str,
    *,
    seeds: Sequence[int] | None = None,
    subject: str = "ir",
    started: float | None = None,
    line_loop: bool = True,
) -> RunResult:
    """:func:`score_ir` on a challenge value (one not in the registry too, e.g. ``matmul_challenge(64)``).

    Short programs take the line loop of :mod:`engine.ir.short_path` (``line_loop=False`` forces the array path;
    both give the same result, which a property test checks). A challenge scored by recovery bands (mask sparse
    parity) is scored by :func:`engine.scoring.recovery.score_recovery`."""
    started = time.perf_counter() if started is None else started
    if spec.bands:
        return score_recovery(spec, text, subject=subject, started=started)
    short = compile_short(text, spec.dialect, spec.n_inputs, spec.n_outputs) if line_loop else None
    scored = None
    if short is not None:
        tests = spec.test_set(seeds)
        scored = _short_score(short, spec, tests)
    program: Program | None = None
    if scored is None:
        program, slots = _checked(spec, text)
        if short is None:
            tests = spec.test_set(seeds)
        scored = _array_score(program, slots, spec, tests)
    if scored.failure is None and spec.identity_check is not None:
        failure = spec.identity_check(program if program is not None else parse(text, spec.dialect))
        if failure is not None:
            scored = replace(scored, failure=(failure, FailureKind.WRONG_ANSWER))
    return RunResult(
        challenge=spec.name,
        subject=subject,
        kind="ir",
        ok=scored.failure is None,
        seeds=[int(s) for s in tests.seeds],
        failure=None if scored.failure is None else scored.failure[0],
        failure_kind=None if scored.failure is None else scored.failure[1],
        metrics={METRIC: scored.cost},
        metric_scopes={METRIC: "static (whole program)"},
        wall_s=time.perf_counter() - started,
        counts={
            "instructions": scored.n_instructions,
            "reads": scored.n_reads,
            "instances": int(tests.inputs.shape[0]),
        },
        attribution=_by_ring(scored.reads_by_ring),
        buffer_attribution=ring_attribution(scored.reads_by_ring, METRIC),
        dialect=spec.dialect.name,
        rules=spec.rules or None,
    )


@dataclass(frozen=True)
class _Scored:
    """What either path found: cost, reads per ring (ring r = reads costing r), sizes and the failure line."""

    cost: int
    reads_by_ring: Mapping[int, int]
    n_instructions: int
    n_reads: int
    failure: tuple[str, FailureKind] | None


def _checked(spec: IRChallenge, text: str) -> tuple[Program, Slots]:
    """The array path's parse and check (raises InvalidProgram)."""
    program = parse(text, spec.dialect)
    expect = Expect(spec.n_inputs, spec.n_outputs, spec.inputs_what, spec.outputs_what)
    return program, check(program, spec.dialect, expect)


def _array_score(program: Program, slots: Slots, spec: IRChallenge, tests: TestSet) -> _Scored:
    read_addr = np.concatenate((program.reads()[1], program.outputs))
    costs = read_cost(read_addr)
    return _Scored(
        cost=int(costs.sum()) if costs.size else 0,
        reads_by_ring=_ring_counts(costs),
        n_instructions=program.n_instructions,
        n_reads=int(read_addr.size),
        failure=_failure(program, spec, tests, slots),
    )


def _short_score(short: ShortProgram, spec: IRChallenge, tests: TestSet) -> _Scored | None:
    """The line loop's result; None when the run is too long for it or faults (the array path then explains)."""
    if not short.wrap8 and short.n_instructions * tests.inputs.shape[0] > MAX_STEPS:
        return None
    actual = short.run(tests.inputs)
    if actual is None:
        return None
    expected = tests.expected.tolist()
    return _Scored(
        cost=short.cost,
        reads_by_ring=short.reads_by_cost,
        n_instructions=short.n_instructions,
        n_reads=short.n_reads,
        failure=_failure_of_rows(actual, expected, short.outputs, spec, tests.hidden),
    )


def _failure_of_rows(
    actual: list[list[int]], expected: list[list[int]], outputs: list[int], spec: IRChallenge, hidden: bool
) -> tuple[str, FailureKind] | None:
    """:func:`_failure` on plain lists (same messages)."""
    n_inst = len(expected)
    kind = "hidden instance" if hidden else "test instance"
    for i, (got, want) in enumerate(zip(actual, expected, strict=True)):
        if spec.threshold >= 1.0:
            if got != want:
                j = next(j for j, (a, b) in enumerate(zip(got, want, strict=True)) if a != b)
                return (
                    f"wrong answer on {kind} {i + 1}/{n_inst}: output {j + 1} (address {outputs[j]}) "
                    f"is {got[j]}, expected {want[j]}",
                    FailureKind.WRONG_ANSWER,
                )
            continue
        share = sum(a == b for a, b in zip(got, want, strict=True)) / len(want)
        if share < spec.threshold:
            return (
                f"only {share:.0%} of outputs right on {kind} {i + 1}/{n_inst}; needs ≥ {spec.threshold:.0%}",
                FailureKind.WRONG_ANSWER,
            )
    return None


def _failure(program: Program, spec: IRChallenge, tests: TestSet, slots: Slots) -> tuple[str, FailureKind] | None:
    """None if every instance passes; else one line naming the first failing instance (and output)."""
    n_inst = tests.inputs.shape[0]
    kind = "hidden instance" if tests.hidden else "test instance"
    try:
        actual = run(program, slots, spec.dialect, tests.inputs)
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


def _ring_counts(costs: np.ndarray) -> dict[int, int]:
    """Reads per cost (= spiral ring) of an array of read costs."""
    if not costs.size:
        return {}
    if costs.dtype != object and int(costs.max()) < 4096:
        counts = np.bincount(costs)
        rings = np.flatnonzero(counts)
        return dict(zip(rings.tolist(), counts[rings].tolist(), strict=True))
    rings, reads = np.unique(costs, return_counts=True)
    return {int(r): int(k) for r, k in zip(rings.tolist(), reads.tolist(), strict=True)}


def _by_ring(reads_by_ring: Mapping[int, int]) -> dict[str, dict[str, float]]:
    """dally@1 cost and read count per spiral ring: ring r holds addresses (r-1)²+1 .. r², each read costing r.

    Two runs compared ring by ring show where their cost moved (docs/metrics.md#attribution).
    """
    cost_by: dict[str, float] = {}
    reads_by: dict[str, float] = {}
    for r in sorted(reads_by_ring):
        k = reads_by_ring[r]
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
