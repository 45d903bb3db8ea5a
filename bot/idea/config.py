"""The assistant's configuration, read in ONE place so the /config store can take it over (tool configuration).

Until then the values come from Settings (``SUTRO_ANTHROPIC_*``, ``SUTRO_IDEA_*``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.commands.base import UsageError
from bot.context import AppContext

NO_KEY = UsageError(
    "/idea needs ANTHROPIC_API_KEY (SUTRO_ANTHROPIC_API_KEY); everything else works without it",
    hint="set SUTRO_ANTHROPIC_API_KEY in the environment or .env and restart",
)


@dataclass(frozen=True)
class AssistantConfig:
    """api_key: None when not configured. base_url: None = the SDK's default endpoint. Budget in tokens/month."""

    api_key: str | None
    base_url: str | None
    model: str
    monthly_budget_tokens: int
    timeout_s: float
    max_retries: int
    rate_per_hour: int
    max_turns: int
    max_tokens_per_reply: int = 4096


def assistant_config(ctx: AppContext) -> AssistantConfig:
    """The assistant settings in force now."""
    s = ctx.settings
    key = s.anthropic_api_key.get_secret_value().strip() if s.anthropic_api_key else ""
    return AssistantConfig(
        api_key=key or None,
        base_url=s.anthropic_base_url or None,
        model=s.anthropic_model,
        monthly_budget_tokens=s.anthropic_monthly_budget_tokens,
        timeout_s=s.anthropic_timeout_s,
        max_retries=s.anthropic_max_retries,
        rate_per_hour=s.idea_rate_per_hour,
        max_turns=s.idea_max_turns,
    )
