"""``idea``: the assistant turns a plain-language idea into an experiment card with runnable code; a person
approves it before anything runs.

``sutro idea "try flipping each bit once"`` → the card (hypothesis, the one change, baseline, challenge and
parameters, seeds, checked code) and its id. In the chat the card has Run it / Edit / Discard buttons; on the
terminal: ``sutro idea --run ID`` (or ``--yes`` to approve the new card at once), ``--discard ID``, and
``--revise ID "what to change"`` for a new card built on an earlier one.
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, UsageError
from bot.commands.ideas import approval, card
from bot.commands.ideas import config as assistant
from bot.context import AppContext
from bot.core.idea_proposal import FailedIdea, IdeaRequest
from bot.core.idea_proposal import propose_idea as core_propose_idea
from bot.core.log_entry import log_idea

USAGE = usage_of("idea")


def _idea_id(inv: Invocation, key: str) -> int:
    raw = inv.options[key]
    if not raw.lstrip("#").isdigit():
        raise UsageError(f"--{key} needs an idea number, not '{raw}'", hint="the number is on the idea's card")
    return int(raw.lstrip("#"))


def _text(inv: Invocation) -> str:
    """The idea as typed (a free-text command: ``key=value`` words stay part of the text)."""
    return " ".join(inv.args).strip()


def propose_idea(ctx: AppContext, inv: Invocation) -> Reply:
    """Draft a card for the idea in ``inv``; stored as proposed (or failed, with the reason)."""
    text = _text(inv)
    if not text:
        raise UsageError("what is the idea?", hint="e.g. /idea try flipping each bit once")
    config = assistant.assistant_config(ctx)
    if config.api_key is None:
        raise assistant.NO_KEY
    request = IdeaRequest(
        member=inv.caller.name,
        telegram_user_id=inv.caller.user_id,
        text=text,
        revise=_idea_id(inv, "revise") if "revise" in inv.options else None,
    )
    outcome = core_propose_idea(
        ctx.sessions(), config, request, dev_override=ctx.settings.dev_allow_unsandboxed, progress=inv.progress
    )
    if isinstance(outcome, FailedIdea):
        return Reply(
            text=f"idea #{outcome.idea_id}: {outcome.reason}", ok=False, data={"idea_id": outcome.idea_id, "ok": False}
        )
    idea_id, draft = outcome.idea_id, outcome.draft
    text_card = card.card_text(idea_id, draft.spec, draft.check.message)
    log_idea(ctx, author=inv.caller.name, title=f"idea #{idea_id}: {draft.spec.title}", body=f"{text}\n\n{text_card}")
    data = {
        "idea_id": idea_id,
        "status": "proposed",
        "spec": draft.spec.to_dict(),
        "code": draft.spec.submission.code,
        "check": draft.check.message,
        "tokens": draft.tokens,
        "turns": draft.turns,
    }
    if inv.caller.user_id is None:
        text_card += f"\nto run it: sutro idea --run {idea_id}   (discard: sutro idea --discard {idea_id})"
    return Reply(text=text_card, data=data, buttons=card.card_buttons(idea_id))


def idea(ctx: AppContext, inv: Invocation) -> Reply:
    who = inv.caller.name
    if "run" in inv.options:
        return approval.run_approved(ctx, _idea_id(inv, "run"), approver=who, progress=inv.progress)
    if "discard" in inv.options:
        return approval.discard(ctx, _idea_id(inv, "discard"), who=who)
    proposal = propose_idea(ctx, inv)
    if "yes" not in inv.flags or not proposal.ok or proposal.data is None:
        return proposal
    outcome = approval.run_approved(ctx, int(proposal.data["idea_id"]), approver=who, progress=inv.progress)
    outcome.text = f"{proposal.text}\n\napproved with --yes\n{outcome.text}"
    outcome.data = {**(outcome.data or {}), "proposal": proposal.data}
    return outcome
