"""Running code from strangers: the sandboxed runner, its tiers, and the unforgeable solve() judge.

Public API (imported lazily so that the sandboxed child, which imports a few of these modules, stays light):
- ``probe_tier() -> TierReport`` — the tier this machine offers (A/B/C/D), probed once, with a one-line
  description.
- ``detect_kind(text) -> str`` and ``lint_submission(code, kind) -> LintReport`` — what a submission is; the L0 checks.
- ``run_generate(code, limits) -> GeneratedIR`` — run a ``generate()`` in the sandbox; only its IR text
  returns.
- ``run_trusted_limited(fn_qualified_name, args, limits) -> object`` — a trusted function in an rlimited
  process.
- ``judge_solve(code, *, n_bits, k_sparse, instances, limits) -> RunResult`` — remote-arrays judging.

Design: docs/sandbox.md; metering convention: docs/metrics.md#trackedarray-convention.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.sandbox.generate import GeneratedIR as GeneratedIR
    from engine.sandbox.generate import run_generate as run_generate
    from engine.sandbox.judge import FLOATS_READ as FLOATS_READ
    from engine.sandbox.judge import instance_data as instance_data
    from engine.sandbox.judge import judge_solve as judge_solve
    from engine.sandbox.limits import DEFAULT_LIMITS as DEFAULT_LIMITS
    from engine.sandbox.limits import GIB as GIB
    from engine.sandbox.limits import KIB as KIB
    from engine.sandbox.limits import MIB as MIB
    from engine.sandbox.limits import Limits as Limits
    from engine.sandbox.lint import LintReport as LintReport
    from engine.sandbox.lint import SubmissionRefused as SubmissionRefused
    from engine.sandbox.lint import detect_kind as detect_kind
    from engine.sandbox.lint import lint_submission as lint_submission
    from engine.sandbox.lint import python_normal_form as python_normal_form
    from engine.sandbox.result_keys import HIDDEN_INSTANCES as HIDDEN_INSTANCES
    from engine.sandbox.tier import TierReport as TierReport
    from engine.sandbox.tier import probe_tier as probe_tier
    from engine.sandbox.trusted import LimitExceeded as LimitExceeded
    from engine.sandbox.trusted import run_trusted_limited as run_trusted_limited

_PUBLIC: dict[str, str] = {
    "DEFAULT_LIMITS": "engine.sandbox.limits",
    "FLOATS_READ": "engine.sandbox.judge",
    "GIB": "engine.sandbox.limits",
    "GeneratedIR": "engine.sandbox.generate",
    "HIDDEN_INSTANCES": "engine.sandbox.result_keys",
    "KIB": "engine.sandbox.limits",
    "LimitExceeded": "engine.sandbox.trusted",
    "Limits": "engine.sandbox.limits",
    "LintReport": "engine.sandbox.lint",
    "MIB": "engine.sandbox.limits",
    "SubmissionRefused": "engine.sandbox.lint",
    "TierReport": "engine.sandbox.tier",
    "detect_kind": "engine.sandbox.lint",
    "instance_data": "engine.sandbox.judge",
    "judge_solve": "engine.sandbox.judge",
    "lint_submission": "engine.sandbox.lint",
    "probe_tier": "engine.sandbox.tier",
    "python_normal_form": "engine.sandbox.lint",
    "run_generate": "engine.sandbox.generate",
    "run_trusted_limited": "engine.sandbox.trusted",
}
"""Names the package offers from its modules, loaded on first use (the sandboxed child imports few of them)."""

__all__ = sorted(_PUBLIC)

if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
