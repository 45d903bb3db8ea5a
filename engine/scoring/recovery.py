"""Score a recovery-banded IR challenge (mask sparse parity): exact answers counted, the band they reach, and the
adjudication on a fresh secret suite (docs/challenges.md#mask-sparse-parity).

Every scoring runs the program on the deterministic dev suite. A program that breaks a rule raises
:class:`engine.ir.errors.InvalidProgram` exactly as on the other IR challenges; a well-formed one returns a
RunResult whose ``accuracy`` is its dev recovery and whose ``recovery`` holds the integer counts, the suite's key and
digest and the band; ``params["band"]`` carries the band too, which places the result on its band's board
(tools/board.py). It passes (``ok``) when it reaches the lowest band.

Adjudication (:func:`adjudicate`) scores the same text on a freshly drawn 2,048-instance suite whose key comes
from :mod:`secrets`, as the group does when a result would decide a record; the key is disclosed in the audit
record afterwards, so anyone can re-draw the suite and check the count.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from engine.challenges.ir_track import IRChallenge
from engine.challenges.mask_parity_suite import DEV_SUITE_KEY, MaskSuite, dev_suite, fresh_suite
from engine.challenges.mask_sparse_parity import band_of, confirmed_band
from engine.ir.cost import read_cost
from engine.ir.parser import parse
from engine.ir.program import Program
from engine.ir.simulate import RunFault, run
from engine.ir.static_check import Expect, Slots, check
from engine.metrics.registry import DALLY
from engine.result import FailureKind, Recovery, RunResult, SuiteCount


def _checked(spec: IRChallenge, text: str) -> tuple[Program, Slots]:
    program = parse(text, spec.dialect)
    expect = Expect(spec.n_inputs, spec.n_outputs, spec.inputs_what, spec.outputs_what)
    return program, check(program, spec.dialect, expect)


def _count(program: Program, slots: Slots, spec: IRChallenge, suite: MaskSuite) -> SuiteCount | str:
    """Exact answers on ``suite``, or the one-line fault (division by zero) that stopped the run."""
    try:
        actual = run(program, slots, spec.dialect, suite.inputs)
    except RunFault as fault:
        line = int(program.line[fault.index])
        return f"line {line}: division by zero on instance {fault.instance + 1}/{suite.size} of suite {suite.key}"
    exact = int(np.count_nonzero((actual == suite.masks).all(axis=1)))
    return SuiteCount(suite_key=suite.key, suite_digest=suite.digest, successes=exact, instances=suite.size)


def score_recovery(spec: IRChallenge, text: str, *, subject: str = "ir", started: float | None = None) -> RunResult:
    """Price ``text`` and count its exact answers on the dev suite (raises InvalidProgram for a malformed one)."""
    started = time.perf_counter() if started is None else started
    program, slots = _checked(spec, text)
    read_addr = np.concatenate((program.reads()[1], program.outputs))
    costs = read_cost(read_addr)
    cost = int(costs.sum()) if costs.size else 0
    counted = _count(program, slots, spec, dev_suite())
    result = RunResult(
        challenge=spec.name,
        subject=subject,
        kind="ir",
        ok=False,
        metrics={DALLY: cost},
        metric_scopes={DALLY: "static (whole program)"},
        counts={
            "instructions": program.n_instructions,
            "reads": int(read_addr.size),
            "instances": dev_suite().size,
        },
        dialect=spec.dialect.name,
    )
    if isinstance(counted, str):
        result.failure, result.failure_kind = counted, FailureKind.ERROR
    else:
        band = band_of(counted.successes, counted.instances, spec.bands)
        result.recovery = Recovery(dev=counted, band=band)
        result.accuracy = counted.recovery
        result.counts["successes"] = counted.successes
        result.ok = band is not None
        result.params = {} if band is None else {"band": band}
        if band is None:
            result.failure = (
                f"recovered the secret on {counted.successes:,} of {counted.instances:,} dev instances "
                f"({counted.recovery:.1%}); the lowest band is {min(spec.bands)}%"
            )
            result.failure_kind = FailureKind.WRONG_ANSWER
    result.wall_s = time.perf_counter() - started
    return result


def adjudicate(spec: IRChallenge, text: str, result: RunResult, *, key: str | None = None) -> RunResult:
    """``result`` (a dev-suite scoring of ``text``) with the count on a fresh secret suite added and its band set
    to the one that count confirms (:func:`~engine.challenges.mask_sparse_parity.confirmed_band`: the dev band when
    the fresh recovery reaches it within its noise, else the highest lower band it reaches so). ``key`` re-draws a
    stored suite (checks and tests); None draws a new secret one."""
    if result.recovery is None:
        raise ValueError("only a recovery-scored result can be adjudicated")
    program, slots = _checked(spec, text)
    counted = _count(program, slots, spec, fresh_suite(key))
    if isinstance(counted, str):
        return replace(result, ok=False, failure=counted, failure_kind=FailureKind.ERROR)
    band = confirmed_band(result.recovery.band, counted, spec.bands)
    recovery = Recovery(dev=result.recovery.dev, band=band, adjudication=counted)
    params = {k: v for k, v in result.params.items() if k != "band"} | ({} if band is None else {"band": band})
    adjudicated = replace(result, recovery=recovery, ok=band is not None, params=params)
    if band is None:
        adjudicated.failure = (
            f"recovered the secret on {counted.successes:,} of {counted.instances:,} adjudication instances "
            f"({counted.recovery:.1%} ± {counted.noise_pp:.1f} pp); the lowest band is {min(spec.bands)}%"
        )
        adjudicated.failure_kind = FailureKind.WRONG_ANSWER
    return adjudicated


__all__ = ["DEV_SUITE_KEY", "adjudicate", "score_recovery"]
