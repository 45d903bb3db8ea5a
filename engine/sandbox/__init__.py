"""Running code from strangers: the sandboxed runner, its tiers, and the unforgeable solve() judge.

Public API (imported lazily so that the sandboxed child, which imports a few of these modules, stays light):
- ``probe_tier() -> TierReport`` — the tier this machine offers (A/B/C/D), probed once, with a one-line
  description.
- ``detect_kind(text) -> str`` and ``lint(code, kind) -> LintReport`` — what a submission is; the L0 checks.
- ``run_generate(code, limits) -> GeneratedIR`` — run a ``generate()`` in the sandbox; only its IR text
  returns.
- ``run_trusted_limited(fn_qualified_name, args, limits) -> object`` — a trusted function in an rlimited
  process.
- ``judge_solve(code, *, n_bits, k_sparse, instances, limits) -> RunResult`` — remote-arrays judging.

Design: docs/sandbox.md; metering convention: docs/metrics.md#trackedarray-convention.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "probe_tier": "engine.sandbox.tier",
    "TierReport": "engine.sandbox.tier",
    "Limits": "engine.sandbox.limits",
    "DEFAULT_LIMITS": "engine.sandbox.limits",
    "detect_kind": "engine.sandbox.lint",
    "lint": "engine.sandbox.lint",
    "LintReport": "engine.sandbox.lint",
    "SubmissionRefused": "engine.sandbox.lint",
    "run_generate": "engine.sandbox.generate",
    "GeneratedIR": "engine.sandbox.generate",
    "run_trusted_limited": "engine.sandbox.trusted",
    "judge_solve": "engine.sandbox.judge",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'engine.sandbox' has no attribute {name!r}")
