"""Judge a submission (IR text, a Python ``generate()`` or a numpy ``solve()``), store it once, log it.

The one entry point other parts call (``/submit``, ``/idea``): :func:`judge_submission`. Submitted code never
runs in the calling process: IR text is scored by the trusted scorer in a resource-limited child
(``engine.ir.verdict:score_or_reject`` through ``run_trusted_limited``); ``generate()`` runs in the sandbox
and only its IR text comes back, to be scored the same way; ``solve()`` is judged with remote arrays
(``engine.sandbox.judge_solve``: accuracy and dmc/ard measured by the parent). Every answer goes through
:func:`bot.recording.record_once`, keyed by kind + challenge + label + parameters + normalised code + metric
versions, so the same submission returns its stored result unless ``force``. Design: design/sandbox.md.
"""

from __future__ import annotations

from bot.commands.base import Progress, UsageError
from bot.context import AppContext
from bot.recording import Recorded, record_once
from engine.errors import EngineError, UnknownName
from engine.ir.parser import statement_ends
from engine.ir.scoring import METRIC, infer_challenges, ir_challenge, ir_names
from engine.metrics.clock import ARD, ARD_PER_READ, DMC
from engine.result import RunResult
from engine.sandbox.generate import run_generate
from engine.sandbox.judge import judge_solve
from engine.sandbox.lint import SubmissionRefused, detect_kind, lint
from engine.sandbox.tier import TierReport, probe_tier
from engine.sandbox.trusted import LimitExceeded, run_trusted_limited
from tools.run_request import NormalisedRequest

SCORER = "engine.ir.verdict:score_or_reject"
SOLVE_CHALLENGE = "sparse_parity"
SOLVE_N_BITS, SOLVE_K_SPARSE, SOLVE_INSTANCES = 20, 3, 3
SOLVE_PARAMS = {"n_bits": SOLVE_N_BITS, "k_sparse": SOLVE_K_SPARSE, "instances": SOLVE_INSTANCES}
SOLVE_METRICS = (DMC, ARD, ARD_PER_READ)
TRUSTED_NOTE = "IR text scored by the trusted scorer in a resource-limited process (no submitted code runs)"


def _quiet(message: str, fraction: float | None = None) -> None:
    """Progress sink used when the caller passes none."""


def score_ir_limited(challenge: str, text: str, *, label: str, kind: str = "ir") -> RunResult:
    """Score IR ``text`` on ``challenge`` in a resource-limited child; a limit hit is a failed result."""
    try:
        value = run_trusted_limited(SCORER, [challenge, text, label])
    except LimitExceeded as err:
        return RunResult(challenge=challenge, subject=label, kind=kind, ok=False, failure=f"scorer: {err}")
    result = RunResult(**value)
    result.kind = kind
    return result


def _ir_challenge_name(challenge: str | None, text: str, *, what: str) -> str:
    """The named IR challenge (checked), or the single one whose input/output counts fit ``text``."""
    if challenge is not None:
        try:
            return ir_challenge(challenge).name
        except UnknownName as err:
            raise UsageError(err.message, hint=err.hint) from None
    fits = infer_challenges(text)
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise UsageError(
            f"several challenges fit {what}'s input/output counts: {', '.join(fits)}",
            hint="name the challenge (--challenge NAME, or /submit NAME in the chat)",
        )
    raise UsageError(
        f"no IR challenge has {what}'s input and output counts",
        hint="name the challenge; IR challenges: " + ", ".join(ir_names()),
    )


def _output_mismatch(challenge: str, text: str) -> str | None:
    """One line ("your generate() returned 12 outputs, matmul_4x4 needs 16") or None when the count fits."""
    _, last = statement_ends(text)
    if last is None:
        return "your generate() returned no IR program (it needs an input line, instructions and an output line)"
    n_out = len([t for t in last.split(",") if t.strip()])
    needed = ir_challenge(challenge).n_outputs
    if n_out != needed:
        return f"your generate() returned {n_out} outputs, {challenge} needs {needed}"
    return None


def _with_provenance(result: RunResult, tier: str | None, sandbox: str, flags: list[str]) -> RunResult:
    result.extra = {**result.extra, "sandbox_tier": tier, "sandbox": sandbox, "review_flags": flags}
    return result


def _checked_tier(ctx: AppContext) -> TierReport:
    """The probed sandbox tier; refuses at tier D unless ``dev_allow_unsandboxed`` is set."""
    report = probe_tier()
    if not report.runs_submissions and not ctx.settings.dev_allow_unsandboxed and report.tier != "D":
        message, hint = report.refusal  # tier B/C sharing the bot's uid, without SUTRO_ALLOW_WEAK_SANDBOX
        raise SubmissionRefused(message, hint=hint)
    if not report.runs_submissions and not ctx.settings.dev_allow_unsandboxed:
        raise SubmissionRefused(
            "this machine offers no sandbox (tier D), so submitted code is not run",
            hint="install bubblewrap/libseccomp2 and pyseccomp, or set SUTRO_DEV_ALLOW_UNSANDBOXED=1 for "
            "development only",
        )
    return report


