"""What the /idea assistant runs under (the model, its endpoint, the monthly budget, the rate and turn limits), as
one typed value; ``bot.commands.ideas.config.assistant_config`` reads it from the settings and the admins' tool
configuration. A refusal for want of a key is a ToolError (one line, exit status 2)."""

from __future__ import annotations

from dataclasses import dataclass

from tools.errors import ToolError

NO_KEY = ToolError(
    "/idea needs ANTHROPIC_API_KEY (SUTRO_ANTHROPIC_API_KEY); everything else works without it",
    hint="set SUTRO_ANTHROPIC_API_KEY in the environment or .env and restart",
)


@dataclass(frozen=True)
class AssistantConfig:
    """api_key: None when not configured. base_url: None = the SDK's default endpoint.

    Budget per calendar month (UTC): tokens and money (USD, from the per-million-token prices); either ends it.
    """

    api_key: str | None
    base_url: str | None
    model: str
    monthly_budget_tokens: int
    monthly_budget_usd: float
    usd_per_mtok: tuple[float, float]  # (input, output)
    timeout_s: float
    max_retries: int
    rate_per_hour: int
    max_turns: int
    max_tokens_per_reply: int = 4096
