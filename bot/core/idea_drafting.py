"""The tool-use loop: the model reads the idea, calls the assistant's tools, and ends with a checked spec.

Uses the real ``anthropic`` SDK (2.x): the SDK retries 429/529/5xx and connection errors ``max_retries`` times with
backoff (honouring retry-after); when they are exhausted, or a request times out, the member gets one line
(:class:`AssistantFailed`). The model's ``propose_experiment`` is held to the contract check (a sandbox dry run);
a failed check goes back to the model as an error tool result, so it can fix the code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.assistant_config import AssistantConfig
from bot.core.idea_budget import MonthlyBudget
from bot.invocation import Progress
from tools.assistant.contract import ContractCheck, check_submission
from tools.assistant.prompt import PROPOSE_TOOL, TOOLS, system_prompt
from tools.assistant.spec import ExperimentSpec, SpecError, spec_from
from tools.assistant.toolbox import Toolbox


def _quiet(message: str, fraction: float | None = None) -> None:
    """Progress sink when the caller passes none."""


FINISH_NUDGE = f"Please finish by calling {PROPOSE_TOOL} with the experiment card and its checked submission."


class AssistantFailed(Exception):
    """No spec: the API was unreachable, overloaded, timed out, refused the key, or the model never finished."""

    def one_line(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Draft:
    """The assistant's checked proposal and what it cost."""

    spec: ExperimentSpec
    check: ContractCheck
    tokens: int
    turns: int


def api_failure(err: Exception, config: AssistantConfig) -> AssistantFailed:
    import anthropic  # about a second of CPU to import: only a call that reached the API pays it

    tries = config.max_retries + 1
    if isinstance(err, anthropic.APITimeoutError):
        return AssistantFailed(
            f"the assistant did not answer within {config.timeout_s:g} s ({tries} tries) — try /idea again later"
        )
    if isinstance(err, anthropic.AuthenticationError):
        return AssistantFailed("the Anthropic API refused the key — an admin should check SUTRO_ANTHROPIC_API_KEY")
    if isinstance(err, anthropic.RateLimitError | anthropic.InternalServerError):
        status = getattr(err, "status_code", "?")
        what = "overloaded" if status == 529 else "rate-limited" if status == 429 else "failing"
        return AssistantFailed(
            f"the assistant is {what} (HTTP {status}) after {tries} tries — try /idea again in a few minutes"
        )
    if isinstance(err, anthropic.APIConnectionError):
        return AssistantFailed("cannot reach the Anthropic API — check the network (or SUTRO_ANTHROPIC_BASE_URL)")
    if isinstance(err, anthropic.APIStatusError):
        return AssistantFailed(f"the Anthropic API answered HTTP {err.status_code} — the request was refused")
    return AssistantFailed(f"the Anthropic API failed: {type(err).__name__}")


def _block_dict(block: Any) -> dict[str, Any]:
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if block.type == "text":
        return {"type": "text", "text": block.text}
    return block.model_dump(exclude_none=True)  # thinking and other blocks go back unchanged


def _propose(raw: dict[str, Any], dev_override: bool) -> tuple[ExperimentSpec | None, ContractCheck]:
    try:
        spec = spec_from(raw)
    except SpecError as err:
        return None, ContractCheck(False, f"the card is incomplete: {err}")
    check = check_submission(spec.submission, dev_override=dev_override)
    if not check.ok:
        return None, ContractCheck(False, f"the contract check failed: {check.message} — fix it and propose again")
    return spec, check


def draft_experiment(
    config: AssistantConfig,
    toolbox: Toolbox,
    idea: str,
    *,
    budget: MonthlyBudget,
    progress: Progress = _quiet,
) -> Draft:
    """Run the loop for ``idea`` until a spec passes its contract check (at most ``config.max_turns`` replies).

    Raises :class:`AssistantFailed` or :class:`bot.core.idea_budget.BudgetExhausted`.
    """
    import anthropic  # imported here, not with the module: `idea --run N` and the bot's start need none of it

    client = anthropic.Anthropic(
        api_key=config.api_key,
        base_url=config.base_url,
        timeout=config.timeout_s,
        max_retries=config.max_retries,
    )
    messages: list[dict[str, Any]] = [{"role": "user", "content": idea}]
    tokens = 0
    system = system_prompt()
    with client:
        for turn in range(1, config.max_turns + 1):
            budget.check()
            progress(f"asking the assistant (reply {turn})", None)
            try:
                response = client.messages.create(
                    model=config.model,
                    max_tokens=config.max_tokens_per_reply,
                    system=system,
                    tools=TOOLS,  # type: ignore[arg-type]
                    messages=messages,  # type: ignore[arg-type]
                )
            except anthropic.APIError as err:
                raise api_failure(err, config) from err
            used = response.usage.input_tokens + response.usage.output_tokens
            tokens += used
            budget.add(response.usage.input_tokens, response.usage.output_tokens)
            messages.append({"role": "assistant", "content": [_block_dict(b) for b in response.content]})
            calls = [b for b in response.content if b.type == "tool_use"]
            if not calls:
                messages.append({"role": "user", "content": FINISH_NUDGE})
                continue
            results = []
            for call in calls:
                raw = call.input if isinstance(call.input, dict) else {}
                if call.name == PROPOSE_TOOL:
                    progress("checking the proposed code in the sandbox", None)
                    spec, check = _propose(raw, toolbox.dev_override)
                    if spec is not None:
                        return Draft(spec=spec, check=check, tokens=tokens, turns=turn)
                    ok, text = False, check.message
                else:
                    progress(f"assistant tool: {call.name}", None)
                    ok, text = toolbox.call(call.name, raw)
                results.append({"type": "tool_result", "tool_use_id": call.id, "content": text, "is_error": not ok})
            messages.append({"role": "user", "content": results})
    raise AssistantFailed(
        f"the assistant gave no experiment that passes the contract check in {config.max_turns} replies "
        f"({tokens:,} tokens) — rephrase the idea and try again"
    )
