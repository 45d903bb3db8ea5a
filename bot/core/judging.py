"""Judge a submission — IR text, a Python ``generate()`` or a numpy ``solve()`` — safely, store it once, log it.

One path for ``/submit``, ``/score`` (a submission restricted to IR text) and an approved ``/idea``. Submitted code
never runs in the calling process:

- IR text is scored by the trusted scorer in a resource-limited child (``engine.scoring.verdict:score_or_reject``
  through ``run_trusted_limited``);
- ``generate()`` runs in the sandbox and only its IR text comes back, to be scored the same way;
- ``solve()`` is judged with remote arrays (``engine.sandbox.judge_solve``: accuracy and dmc/ard measured by the
  parent) on the current judge epoch's fixed secret suite (:mod:`bot.core.epochs`); a passing one is compared with
  the best built-in solver on the same hidden instances, which the system runs and stores first
  (:mod:`bot.core.solve_baseline`).

Every answer goes through :func:`bot.core.recording.record_once`, keyed by kind + challenge + parameters + normalised
code + metric versions (not the label), so identical code returns its stored result unless ``force``, credited to
its first submitter. The stored
result keeps its provenance: which path judged it and under which sandbox tier.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from bot.core.band_adjudication import adjudicated
from bot.core.epochs import EPOCH_PARAM, suite_of, the_current_epoch
from bot.core.recording import PublishedCredit, RecordedRun, record_once
from bot.core.scorer_limits import scorer_limits
from bot.core.services import Services
from bot.core.solve_baseline import ensure_solve_baseline
from bot.invocation import UsageError
from engine.errors import EngineError, UnknownName
from engine.ir import statement_ends
from engine.metrics import metrics_for
from engine.progress import Progress, no_progress
from engine.result import FailureKind, Provenance, RunResult
from engine.sandbox import (
    LimitExceeded,
    Limits,
    SubmissionRefused,
    TierReport,
    detect_kind,
    judge_solve,
    lint_submission,
    probe_tier,
    run_generate,
    run_trusted_limited,
)
from engine.scoring import current_ir_names, infer_challenges, ir_challenge
from storage.tables import ROLE_MEMBER, ROLE_PUBLISHED
from tools.config.schema import PRIMARY_METRIC_PREFIX
from tools.published.records import current_snapshot, find_copy
from tools.run_request import NormalisedRequest, code_hash

SCORER = "engine.scoring.verdict:score_or_reject"
SOLVE_CHALLENGE = "sparse_parity"
SOLVE_N_BITS, SOLVE_K_SPARSE, SOLVE_INSTANCES = 20, 3, 3
SOLVE_N_TRAIN, SOLVE_N_TEST = 200, 1000
"""Training and held-back test rows of each hidden instance (the judge's defaults, named: they shape the suite)."""
SOLVE_PARAMS = {"n_bits": SOLVE_N_BITS, "k_sparse": SOLVE_K_SPARSE, "instances": SOLVE_INSTANCES}
SOLVE_METRICS = metrics_for("numpy", "solve")
IR_METRICS = metrics_for("ir", "ir")
GENERATE_METRICS = metrics_for("ir", "generate")
TRUSTED_NOTE = "IR text scored by the trusted scorer in a resource-limited process (no submitted code runs)"
KINDS = ("ir", "generate", "solve")
SCRATCH_DIR = "scratch"
"""Below tier A each run's scratch is a sealed directory inside ``<data dir>/scratch`` (0700), not the host's /tmp."""


@dataclass(frozen=True)
class Submission:
    """Code to judge.

    code: IR text or Python source. challenge: the named challenge, or None to infer it. label: the leaderboard
    label. kinds: the kinds accepted here (``score`` accepts only ``ir``).
    """

    code: str
    label: str
    challenge: str | None = None
    kinds: tuple[str, ...] = KINDS
    origin: str = ""
    """A link to the Telegram message that sent it ("" when none): the sprint-log entry links to it."""
    logged: bool = True
    """Whether its result gets its own sprint-log entry; False when the caller logs it inside its own entry (an
    /explore loop's best is told in the loop's entry)."""


def judge(
    services: Services,
    submission: Submission,
    *,
    member: str,
    force: bool = False,
    progress: Progress = no_progress,
) -> RecordedRun:
    """Detect what the submission is, judge it safely, store it once and log it; the stored answer when seen before.

    Raises EngineError / UsageError (one line with a hint) for an unclear or unaccepted kind, a forbidden import,
    an unknown or unfitting challenge, a disabled challenge, or tier D without the development override. Failures
    of the submission itself (wrong answer, limits, a broken generator) come back as a stored result with
    ``ok=False`` and their :class:`FailureKind`.
    """
    code = submission.code
    if not code.strip():
        raise UsageError("the submission is empty", hint="send IR text, generate() or solve(x, y, n_bits, k_sparse)")
    policy = services.run_policy()
    policy.check_code_size(code)  # nothing over the stored-code cap is judged or stored
    # Python source is size-capped before anything parses it; IR is parsed only by the trusted scorer's limited child
    max_bytes = policy.sandbox_limits().source_bytes
    kind = "ir" if submission.kinds == ("ir",) else detect_kind(code, max_bytes)
    if kind not in submission.kinds:
        raise UsageError(f"a {kind} submission is not accepted here", hint="use submit for generate() and solve()")
    judge_kind = {"ir": _judge_ir, "generate": _judge_generate, "solve": _judge_solve}[kind]
    return judge_kind(services, submission, member, force, progress)


def score_ir_limited(challenge: str, text: str, *, label: str, kind: str = "ir") -> RunResult:
    """Score IR ``text`` on ``challenge`` in a resource-limited child; a limit hit is a failed result."""
    try:
        value = run_trusted_limited(SCORER, [challenge, text, label], scorer_limits(challenge))
    except LimitExceeded as err:
        return RunResult(
            challenge=challenge, subject=label, kind=kind, ok=False, failure=f"scorer: {err}", failure_kind=err.kind
        )
    result = RunResult.from_dict(value)
    result.kind = kind
    return result


def ir_challenge_name(challenge: str | None, text: str, *, what: str) -> str:
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
        hint="name the challenge; IR challenges: " + ", ".join(current_ir_names()),
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


def _checked_tier(services: Services) -> TierReport:
    """The probed sandbox tier; refuses at tier D unless ``dev_allow_unsandboxed`` is set."""
    report = probe_tier()
    if not report.runs_submissions and not services.settings.dev_allow_unsandboxed and report.tier != "D":
        message, hint = report.refusal  # tier B/C sharing the bot's uid, without SUTRO_ALLOW_WEAK_SANDBOX
        raise SubmissionRefused(message, hint=hint)
    if not report.runs_submissions and not services.settings.dev_allow_unsandboxed:
        raise SubmissionRefused(
            "this machine offers no sandbox (tier D), so submitted code is not run",
            hint="install bubblewrap/libseccomp2 and pyseccomp, or set SUTRO_DEV_ALLOW_UNSANDBOXED=1 for "
            "development only",
        )
    return report


def _sandbox_limits(services: Services) -> Limits:
    """The admins' limits for one child, with scratch (below tier A) made in the bot's private data directory."""
    limits = services.run_policy().sandbox_limits()
    return replace(limits, scratch_root=str(Path(services.settings.data_dir) / SCRATCH_DIR))


def _judge_ir(services: Services, sub: Submission, member: str, force: bool, progress: Progress) -> RecordedRun:
    name = ir_challenge_name(sub.challenge, sub.code, what="this program")
    services.run_policy().check_challenge(name)
    credit = _published_credit(services, name, sub.code)
    request = NormalisedRequest(
        challenge=name,
        kind="ir",
        subject=sub.label,
        code=sub.code,
        metric_versions=IR_METRICS,
        role=ROLE_MEMBER if credit is None else ROLE_PUBLISHED,
    )

    def compute() -> RunResult:
        progress(f"scoring the IR program on {name}", None)
        result = score_ir_limited(name, sub.code, label=sub.label)
        result.provenance = Provenance(judged_by="ir", sandbox=TRUSTED_NOTE)
        return adjudicated(services, result, sub.code)

    recorded = record_once(services, request, compute, member=member, force=force, origin=sub.origin, log=sub.logged)
    return recorded if credit is None else replace(recorded, published_as=credit)


def _published_credit(services: Services, challenge: str, code: str) -> PublishedCredit | None:
    """The group's published record whose program is identical to ``code`` (content hash), if any."""
    with services.sessions()() as session:
        snapshot = current_snapshot(session)
    record = find_copy(snapshot, challenge, code_hash(code, python=False))
    if record is None:
        return None
    return PublishedCredit(
        authors=record.author, date=record.date.isoformat(), cost=record.cost, link=snapshot.url(record)
    )


def _judge_generate(services: Services, sub: Submission, member: str, force: bool, progress: Progress) -> RecordedRun:
    code, label = sub.code, sub.label
    flags = lint_submission(code, "generate").flags
    tier = _checked_tier(services)
    dev = services.settings.dev_allow_unsandboxed
    policy = services.run_policy()
    limits = _sandbox_limits(services)
    early = None
    if sub.challenge is None:  # the challenge comes from what generate() returns: run it first
        progress("running your generate() in the sandbox", None)
        early = run_generate(code, tier=tier, dev_override=dev, limits=limits)
        if not early.ok:
            raise EngineError(f"your generate() failed: {early.failure}", hint="fix it and submit again")
        assert early.text is not None
        name = ir_challenge_name(None, early.text, what="the program your generate() returned")
    else:
        name = ir_challenge_name(sub.challenge, "", what="")
    policy.check_challenge(name)
    request = NormalisedRequest(
        challenge=name, kind="generate", subject=label, code=code, metric_versions=GENERATE_METRICS
    )

    def compute() -> RunResult:
        generated = early
        if generated is None:
            progress("running your generate() in the sandbox", None)
            generated = run_generate(code, tier=tier, dev_override=dev, limits=limits)
        if not generated.ok or generated.text is None:
            result = RunResult(
                challenge=name,
                subject=label,
                kind="generate",
                ok=False,
                failure=f"your generate() failed: {generated.failure}",
                failure_kind=generated.failure_kind or FailureKind.ERROR,
            )
        elif (mismatch := _output_mismatch(name, generated.text)) is not None:
            result = RunResult(
                challenge=name,
                subject=label,
                kind="generate",
                ok=False,
                failure=mismatch,
                failure_kind=FailureKind.REJECTED,
            )
        else:
            progress(f"scoring the generated IR on {name}", None)
            result = score_ir_limited(name, generated.text, label=label, kind="generate")
            result.counts = {**result.counts, "ir_bytes": len(generated.text.encode())}
            result = adjudicated(services, result, generated.text)
        result.wall_s += generated.wall_s
        result.provenance = Provenance(
            judged_by="generate", sandbox_tier=tier.tier, sandbox=tier.description, review_flags=flags
        )
        return result

    return record_once(services, request, compute, member=member, force=force, origin=sub.origin, log=sub.logged)


def _judge_solve(services: Services, sub: Submission, member: str, force: bool, progress: Progress) -> RecordedRun:
    if sub.challenge is not None and sub.challenge != SOLVE_CHALLENGE:
        raise UsageError(
            f"a solve() submission is judged on {SOLVE_CHALLENGE}, not {sub.challenge}",
            hint="leave out the challenge, or send IR / a generate() for IR challenges",
        )
    lint_submission(sub.code, "solve")
    tier = _checked_tier(services)
    policy = services.run_policy()
    policy.check_challenge(SOLVE_CHALLENGE)
    limits = _sandbox_limits(services)
    epoch = the_current_epoch(services)  # the fixed secret suite: identical code, one figure per epoch
    request = NormalisedRequest(
        challenge=SOLVE_CHALLENGE,
        kind="solve",
        subject=sub.label,
        params={**SOLVE_PARAMS, EPOCH_PARAM: epoch.number},
        code=sub.code,
        metric_versions=SOLVE_METRICS,
    )
    suite = suite_of(epoch, (SOLVE_N_BITS, SOLVE_K_SPARSE, SOLVE_N_TRAIN, SOLVE_N_TEST), SOLVE_INSTANCES)

    def compute() -> RunResult:
        progress(
            f"judging solve() on the {SOLVE_PARAMS['instances']} hidden instances of judge epoch {epoch.number}"
            " (remote arrays)",
            None,
        )
        result = judge_solve(
            sub.code,
            n_bits=SOLVE_N_BITS,
            k_sparse=SOLVE_K_SPARSE,
            instances=SOLVE_INSTANCES,
            tier=tier,
            dev_override=services.settings.dev_allow_unsandboxed,
            label=sub.label,
            limits=limits,
            n_train=SOLVE_N_TRAIN,
            n_test=SOLVE_N_TEST,
            suite=suite,
        )
        result.params = {**result.params, EPOCH_PARAM: epoch.number}
        # the baseline is stored first (the system's run), so the entry and card of this result compare with it
        primary = services.tool_config().get(f"{PRIMARY_METRIC_PREFIX}{SOLVE_CHALLENGE}")
        ensure_solve_baseline(services, result, primary, progress)
        return result

    return record_once(services, request, compute, member=member, force=force, origin=sub.origin, log=sub.logged)
