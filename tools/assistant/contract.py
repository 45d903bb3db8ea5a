"""Check a proposed submission against its challenge's contract, the way a stranger's code is checked.

Form method: the name is registered and the parameters parse (engine.methods.params). Forms solve/generate: the
code's kind (engine.sandbox.detect_kind), the import lint, then a DRY RUN in the sandbox — solve() on one hidden
instance (judge_solve), generate() produced and its IR checked on the challenge's tests (score_ir). Nothing is
stored. The answer is one line the model (and a person) can act on.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.challenges import CHALLENGES
from engine.errors import EngineError
from engine.methods import METHODS, parse_params
from engine.result import RunResult
from engine.sandbox import LimitExceeded, detect_kind, judge_solve, lint_submission, run_generate, run_trusted_limited
from engine.scoring import ir_names
from tools.assistant.spec import Submission

NUMPY_CHALLENGE = "sparse_parity"
SCORER = "engine.scoring.verdict:score_or_reject"


@dataclass(frozen=True)
class ContractCheck:
    """ok, and one line: what was measured (ok) or what is wrong (not ok)."""

    ok: bool
    message: str


def _bad(message: str) -> ContractCheck:
    return ContractCheck(False, message)


def _check_method(sub: Submission) -> ContractCheck:
    if sub.challenge != NUMPY_CHALLENGE:
        return _bad(f"registered methods run on {NUMPY_CHALLENGE}, not {sub.challenge}")
    if sub.method is None or sub.method not in METHODS:
        return _bad(f"unknown method '{sub.method}'; registered: {', '.join(METHODS.names())}")
    method = METHODS.get(sub.method)
    try:
        parsed = parse_params(sub.params, {"n": 20, "k": 3, "seed": 0, **method.defaults})
    except EngineError as err:
        return _bad(err.one_line())
    return ContractCheck(True, f"ok: {sub.method} with " + ", ".join(f"{k}={v}" for k, v in parsed.items()))


def _int_param(sub: Submission, key: str, default: int) -> int:
    value = sub.params.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineError(f"'{key}' must be an integer (got {value!r})")
    return value


def _check_solve(sub: Submission, dev_override: bool) -> ContractCheck:
    if sub.challenge != NUMPY_CHALLENGE:
        return _bad(f"solve() is judged on {NUMPY_CHALLENGE}, not {sub.challenge}")
    n_bits, k_sparse = _int_param(sub, "n_bits", 20), _int_param(sub, "k_sparse", 3)
    result = judge_solve(
        sub.code or "",
        n_bits=n_bits,
        k_sparse=k_sparse,
        instances=1,
        dev_override=dev_override,
        label="dry run",
    )
    if result.failure and result.accuracy is None:
        return _bad(f"the dry run failed: {result.failure}")
    accuracy = result.accuracy or 0.0
    dmc = result.metrics.get("dmc@1")
    measured = f"accuracy {accuracy:.1%}" + (f", dmc@1 {dmc:,.0f}" if dmc is not None else "")
    if not result.ok:
        return _bad(f"the dry run ran but did not pass ({measured}; needs ≥ 95%): {result.failure or ''}".strip())
    return ContractCheck(True, f"ok: dry run on one hidden instance (n={n_bits}, k={k_sparse}): {measured}")


def _check_generate(sub: Submission, dev_override: bool) -> ContractCheck:
    if sub.challenge not in ir_names():
        return _bad(f"generate() needs an IR challenge ({', '.join(ir_names())}), not {sub.challenge}")
    generated = run_generate(sub.code or "", dev_override=dev_override)
    if not generated.ok or generated.text is None:
        return _bad(f"generate() failed in the sandbox: {generated.failure}")
    try:  # the IR is scored by the trusted scorer in a resource-limited child, as for any submission
        result = RunResult.from_dict(run_trusted_limited(SCORER, [sub.challenge, generated.text, "dry run"]))
    except LimitExceeded as err:
        return _bad(f"scoring the IR hit a limit: {err}")
    if not result.ok:
        return _bad(f"the IR generate() returned is refused on {sub.challenge}: {result.failure}")
    cost = result.metrics.get("dally@1")
    return ContractCheck(True, f"ok: the IR is correct on {sub.challenge}'s tests, dally@1 = {cost:,.0f}")


def check_submission(sub: Submission, *, dev_override: bool = False) -> ContractCheck:
    """Check ``sub`` against its challenge's contract (dry run in the sandbox for code); never raises for bad code."""
    if sub.challenge not in CHALLENGES:
        return _bad(f"unknown challenge '{sub.challenge}'; registered: {', '.join(CHALLENGES.names())}")
    if sub.form == "method":
        return _check_method(sub)
    try:
        kind = detect_kind(sub.code or "")
        if kind != sub.form:
            return _bad(f"the code is a {kind} submission but the form says {sub.form}")
        lint_submission(sub.code or "", kind)
        if kind == "solve":
            return _check_solve(sub, dev_override)
        return _check_generate(sub, dev_override)
    except EngineError as err:
        return _bad(err.one_line())
