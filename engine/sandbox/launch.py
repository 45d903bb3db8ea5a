"""Start one submission child at the probed tier: the layer settings, the tier-D refusal, the bwrap wrapper.

Shared by the generate() and solve() paths; the trusted path (rlimits only) lives in trusted.py.
"""

from __future__ import annotations

from typing import Any

from engine.sandbox.limits import Limits
from engine.sandbox.lint import SubmissionRefused
from engine.sandbox.seccomp_filter import library_paths
from engine.sandbox.tier import (
    SCRATCH_IN_BWRAP,
    TierReport,
    argv_prefix,
    probe_tier,
    read_only_prefixes,
    sealed_scratch_files,
)
from engine.sandbox.uid_pool import job_uid
from engine.sandbox.watchdog import ChildOutcome, Requests, run_child


def run_submission(
    config: dict[str, Any],
    limits: Limits,
    *,
    tier: TierReport | None,
    dev_override: bool,
    result_cap: int,
    on_request: Requests | None = None,
) -> ChildOutcome:
    """Run submitted code (``config`` names the mode and carries the code) with every layer the tier has."""
    report = tier or probe_tier()
    if not report.runs_submissions and not dev_override:
        message, hint = report.refusal
        raise SubmissionRefused(message, hint=hint)
    with job_uid(report.uid) as uid:  # a uid of its own while it runs: no other member's child shares it
        cfg = dict(
            config,
            read_only=read_only_prefixes(),
            libraries=library_paths() if report.seccomp else {},
            layers={"uid": uid, "landlock": report.landlock_abi > 0, "seccomp": report.seccomp},
        )
        if report.bubblewrap:
            cfg["scratch"] = SCRATCH_IN_BWRAP
        return run_child(
            cfg,
            limits,
            argv_prefix(report, limits),
            scratch_owner=uid,
            result_cap=result_cap,
            on_request=on_request,
            sealed_files=0 if report.bubblewrap else sealed_scratch_files(limits),
        )
