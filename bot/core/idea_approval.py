"""Run an approved idea once: claim it atomically, run its submission through the normal stored path, link the run,
log the outcome. Also discarding a proposed idea, and undoing a claim whose job was stopped.

A person approves (Run it, or ``sutro idea --run ID``); nothing of the assistant's runs before that. Code forms go
through :func:`bot.core.judging.judge` (the sandbox, like any member's code); a registered method through
:func:`bot.core.run_method.run_registered_method` (the same stored request as ``/run``). A second approval finds the
idea no longer ``proposed`` and gets its :class:`IdeaState`: nothing runs twice. A ``running`` claim older than the
job time limit plus :data:`STALE_MARGIN_S` belongs to a run that died unseen (the bot was killed) and is taken over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.judging import Submission, judge
from bot.core.log_entry import log_idea
from bot.core.recording import RecordedRun
from bot.core.run_method import MethodRequest, run_registered_method
from bot.core.services import Services
from bot.invocation import UsageError
from engine.errors import EngineError
from engine.progress import Progress
from storage.ideas import claim_for_run, discard, fail_stopped_drafts, finish_run, get_idea, release_run
from storage.tables import Idea
from storage.timestamps import utcnow
from tools.assistant.spec import ExperimentSpec, spec_from_stored

STALE_MARGIN_S = 60.0
"""Seconds past the job time limit after which a ``running`` claim is a run that died unseen."""

STOPPED_BY_INCIDENT = "stopped by an internal error"


@dataclass(frozen=True)
class IdeaState:
    """An idea as it stands (what a second approval, or a discard of a non-proposed idea, is told)."""

    idea_id: int
    status: str
    approved_by: str | None = None
    run_id: int | None = None
    outcome: str | None = None
    failure: str | None = None


@dataclass(frozen=True)
class IdeaRan:
    """The approved idea ran now: its spec, who approved it, the recorded run and the one-line outcome."""

    idea_id: int
    spec: ExperimentSpec
    approver: str
    recorded: RecordedRun
    outcome: str

    @property
    def label(self) -> str:
        """The leaderboard label of the idea's run (also the card's title)."""
        return run_label(self.idea_id, self.spec)


@dataclass(frozen=True)
class IdeaNotRun:
    """The idea was claimed but its submission was refused (one line: ``not run: …``); it is marked ran."""

    idea_id: int
    outcome: str


@dataclass(frozen=True)
class IdeaDiscarded:
    """A proposed idea was discarded now; nothing ran."""

    idea_id: int


ApprovalOutcome = IdeaRan | IdeaNotRun | IdeaState


def run_label(idea_id: int, spec: ExperimentSpec) -> str:
    """``idea #7: <title>``, cut to the 200 characters a run's subject holds."""
    return f"idea #{idea_id}: {spec.title}"[:200]


def idea_state(services: Services, idea_id: int) -> IdeaState:
    """The idea's current state; UnknownIdea (one line) for an unknown id."""
    with services.sessions()() as session:
        return _state(get_idea(session, idea_id=idea_id))


def run_approved_idea(services: Services, idea_id: int, *, approver: str, progress: Progress) -> ApprovalOutcome:
    """Run idea ``idea_id`` once, on ``approver``'s say-so (see the module docstring).

    An interrupt (Ctrl-C) puts the idea back to ``proposed``; an internal error marks it ran with
    :data:`STOPPED_BY_INCIDENT` and is raised again (dispatch reports the incident).
    """
    idea_state(services, idea_id)  # an unknown id is a one-line error before anything else
    started = utcnow()
    stale_before = started - timedelta(seconds=services.run_policy().job_wall_s + STALE_MARGIN_S)
    with services.sessions()() as session:  # one write transaction at a time: sessions are never nested here
        claimed = claim_for_run(session, idea_id=idea_id, approver=approver, stale_before=stale_before)
    with services.sessions()() as session:
        idea = get_idea(session, idea_id=idea_id)
    if not claimed:
        return _state(idea)
    spec = spec_from_stored(idea.spec, idea.code)
    progress(f"running idea #{idea_id}, approved by {approver}", None)
    try:
        recorded = _run(services, idea_id, spec, approver, progress)
    except (EngineError, UsageError) as err:
        outcome = f"not run: {err.one_line()}"
        _finish(services, idea, approver, outcome, None)
        return IdeaNotRun(idea_id=idea_id, outcome=outcome)
    except KeyboardInterrupt:
        with services.sessions()() as session:
            release_run(session, idea_id=idea_id, claimed_since=started)
        raise
    except Exception:
        with services.sessions()() as session:
            finish_run(session, idea_id=idea_id, run_id=None, outcome=STOPPED_BY_INCIDENT)
        raise
    outcome = _outcome(recorded)
    _finish(services, idea, approver, outcome, recorded.stored.id)
    return IdeaRan(idea_id=idea_id, spec=spec, approver=approver, recorded=recorded, outcome=outcome)


