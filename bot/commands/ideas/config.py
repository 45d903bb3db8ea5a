"""The assistant's configuration, read in ONE place (:func:`assistant_config`): the model and the monthly budget
in USD come from the admin-editable tool configuration (``assistant.model``, ``assistant.monthly_budget_usd``,
seeded from ``SUTRO_ANTHROPIC_MODEL`` / ``SUTRO_ANTHROPIC_MONTHLY_BUDGET_USD``), so ``/config set`` takes effect
without a restart; the key, endpoint, prices, timeouts and limits come from Settings.

Refusals are ToolErrors (one line, exit status 2), so this module needs nothing from bot.commands (whose package
imports the idea command).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.assistant_config import NO_KEY, AssistantConfig

if TYPE_CHECKING:
    from bot.context import AppContext

__all__ = ["NO_KEY", "AssistantConfig", "assistant_config"]


def assistant_config(ctx: AppContext) -> AssistantConfig:
    """The assistant settings in force now."""
    s = ctx.settings
    tool_config = ctx.tool_config()
    key = s.anthropic_api_key.get_secret_value().strip() if s.anthropic_api_key else ""
    return AssistantConfig(
        api_key=key or None,
        base_url=s.anthropic_base_url or None,
        model=str(tool_config.get("assistant.model")),
        monthly_budget_tokens=s.anthropic_monthly_budget_tokens,
        monthly_budget_usd=float(tool_config.get("assistant.monthly_budget_usd")),
        usd_per_mtok=(s.anthropic_usd_per_mtok_input, s.anthropic_usd_per_mtok_output),
        timeout_s=s.anthropic_timeout_s,
        max_retries=s.anthropic_max_retries,
        rate_per_hour=s.idea_rate_per_hour,
        max_turns=s.idea_max_turns,
    )
