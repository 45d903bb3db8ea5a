"""Claude as a proposer for /explore: one candidate per request, as code run in the sandbox (docs/explore.md#claude).

With a key (``SUTRO_ANTHROPIC_API_KEY``), when the built-in operators have nothing more on the loop's best, the loop
asks Claude for a candidate: the board, the best so far (its cost and its first lines), the record, the journal so
far and the member's goal go in; one ``propose_candidate`` call comes back — a hypothesis and Python code defining
``generate()`` that returns the IR. The code is treated like a stranger's ``generate()``: the import lint, then a
run in the sandbox (:func:`engine.sandbox.run_generate`), so code that reaches for files, the network or the judge is
stopped there and the step is journalled as refused with the sandbox's reason. The IR it returns is judged by the
loop like any candidate. Every reply's tokens count against the assistant's monthly budget (the same ledger as
``/idea``) and the loop's own ``explore.max_spend_usd``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.assistant_config import AssistantConfig
from bot.core.explore import Idea, SearchState
from bot.core.idea_budget import BudgetExhausted, MonthlyBudget
from bot.core.idea_drafting import api_failure
from engine.errors import EngineError
from engine.sandbox import run_generate

TOOL = "propose_candidate"
OPERATOR = "claude"
BEST_LINES = 60
"""How many lines of the best program the request quotes (the whole program can run to 100,000s of lines)."""
JOURNAL_STEPS = 30

PROPOSE: dict[str, Any] = {
    "name": TOOL,
    "description": (
        "Propose ONE candidate program for the board: a one-line hypothesis and Python source defining generate() "
        "that returns the IR program text (first line input addresses, last line output addresses). The code runs "
        "in a sandbox with no files and no network; only the standard library's math/itertools/functools and "
        "numpy may be imported."
    ),
    "input_schema": {
        "type": "object",
        "properties": {
            "hypothesis": {"type": "string", "description": "what this candidate tests, in one line"},
            "code": {"type": "string", "description": "Python source defining generate() -> str"},
        },
        "required": ["hypothesis", "code"],
    },
}

SYSTEM = (
    "You are a research assistant for the Sutro group, searching for a cheaper program on one board of their "
    "energy challenges. A program is priced by the simplified Dally model: every operand read and every output read "
    "of cell a costs ceil(sqrt(a)). Cheaper programs keep hot values in low cells and short-lived values packed. "
    "The board's rules are checked on every candidate; a candidate that breaks them is refused. Call "
    f"{TOOL} exactly once."
)


def journal_lines(state: SearchState) -> list[str]:
    """The loop's last :data:`JOURNAL_STEPS` steps for a request: number, operator, outcome, cost, hypothesis and
    why a refused one was refused (none before the first step)."""
    if not state.steps:
        return []
    return ["Journal so far (step, operator, outcome, cost, hypothesis):"] + [
        f"  {s.number}. {s.operator}: {s.outcome}"
        + ("" if s.cost is None else f" at {s.cost:,}")
        + f" — {s.hypothesis}"
        + (f" (refused: {s.reason})" if s.reason else "")
        for s in state.steps[-JOURNAL_STEPS:]
    ]


def request_text(state: SearchState) -> str:
    """The user message: the board, the best and its first lines, the record, the journal, the goal."""
    lines = [
        f"Board: {state.board}" + "".join(f" {k}={v}" for k, v in state.params.items()) + f" — {state.summary}",
        f"Best so far: dally@1 = {state.best_cost:,}"
        + ("" if state.record_cost is None else f"; the board's record is {state.record_cost:,.0f}"),
    ]
    if state.goal:
        lines.append(f"The member's goal: {state.goal}")
    lines += journal_lines(state)
    best = state.best_text.splitlines()
    shown = "\n".join(best[:BEST_LINES])
    more = f"\n… ({len(best) - BEST_LINES:,} more lines)" if len(best) > BEST_LINES else ""
    lines.append(f"The best program so far ({len(best):,} lines):\n{shown}{more}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Answer:
    """One forced tool call's input (``{}`` when Claude made none) and what its reply cost in USD."""

    raw: dict[str, Any]
    spend_usd: float

    @property
    def hypothesis(self) -> str:
        return str(self.raw.get("hypothesis") or "(no hypothesis given)")[:500]

    def refused(self, reason: str) -> Idea:
        """The step this answer becomes when it yields no candidate: journalled with ``reason``."""
        return Idea(OPERATOR, self.hypothesis, None, reason=reason, spend_usd=self.spend_usd)

    def candidate(self, text: str) -> Idea:
        return Idea(OPERATOR, self.hypothesis, text, spend_usd=self.spend_usd)


class ClaudeClient:
    """What every Claude proposer shares: the client, the monthly budget, the price of a reply, and one forced tool
    call per request (:meth:`ask`). ``why_not`` says in one line why the last request gave nothing."""

    def __init__(self, config: AssistantConfig, budget: MonthlyBudget) -> None:
        import anthropic  # about a second of CPU to import: only a loop with a key pays it

        assert config.api_key is not None
        self._config = config
        self._budget = budget
        self._why_not = ""
        self._client = anthropic.Anthropic(
            api_key=config.api_key, base_url=config.base_url, timeout=config.timeout_s, max_retries=config.max_retries
        )

    @property
    def why_not(self) -> str:
        return self._why_not

    def _usd(self, input_tokens: int, output_tokens: int) -> float:
        per_in, per_out = self._config.usd_per_mtok
        return (input_tokens * per_in + output_tokens * per_out) / 1e6

    def ask(self, system: str, tool: dict[str, Any], text: str) -> Answer | None:
        """Claude's answer to ``text``: the input of its one ``tool`` call and what the reply cost; None when the
        budget is spent or the API failed (``why_not`` then says which)."""
        import anthropic

        try:
            self._budget.check()
        except BudgetExhausted as err:
            self._why_not = err.one_line()
            return None
        try:
            response = self._client.messages.create(  # type: ignore[call-overload]
                model=self._config.model,
                max_tokens=self._config.max_tokens_per_reply,
                system=system,
                tools=[tool],
                tool_choice={"type": "tool", "name": tool["name"]},
                messages=[{"role": "user", "content": text}],
            )
        except anthropic.APIError as err:
            self._why_not = api_failure(err, self._config).one_line()
            return None
        usage = response.usage
        self._budget.add(usage.input_tokens, usage.output_tokens)
        spend = self._usd(usage.input_tokens, usage.output_tokens)
        call = next((b for b in response.content if b.type == "tool_use" and b.name == tool["name"]), None)
        raw = call.input if call is not None and isinstance(call.input, dict) else {}
        return Answer(raw, spend)


class ClaudeProposer(ClaudeClient):
    """The loop's :class:`bot.core.explore.Proposer` for IR boards: Claude writes ``generate()``, a sandbox runs it."""

    def __init__(self, config: AssistantConfig, budget: MonthlyBudget, *, dev_override: bool) -> None:
        super().__init__(config, budget)
        self._dev_override = dev_override

    def propose(self, state: SearchState) -> Idea | None:
        answer = self.ask(SYSTEM, PROPOSE, request_text(state))
        if answer is None:
            return None
        code = answer.raw.get("code")
        if not isinstance(code, str) or not code.strip():
            return answer.refused("Claude proposed no code")
        try:
            generated = run_generate(code, dev_override=self._dev_override)
        except EngineError as err:  # the lint refused it, or no sandbox on this machine
            return answer.refused(f"refused before running: {err.one_line()}")
        if not generated.ok or generated.text is None:
            return answer.refused(f"the sandbox stopped it: {generated.failure}")
        return answer.candidate(generated.text)
