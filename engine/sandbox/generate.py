"""The ``generate()`` path: run a member's IR generator in the sandbox; only its IR text comes back.

Scoring that text is the trusted IR scorer's job (``engine.scoring.ir.score_ir``), wired in by the caller;
IR size drives the scorer's time, so callers run it through ``run_trusted_limited``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from engine.result import FailureKind
from engine.sandbox.launch import run_submission
from engine.sandbox.limits import DEFAULT_LIMITS, MIB, Limits
from engine.sandbox.lint import check_source_size, lint
from engine.sandbox.results import BadResult, check_text
from engine.sandbox.tier import TierReport, probe_tier

MAX_IR_BYTES = 8 * MIB  # a 100,000-line IR program is ~2 MiB


@dataclass(frozen=True)
class GeneratedIR:
    """What a generate() produced: ``text`` when it worked, else ``failure`` (one line) and its kind. Never both."""

    text: str | None
    failure: str | None
    wall_s: float
    tier: str
    code_hash: str
    flags: list[str] = field(default_factory=list)
    failure_kind: FailureKind | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None


def run_generate(
    code: str,
    limits: Limits = DEFAULT_LIMITS,
    *,
    tier: TierReport | None = None,
    dev_override: bool = False,
    check_imports: bool = True,
) -> GeneratedIR:
    """Run ``generate()`` from ``code`` in a fresh sandboxed child. Raises SubmissionRefused before running
    when the lint refuses the code or the machine is at tier D without ``dev_override``.

    ``check_imports=False`` skips the lint and the child's import guard; the exploit suite uses it to
    show that the OS layers hold on their own.
    """
    report = tier or probe_tier()
    check_source_size(code, limits.source_bytes)
    report_l0 = lint(code, "generate", limits.source_bytes) if check_imports else None
    flags = report_l0.flags if report_l0 else []
    # numpy costs ~0.1 s to import: preload it (before the uid drop) only for code that imports it
    numpy = report_l0 is None or "numpy" in report_l0.imports
    code_hash = hashlib.sha256(code.encode()).hexdigest()
    out = run_submission(
        {"mode": "generate", "code": code, "check_imports": check_imports, "numpy": numpy},
        limits,
        tier=report,
        dev_override=dev_override,
        result_cap=MAX_IR_BYTES + 4096,
    )
    failure, text, kind = out.failure, None, out.failure_kind
    if failure is None and out.final is not None:
        try:
            text = check_text(out.final)
        except BadResult as exc:
            failure, kind = f"rejected result: {exc}", FailureKind.REJECTED
        else:
            if len(text.encode()) > MAX_IR_BYTES:
                failure, text, kind = (
                    f"your generate() returned more than {MAX_IR_BYTES // MIB} MiB of IR text",
                    None,
                    FailureKind.LIMIT,
                )
    if failure is not None and kind is None:
        kind = FailureKind.ERROR
    return GeneratedIR(text, failure, out.wall_s, report.tier, code_hash, flags, kind)
