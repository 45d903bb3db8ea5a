"""A long-lived judge of IR programs on one board: the board's fixed data prepared once, each candidate judged in
this process in milliseconds (docs/performance.md#judging-many-programs).

Why: a search loop or a directory of programs judges thousands of candidates against the same board. Paying a new
process per candidate (about a second of start-up) or rebuilding the board's fixed data per call (the mask suite,
the expected matmul polynomials) would dominate. IR programs are data — parsed and simulated, never executed as
Python — so judging them in process is how the project scores IR everywhere (:func:`engine.scoring.ir.score_ir`).

Same rules and verdicts as :func:`engine.scoring.ir.score_ir`, by board kind:

* **matmul** (rules@2): the program is parsed and checked (a broken rule is refused with the parser's line), priced,
  then checked symbolically with :class:`engine.challenges.matmul_identity.MatmulIdentity`. A program whose
  outputs are the product polynomials is right on every instance, the fixed test instance included, so its run is
  skipped; only a program that fails the identity is also run on the test instance, so that its reason is the one
  ``score_ir`` gives (a wrong answer on the instance is reported before a failed identity).
* **banded boards** (mask sparse parity): parsed, checked, priced, then run on the deterministic dev suite (built
  once) with the compiled lane runner (:func:`engine.ir.lanes.run_lanes`); the exact answers are counted and the
  band found as :func:`engine.scoring.recovery.score_recovery` does. A judge made for one band (``band=60``) accepts
  only programs reaching that band or a higher one.
* **other IR boards** (sparse parity, symmetry: fresh hidden instances on every scoring): judged by
  :func:`engine.scoring.ir.score_on` itself.

Property tests compare every verdict with ``score_ir`` on the group's published programs and on mutated ones.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from engine.challenges.ir_track import BAND_PARAM, IRChallenge
from engine.challenges.mask_parity_suite import MaskSuite, dev_suite
from engine.challenges.mask_sparse_parity import band_of
from engine.challenges.matmul import NAME as MATMUL_NAME
from engine.challenges.matmul_identity import MatmulIdentity
from engine.errors import BadParameter, EngineError
from engine.ir.cost import read_cost
from engine.ir.lanes import run_lanes
from engine.ir.parser import parse
from engine.ir.program import Program
from engine.ir.simulate import RunFault
from engine.ir.static_check import Expect, Slots, check
from engine.metrics.registry import DALLY
from engine.result import FailureKind
from engine.scoring.ir import _failure, ir_challenge, score_on


@dataclass(frozen=True)
class ProgramVerdict:
    """One judged program.

    cost: its dally@1 (static, so a wrong program has one too); None when the text breaks a rule and cannot be
        priced.
    correct: whether it passes the board's correctness rule (and, on a banded board, reaches the judge's band).
    reason: one line when not correct (the scorer's message), else None.
    failure_kind: ``rejected`` for a broken rule, ``wrong_answer`` for a wrong result or a band not reached,
        ``error`` for a division by zero; None when correct.
    instructions, reads: sizes of a parsed program (None when it was refused before).
    instances: how many instances it was checked on (0 when refused before running).
    successes: exact answers on the dev suite (banded boards), else None.
    band: the highest recovery band reached (banded boards), else None.
    rules: the correctness rules it was judged under (``matmul rules@2``), "" where they never changed.
    seconds: wall time of this judgement.
    """

    challenge: str
    cost: int | None
    correct: bool
    reason: str | None
    failure_kind: FailureKind | None = None
    instructions: int | None = None
    reads: int | None = None
    instances: int = 0
    successes: int | None = None
    band: int | None = None
    rules: str = ""
    seconds: float = 0.0

    @property
    def accuracy(self) -> float | None:
        """Dev recovery (successes / instances) on a banded board, else None."""
        if self.successes is None or not self.instances:
            return None
        return self.successes / self.instances


@dataclass(frozen=True)
class _Parsed:
    program: Program
    slots: Slots
    cost: int
    reads: int


class ProgramJudge:
    """Judge many IR programs on one board: ``ProgramJudge("matmul_16x16").judge(text)``.

    ``band``: on a banded board, the band (percent) a program must reach to be correct (default: the lowest band,
    as ``score_ir`` passes a program); refused on other boards and for a band the board does not have.
    Raises :class:`engine.errors.BadParameter` (one line, with a hint) for a board that is not IR-track.
    """

    def __init__(self, challenge: str, *, band: int | None = None) -> None:
        self.spec: IRChallenge = ir_challenge(challenge)
        spec = self.spec
        if band is not None and band not in spec.bands:
            raise BadParameter(
                f"{spec.name} has no {band} % band",
                hint="bands: " + ", ".join(map(str, spec.bands)) if spec.bands else f"{spec.name} has no bands",
            )
        self.band = band if band is not None else (min(spec.bands) if spec.bands else None)
        self._expect = Expect(spec.n_inputs, spec.n_outputs, spec.inputs_what, spec.outputs_what)
        match = MATMUL_NAME.fullmatch(spec.name)
        self._identity = MatmulIdentity(int(match.group(1))) if match and spec.identity_check is not None else None
        self._suite: MaskSuite | None = dev_suite() if spec.bands else None
        self._tests = spec.test_set(None) if self._identity is not None else None

    @property
    def params(self) -> dict[str, int]:
        """The board's instance parameters this judge holds programs to (``{"band": 60}``), {} when none."""
        return {} if self.band is None else {BAND_PARAM: self.band}

    def judge(self, text: str) -> ProgramVerdict:
        """Judge one program text; never raises for a bad program (its reason says why it is not correct)."""
        started = time.perf_counter()
        if self._identity is not None:
            verdict = self._judge_matmul(text)
        elif self._suite is not None:
            verdict = self._judge_banded(text, self._suite)
        else:
            verdict = self._judge_other(text)
        return replace(verdict, seconds=time.perf_counter() - started)

    def _parse(self, text: str) -> _Parsed:
        program = parse(text, self.spec.dialect)
        slots = check(program, self.spec.dialect, self._expect)
        read_addr = np.concatenate((program.reads()[1], program.outputs))
        costs = read_cost(read_addr)
        return _Parsed(program, slots, int(costs.sum()) if costs.size else 0, int(read_addr.size))

    def _refused(self, err: EngineError) -> ProgramVerdict:
        return ProgramVerdict(
            challenge=self.spec.name,
            cost=None,
            correct=False,
            reason=err.one_line(),
            failure_kind=FailureKind.REJECTED,
            rules=self.spec.rules,
        )

    def _judge_matmul(self, text: str) -> ProgramVerdict:
        assert self._identity is not None and self._tests is not None
        try:
            parsed = self._parse(text)
        except EngineError as err:
            return self._refused(err)
        program = parsed.program
        failure: tuple[str, FailureKind] | None = None
        symbolic = self._identity.check(program)
        if symbolic is not None:
            failure = _failure(program, self.spec, self._tests, parsed.slots)
            if failure is None:
                failure = (symbolic.message, FailureKind.WRONG_ANSWER)
        return ProgramVerdict(
            challenge=self.spec.name,
            cost=parsed.cost,
            correct=failure is None,
            reason=None if failure is None else failure[0],
            failure_kind=None if failure is None else failure[1],
            instructions=program.n_instructions,
            reads=parsed.reads,
            instances=int(self._tests.inputs.shape[0]),
            rules=self.spec.rules,
        )

    def _judge_banded(self, text: str, suite: MaskSuite) -> ProgramVerdict:
        try:
            parsed = self._parse(text)
        except EngineError as err:
            return self._refused(err)
        program = parsed.program
        base = ProgramVerdict(
            challenge=self.spec.name,
            cost=parsed.cost,
            correct=False,
            reason=None,
            instructions=program.n_instructions,
            reads=parsed.reads,
            instances=suite.size,
            rules=self.spec.rules,
        )
        try:
            actual = run_lanes(program, parsed.slots, self.spec.dialect, suite.inputs)
        except RunFault as fault:
            line = int(program.line[fault.index])
            reason = f"line {line}: division by zero on instance {fault.instance + 1}/{suite.size} of suite {suite.key}"
            return replace(base, reason=reason, failure_kind=FailureKind.ERROR)
        successes = int(np.count_nonzero((actual == suite.masks).all(axis=1)))
        band = band_of(successes, suite.size, self.spec.bands)
        wanted = self.band if self.band is not None else min(self.spec.bands)
        if band is not None and band >= wanted:
            return replace(base, correct=True, successes=successes, band=band)
        share = successes / suite.size
        if band is None:
            reason = (
                f"recovered the secret on {successes:,} of {suite.size:,} dev instances ({share:.1%}); "
                f"the lowest band is {min(self.spec.bands)}%"
            )
        else:
            reason = (
                f"recovered the secret on {successes:,} of {suite.size:,} dev instances ({share:.1%}): "
                f"the {band} % band, below this board's {wanted} %"
            )
        return replace(base, reason=reason, failure_kind=FailureKind.WRONG_ANSWER, successes=successes, band=band)

    def _judge_other(self, text: str) -> ProgramVerdict:
        try:
            result = score_on(self.spec, text, subject="candidate")
        except EngineError as err:
            return self._refused(err)
        return ProgramVerdict(
            challenge=self.spec.name,
            cost=int(result.metrics[DALLY]),
            correct=result.ok,
            reason=None if result.ok else result.failure,
            failure_kind=None if result.ok else result.failure_kind,
            instructions=result.counts.get("instructions"),
            reads=result.counts.get("reads"),
            instances=result.counts.get("instances", 0),
            rules=self.spec.rules,
        )
