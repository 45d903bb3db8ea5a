"""Render an approval of an idea (Run it, ``sutro idea --run ID``), a discard, and what a stopped ``idea`` job
leaves behind; the use case itself is :mod:`bot.core.idea_approval` (claim once, run, link, log).
"""

from __future__ import annotations

from datetime import datetime

from bot.commands.submission_card import submission_card
from bot.context import AppContext
from bot.core.idea_approval import (
    IdeaDiscarded,
    IdeaNotRun,
    IdeaRan,
    IdeaState,
    discard_idea,
    fail_stopped_draft,
    release_stopped_run,
    run_approved_idea,
)
from bot.invocation import Invocation, Progress
from bot.reply import Reply


def _not_proposed(state: IdeaState) -> Reply:
    """What a second press (or a press on a discarded idea) answers."""
    what = {
        "running": f"is already running (approved by {state.approved_by})",
        "ran": f"already ran as run #{state.run_id} (approved by {state.approved_by})"
        if state.run_id
        else f"already ran: {state.outcome}",
        "discarded": "was discarded",
        "failed": f"has no runnable spec: {state.failure}",
        "drafting": "is still being drafted",
    }.get(state.status, f"is {state.status}")
    data = {"idea_id": state.idea_id, "status": state.status, "run_id": state.run_id, "ran_now": False}
    return Reply(text=f"idea #{state.idea_id} {what} — not run again", data=data)


def _ran_card(ran: IdeaRan) -> Reply:
    card = submission_card(ran.recorded, ran.label)
    head = f"idea #{ran.idea_id} ({ran.spec.title}), approved by {ran.approver}: ran {ran.spec.submission.describe()}"
    card.text = f"{head}\n{card.text}"
    card.data = {**(card.data or {}), "idea_id": ran.idea_id, "ran_now": True}
    return card


def run_approved(ctx: AppContext, idea_id: int, *, approver: str, progress: Progress) -> Reply:
    """Run idea ``idea_id`` once, on ``approver``'s say-so; the result card links back to the idea."""
    outcome = run_approved_idea(ctx, idea_id, approver=approver, progress=progress)
    if isinstance(outcome, IdeaRan):
        return _ran_card(outcome)
    if isinstance(outcome, IdeaNotRun):
        data = {"idea_id": idea_id, "ran_now": False}
        return Reply(text=f"idea #{idea_id}: {outcome.outcome}", ok=False, data=data)
    return _not_proposed(outcome)


def discard(ctx: AppContext, idea_id: int, *, who: str) -> Reply:
    """Discard a proposed idea (nothing runs); a non-proposed one is left as it is."""
    outcome = discard_idea(ctx, idea_id)
    if not isinstance(outcome, IdeaDiscarded):
        return _not_proposed(outcome)
    return Reply(
        text=f"idea #{idea_id} discarded by {who}; nothing ran",
        data={"idea_id": idea_id, "status": "discarded"},
    )


def release_stopped(ctx: AppContext, inv: Invocation, submitted_at: datetime) -> str:
    """The ``idea`` job was stopped before it answered: an approved run goes back to ``proposed`` (it can be
    approved again), a draft in progress is marked failed. Returns the line for the member."""
    if "run" in inv.options:
        idea_id = int(inv.options["run"].lstrip("#"))
        if release_stopped_run(ctx, idea_id, submitted_at=submitted_at):
            return f"idea #{idea_id} was not run to the end; it can be approved again (Run it)"
        return ""
    if "discard" in inv.options:
        return ""
    stopped = fail_stopped_draft(ctx, member=inv.caller.name, submitted_at=submitted_at)
    return f"idea #{stopped} was stopped before its card was ready; send /idea again" if stopped is not None else ""
