"""``/idea TEXT``'s use case: a member's idea becomes an experiment card drafted by the assistant, stored as
proposed (waiting for a person's approval, bot/core/idea_approval.py) or as failed with the reason.

In order: the member's hourly rate (:func:`bot.core.idea_budget.check_rate`), the idea stored as ``drafting`` (it
counts against that rate from then on), the assistant's tool-use loop under the monthly budget
(:mod:`bot.core.idea_drafting`), and the outcome stored. With ``revise``, the prompt quotes the earlier idea, its
card and its code.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.assistant_config import AssistantConfig
from bot.core.idea_budget import BudgetExhausted, MonthlyBudget, check_rate
from bot.core.idea_drafting import AssistantFailed, Draft, draft_experiment
from engine.progress import Progress, no_progress
from storage.database import SessionFactory
from storage.ideas import create_idea, fail, get_idea, propose
from tools.assistant.toolbox import Toolbox


@dataclass(frozen=True)
class IdeaRequest:
    """What a member asked: the idea's words, and the number of an earlier idea it revises (None: a new one)."""

    member: str
    telegram_user_id: int | None
    text: str
    revise: int | None = None


@dataclass(frozen=True)
class ProposedIdea:
    """The assistant's checked card for idea ``idea_id``, stored as proposed."""

    idea_id: int
    draft: Draft


@dataclass(frozen=True)
class FailedIdea:
    """No card for idea ``idea_id`` (the API failed, the budget is spent, no valid code): stored with ``reason``."""

    idea_id: int
    reason: str


def propose_idea(
    sessions: SessionFactory,
    config: AssistantConfig,
    request: IdeaRequest,
    *,
    dev_override: bool = False,
    progress: Progress = no_progress,
) -> ProposedIdea | FailedIdea:
    """Draft and store a card for ``request``. Raises ToolError when the member's hourly rate is reached and
    storage's UnknownIdea when ``revise`` names no idea (both one line, nothing stored)."""
    check_rate(sessions, member=request.member, per_hour=config.rate_per_hour)
    prompt = _prompt(sessions, request)
    with sessions() as session:
        idea_id = create_idea(
            session, member=request.member, text=request.text, telegram_user_id=request.telegram_user_id
        ).id
    assert idea_id is not None
    toolbox = Toolbox(sessions, dev_override=dev_override)
    budget = MonthlyBudget(sessions, config.monthly_budget_tokens, config.monthly_budget_usd, config.usd_per_mtok)
    try:
        draft = draft_experiment(config, toolbox, prompt, budget=budget, progress=progress)
    except (AssistantFailed, BudgetExhausted) as err:
        with sessions() as session:
            fail(session, idea_id=idea_id, failure=err.one_line(), tokens=0)
        return FailedIdea(idea_id=idea_id, reason=err.one_line())
    with sessions() as session:
        propose(
            session, idea_id=idea_id, spec=draft.spec.to_dict(), code=draft.spec.submission.code, tokens=draft.tokens
        )
    return ProposedIdea(idea_id=idea_id, draft=draft)


def _prompt(sessions: SessionFactory, request: IdeaRequest) -> str:
    """What the assistant is asked: the idea, or for a revision the earlier idea, its card and code, then the idea."""
    if request.revise is None:
        return request.text
    with sessions() as session:
        old = get_idea(session, idea_id=request.revise)
    return (
        f"Earlier idea #{old.id}: {old.text}\nYour card for it: {old.spec}\nIts code:\n{old.code or '(none)'}\n\n"
        f"Revise that experiment as follows: {request.text}"
    )
