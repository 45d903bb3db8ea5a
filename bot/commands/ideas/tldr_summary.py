"""The assistant as the author of a sprint's TLDR: one request per refresh, under the assistant's one monthly budget.

Used by the scheduled TLDR job (bot/telegram_app/tldr_job.py), never inside a member's run. The configuration and
the budget are the ones ``/idea`` uses (:func:`bot.commands.ideas.config.assistant_config`,
:class:`bot.core.idea_budget.MonthlyBudget`): a spent budget means no request, and every reply's tokens count
towards it. The text is checked by the caller (:func:`bot.core.sprint_tldr.grounded`) before it is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.commands.ideas.config import AssistantConfig, assistant_config
from bot.core.idea_budget import BudgetExhausted, MonthlyBudget
from bot.core.sprint_tldr import SYSTEM, SprintFacts, Writer

if TYPE_CHECKING:
    from bot.context import AppContext

MAX_TOKENS = 400
"""Longest reply asked for (a TLDR is a few short sentences)."""


def assistant_writer(ctx: AppContext) -> Writer | None:
    """The assistant's TLDR author when a key is configured, else None (the plain lines are written)."""
    config = assistant_config(ctx)
    if config.api_key is None:
        return None
    budget = MonthlyBudget(ctx.sessions(), config.monthly_budget_tokens, config.monthly_budget_usd, config.usd_per_mtok)

    def write(facts: SprintFacts) -> str | None:
        return assistant_summary(config, budget, facts)

    return write


def assistant_summary(config: AssistantConfig, budget: MonthlyBudget, facts: SprintFacts) -> str | None:
    """The assistant's summary of ``facts`` (whitespace collapsed), or None when the budget is spent or the API
    fails."""
    try:
        budget.check()
    except BudgetExhausted:
        return None
    import anthropic  # the SDK takes about a second of CPU to import; the bot and its tests load this module

    client = anthropic.Anthropic(
        api_key=config.api_key, base_url=config.base_url, timeout=config.timeout_s, max_retries=config.max_retries
    )
    try:
        with client:
            response = client.messages.create(
                model=config.model,
                max_tokens=MAX_TOKENS,
                system=SYSTEM,
                messages=[{"role": "user", "content": "\n".join(facts.lines())}],
            )
    except anthropic.APIError:
        return None
    budget.add(response.usage.input_tokens, response.usage.output_tokens)
    text = " ".join("".join(b.text for b in response.content if b.type == "text").split())
    return text or None
