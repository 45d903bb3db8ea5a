"""After a person presses Run it (or ``sutro idea --run ID``): claim the idea atomically, run its submission through
the normal stored path, link the run, and log the outcome.

Code forms go through :func:`bot.core.judging.judge` (the sandbox, like any member's code); a registered method
through :func:`bot.core.run_method.run_registered_method` (the same stored request as ``/run``). A second press finds
the idea no longer ``proposed`` and is told what became of it; nothing runs twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.commands.submission_card import submission_card
from bot.context import AppContext
from bot.core.judging import Submission as CodeSubmission
from bot.core.judging import judge
from bot.core.log_entry import log_idea
from bot.core.recording import RecordedRun
from bot.core.run_method import MethodRequest, run_registered_method
from bot.invocation import Invocation, Progress, UsageError
from bot.reply import Reply
from engine.errors import EngineError
from storage.ideas import claim_for_run, discard, fail_stopped_drafts, finish_run, get_idea, release_run
from storage.tables import Idea
from storage.timestamps import utcnow
from tools.assistant.spec import ExperimentSpec, spec_from_stored

STALE_MARGIN_S = 60.0
"""A ``running`` claim older than the job time limit plus this is a run that died unseen (the bot was killed)."""


def _idea(ctx: AppContext, idea_id: int) -> Idea:
    with ctx.sessions()() as session:
        return get_idea(session, idea_id=idea_id)


def _not_proposed(idea: Idea) -> Reply:
    """What a second press (or a press on a discarded idea) answers."""
    what = {
        "running": f"is already running (approved by {idea.approved_by})",
        "ran": f"already ran as run #{idea.run_id} (approved by {idea.approved_by})"
        if idea.run_id
        else f"already ran: {idea.outcome}",
        "discarded": "was discarded",
        "failed": f"has no runnable spec: {idea.failure}",
        "drafting": "is still being drafted",
    }.get(idea.status, f"is {idea.status}")
    data = {"idea_id": idea.id, "status": idea.status, "run_id": idea.run_id, "ran_now": False}
    return Reply(text=f"idea #{idea.id} {what} — not run again", data=data)


def _label(idea_id: int, spec: ExperimentSpec) -> str:
    return f"idea #{idea_id}: {spec.title}"[:200]


def _run(ctx: AppContext, idea_id: int, spec: ExperimentSpec, member: str, progress: Progress) -> RecordedRun:
    sub = spec.submission
    if sub.form == "method":
        request = MethodRequest.parse(sub.method or "", dict(sub.params))
        return run_registered_method(ctx, request, member=member, progress=progress)
    code = CodeSubmission(code=sub.code or "", label=_label(idea_id, spec), challenge=sub.challenge)
    return judge(ctx, code, member=member, progress=progress)


def _outcome(recorded: RecordedRun) -> str:
    result = recorded.result
    metrics = ", ".join(f"{k} {v:,.6g}" for k, v in sorted(result.metrics.items()))
    verdict = "passed" if result.ok else f"failed: {result.failure or 'no reason recorded'}"
    acc = f", accuracy {result.accuracy:.1%}" if result.accuracy is not None else ""
    return f"run #{recorded.stored.id} {verdict}{acc}" + (f"; {metrics}" if metrics else "")


def run_approved(ctx: AppContext, idea_id: int, *, approver: str, progress: Progress) -> Reply:
    """Run idea ``idea_id`` once, on ``approver``'s say-so; the result card links back to the idea."""
    _idea(ctx, idea_id)  # an unknown id is a one-line error before anything else
    started = utcnow()
    stale_before = utcnow() - timedelta(seconds=ctx.run_policy().job_wall_s + STALE_MARGIN_S)
    with ctx.sessions()() as session:  # one write transaction at a time: sessions are never nested here
        claimed = claim_for_run(session, idea_id=idea_id, approver=approver, stale_before=stale_before)
    idea = _idea(ctx, idea_id)
    if not claimed:
        return _not_proposed(idea)
    spec = spec_from_stored(idea.spec, idea.code)
    progress(f"running idea #{idea_id}, approved by {approver}", None)
    try:
        recorded = _run(ctx, idea_id, spec, approver, progress)
    except (EngineError, UsageError) as err:
        outcome = f"not run: {err.one_line()}"
        with ctx.sessions()() as session:
            finish_run(session, idea_id=idea_id, run_id=None, outcome=outcome)
        _log_outcome(ctx, idea, approver, outcome, None)
        return Reply(text=f"idea #{idea_id}: {outcome}", ok=False, data={"idea_id": idea_id, "ran_now": False})
    except KeyboardInterrupt:  # Ctrl-C in the terminal: the idea may be approved again
        with ctx.sessions()() as session:
            release_run(session, idea_id=idea_id, claimed_since=started)
        raise
    except Exception:  # an internal error: the idea is not left "running" (dispatch reports the incident)
        with ctx.sessions()() as session:
            finish_run(session, idea_id=idea_id, run_id=None, outcome="stopped by an internal error")
        raise
    outcome = _outcome(recorded)
    with ctx.sessions()() as session:
        finish_run(session, idea_id=idea_id, run_id=recorded.stored.id, outcome=outcome)
    _log_outcome(ctx, idea, approver, outcome, recorded.stored.id)
    card = submission_card(recorded, _label(idea_id, spec))
    card.text = f"idea #{idea_id} ({spec.title}), approved by {approver}: ran {spec.submission.describe()}\n{card.text}"
    card.data = {**(card.data or {}), "idea_id": idea_id, "ran_now": True}
    return card


def release_stopped(ctx: AppContext, inv: Invocation, submitted_at: datetime) -> str:
    """The ``idea`` job was stopped before it answered: an approved run goes back to ``proposed`` (it can be
    approved again), a draft in progress is marked failed. Returns the line for the member."""
    with ctx.sessions()() as session:
        if "run" in inv.options:
            idea_id = int(inv.options["run"])
            if release_run(session, idea_id=idea_id, claimed_since=submitted_at):
                return f"idea #{idea_id} was not run to the end; it can be approved again (Run it)"
            return ""
        if "discard" in inv.options:
            return ""
        stopped = fail_stopped_drafts(session, member=inv.caller.name, since=submitted_at)
    return f"idea #{stopped[0]} was stopped before its card was ready; send /idea again" if stopped else ""


def _log_outcome(ctx: AppContext, idea: Idea, approver: str, outcome: str, run_id: int | None) -> None:
    log_idea(
        ctx,
        author=approver,
        title=f"idea #{idea.id} ran: {idea.spec.get('title', '')}",
        body=f"approved by {approver} for {idea.member.name}; {outcome}",
        run_id=run_id,
    )


def discard_idea(ctx: AppContext, idea_id: int, *, who: str) -> Reply:
    """Discard a proposed idea (nothing runs); a non-proposed one is left as it is."""
    with ctx.sessions()() as session:
        done = discard(session, idea_id=idea_id)
    if not done:
        return _not_proposed(_idea(ctx, idea_id))
    return Reply(
        text=f"idea #{idea_id} discarded by {who}; nothing ran",
        data={"idea_id": idea_id, "status": "discarded"},
    )