def discard_idea(services: Services, idea_id: int) -> IdeaDiscarded | IdeaState:
    """Discard a proposed idea (nothing runs); an idea that is not proposed (running, ran, discarded) is left as it
    is and its state returned. UnknownIdea (one line) for an unknown id."""
    with services.sessions()() as session:
        done = discard(session, idea_id=idea_id)
    return IdeaDiscarded(idea_id) if done else idea_state(services, idea_id)


def release_stopped_run(services: Services, idea_id: int, *, submitted_at: datetime) -> bool:
    """The job running approved idea ``idea_id`` was stopped: back to ``proposed`` (it can be approved again) if
    the claim was made by that job (at or after ``submitted_at``). True when released."""
    with services.sessions()() as session:
        return release_run(session, idea_id=idea_id, claimed_since=submitted_at)


def fail_stopped_draft(services: Services, *, member: str, submitted_at: datetime) -> int | None:
    """The job drafting ``member``'s idea was stopped: that draft is marked failed. Its id, or None if none."""
    with services.sessions()() as session:
        stopped = fail_stopped_drafts(session, member=member, since=submitted_at)
    return stopped[0] if stopped else None


def _state(idea: Idea) -> IdeaState:
    assert idea.id is not None
    return IdeaState(
        idea_id=idea.id,
        status=idea.status,
        approved_by=idea.approved_by,
        run_id=idea.run_id,
        outcome=idea.outcome,
        failure=idea.failure,
    )


def _run(services: Services, idea_id: int, spec: ExperimentSpec, member: str, progress: Progress) -> RecordedRun:
    sub = spec.submission
    if sub.form == "method":
        request = MethodRequest.parse(sub.method or "", dict(sub.params))
        return run_registered_method(services, request, member=member, progress=progress)
    code = Submission(code=sub.code or "", label=run_label(idea_id, spec), challenge=sub.challenge)
    return judge(services, code, member=member, progress=progress)


def _outcome(recorded: RecordedRun) -> str:
    """``run #12 passed, accuracy 100.0%; dmc@1 3.4e+06`` (stored on the idea and logged)."""
    result = recorded.result
    metrics = ", ".join(f"{k} {v:,.6g}" for k, v in sorted(result.metrics.items()))
    verdict = "passed" if result.ok else f"failed: {result.failure or 'no reason recorded'}"
    acc = f", accuracy {result.accuracy:.1%}" if result.accuracy is not None else ""
    return f"run #{recorded.stored.id} {verdict}{acc}" + (f"; {metrics}" if metrics else "")


def _finish(services: Services, idea: Idea, approver: str, outcome: str, run_id: int | None) -> None:
    """Link the run (or none) to the idea, keep the outcome, and log it in the sprint log."""
    assert idea.id is not None
    with services.sessions()() as session:
        finish_run(session, idea_id=idea.id, run_id=run_id, outcome=outcome)
    log_idea(
        services,
        author=approver,
        title=f"idea #{idea.id} ran: {idea.spec.get('title', '')}",
        body=f"approved by {approver} for {idea.member.name}; {outcome}",
        run_id=run_id,
    )