def _judge_ir(
    ctx: AppContext,
    text: str,
    challenge: str | None,
    label: str,
    member: str,
    force: bool,
    progress: Progress,
) -> Recorded:
    name = _ir_challenge_name(challenge, text, what="this program")
    request = NormalisedRequest(challenge=name, kind="ir", subject=label, code=text, metric_versions=(METRIC,))

    def compute() -> RunResult:
        progress(f"scoring the IR program on {name}", None)
        return _with_provenance(score_ir_limited(name, text, label=label), None, TRUSTED_NOTE, [])

    return record_once(ctx, request, compute, member=member, force=force)


def _judge_generate(
    ctx: AppContext,
    code: str,
    challenge: str | None,
    label: str,
    member: str,
    force: bool,
    progress: Progress,
) -> Recorded:
    flags = lint(code, "generate").flags
    tier = _checked_tier(ctx)
    dev = ctx.settings.dev_allow_unsandboxed
    limits = ctx.run_policy().sandbox_limits()
    early = None
    if challenge is None:  # the challenge comes from what generate() returns: run it first
        progress("running your generate() in the sandbox", None)
        early = run_generate(code, tier=tier, dev_override=dev, limits=limits)
        if not early.ok:
            raise EngineError(f"your generate() failed: {early.failure}", hint="fix it and submit again")
        assert early.text is not None
        name = _ir_challenge_name(None, early.text, what="the program your generate() returned")
    else:
        name = _ir_challenge_name(challenge, "", what="")
    request = NormalisedRequest(challenge=name, kind="generate", subject=label, code=code, metric_versions=(METRIC,))

    def compute() -> RunResult:
        generated = early
        if generated is None:
            progress("running your generate() in the sandbox", None)
            generated = run_generate(code, tier=tier, dev_override=dev, limits=limits)
        if not generated.ok or generated.text is None:
            failure = f"your generate() failed: {generated.failure}"
            result = RunResult(challenge=name, subject=label, kind="generate", ok=False, failure=failure)
        elif (mismatch := _output_mismatch(name, generated.text)) is not None:
            result = RunResult(challenge=name, subject=label, kind="generate", ok=False, failure=mismatch)
        else:
            progress(f"scoring the generated IR on {name}", None)
            result = score_ir_limited(name, generated.text, label=label, kind="generate")
            result.counts = {**result.counts, "ir_bytes": len(generated.text.encode())}
        result.wall_s += generated.wall_s
        return _with_provenance(result, tier.tier, tier.description, flags)

    return record_once(ctx, request, compute, member=member, force=force)


def _judge_solve(
    ctx: AppContext,
    code: str,
    challenge: str | None,
    label: str,
    member: str,
    force: bool,
    progress: Progress,
) -> Recorded:
    if challenge is not None and challenge != SOLVE_CHALLENGE:
        raise UsageError(
            f"a solve() submission is judged on {SOLVE_CHALLENGE}, not {challenge}",
            hint="leave out the challenge, or send IR / a generate() for IR challenges",
        )
    lint(code, "solve")
    tier = _checked_tier(ctx)
    limits = ctx.run_policy().sandbox_limits()
    request = NormalisedRequest(
        challenge=SOLVE_CHALLENGE,
        kind="solve",
        subject=label,
        params=dict(SOLVE_PARAMS),
        code=code,
        metric_versions=SOLVE_METRICS,
    )

    def compute() -> RunResult:
        progress(f"judging solve() on {SOLVE_PARAMS['instances']} hidden instances (remote arrays)", None)
        return judge_solve(
            code,
            n_bits=SOLVE_N_BITS,
            k_sparse=SOLVE_K_SPARSE,
            instances=SOLVE_INSTANCES,
            tier=tier,
            dev_override=ctx.settings.dev_allow_unsandboxed,
            label=label,
            limits=limits,
        )

    return record_once(ctx, request, compute, member=member, force=force)


def judge_submission(
    ctx: AppContext,
    code: str,
    *,
    challenge: str | None,
    label: str,
    member: str,
    force: bool = False,
    progress: Progress | None = None,
) -> Recorded:
    """Detect what ``code`` is, judge it safely, store it once and log it; the stored answer when seen before.

    Raises EngineError / UsageError (one line with a hint) for an unclear kind, a forbidden import, an unknown
    or unfitting challenge, or tier D without the development override. Failures of the submission itself
    (wrong answer, limits, a broken generator) come back as a stored result with ``ok=False``.
    """
    if not code.strip():
        raise UsageError("the submission is empty", hint="send IR text, generate() or solve(x, y, n_bits, k_sparse)")
    kind = detect_kind(code, ctx.run_policy().sandbox_limits().source_bytes)  # size-capped before parsing
    judge = {"ir": _judge_ir, "generate": _judge_generate, "solve": _judge_solve}[kind]
    return judge(ctx, code, challenge, label, member, force, progress or _quiet)
