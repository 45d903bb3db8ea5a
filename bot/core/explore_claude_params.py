"""Claude as a proposer for /explore on a method's parameters (docs/explore.md#claude): one parameter line per request.

With a key, when the built-in search (one knob halved or doubled at a time) has nothing more on the loop's best, the
loop asks Claude for a new setting: the method, its knobs with their ranges and current values, the best so far
and its cost, the journal and the member's goal go in; one ``propose_parameters`` call comes back — a hypothesis
and the knobs to change. Claude may move several knobs at once (what the built-in search never does).

Nothing Claude sends runs as code. Its values are checked as a member's ``/run METHOD key=value`` would be
(:func:`engine.methods.method_values`: known keys, typed values in their documented ranges, a setting the method's
defaults are known to solve), and the instance (``n``, ``k``) and the seeds are the loop's, never Claude's: a
proposal that names them, names a key the method does not have, or gives a value out of range is journalled as
refused with that one line, and the loop goes on. A valid proposal is run and judged like any candidate
(:class:`bot.core.explore_methods.MethodLoop`: a stored run, kept only on a WIN beyond the seeds' noise).
"""

from __future__ import annotations

from typing import Any

from bot.core.explore import Idea, SearchState
from bot.core.explore_claude import ClaudeClient, journal_lines
from engine.errors import EngineError
from engine.explore import params_text, parse_text
from engine.methods import SPECS, method_values

TOOL = "propose_parameters"
FIXED = ("n", "k", "seed")
"""What the loop holds fixed: the instance and the seeds (so every candidate is judged on the same ground)."""

PROPOSE: dict[str, Any] = {
    "name": TOOL,
    "description": (
        "Propose ONE new setting of the method's parameters: a one-line hypothesis and the parameters to change "
        "(name -> number). Parameters not named keep the best setting's values. The instance (n, k) and the seeds "
        "are fixed by the loop and may not be named."
    ),
    "input_schema": {
        "type": "object",
        "properties": {
            "hypothesis": {"type": "string", "description": "what this setting tests, in one line"},
            "params": {
                "type": "object",
                "description": 'the parameters to change, e.g. {"lr": 0.05, "hidden": 64}',
                "additionalProperties": {"type": "number"},
            },
        },
        "required": ["hypothesis", "params"],
    },
}

SYSTEM = (
    "You are a research assistant for the Sutro group, tuning one training or solving method on their sparse-parity "
    "challenge for less data movement. Each run is priced by the board's energy metric, averaged over a fixed seed "
    "set; a setting counts only when it still solves the instance and its cost is lower beyond the seeds' noise. "
    f"Call {TOOL} exactly once."
)


def request_text(state: SearchState) -> str:
    """The user message: the board, the method's knobs (range, meaning, current value), the best, the journal."""
    method, raw = parse_text(state.best_text)
    _, values = method_values(method, raw)
    instance = " ".join(f"{k}={values[k]}" for k in ("n", "k") if k in values)
    lines = [
        f"Board: {state.board} {instance} — {state.summary}",
        f"Method: {method}. Best so far: {state.metric} = {state.best_cost:,} (mean over the seeds)"
        + ("" if state.record_cost is None else f"; the best stored run on this board is {state.record_cost:,.0f}"),
        "Parameters you may change (type and range, meaning, the best setting's value):",
    ]
    lines += [
        f"  {key}: {SPECS[key].describe()}, {SPECS[key].meaning}; now {value}"
        for key, value in sorted(values.items())
        if key not in FIXED and key in SPECS
    ]
    if state.goal:
        lines.append(f"The member's goal: {state.goal}")
    lines += journal_lines(state)
    return "\n".join(lines)


def proposed_text(best_text: str, proposed: object) -> str:
    """The candidate's parameter line: the best setting with Claude's changes; EngineError (one line) for anything
    a member's ``/run`` would refuse, or that touches what the loop holds fixed."""
    method, raw = parse_text(best_text)
    if not isinstance(proposed, dict) or not proposed:
        raise EngineError("Claude named no parameters to change")
    fixed = sorted(k for k in proposed if k in FIXED)
    if fixed:
        raise EngineError(f"the loop holds {', '.join(fixed)} fixed (the instance and the seeds are not Claude's)")
    changed = dict(raw)
    for key, value in proposed.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise EngineError(f"{key}={value!r} is not a number")
        spec = SPECS.get(str(key))
        if spec is not None and spec.kind is int and isinstance(value, float) and value.is_integer():
            value = int(value)  # JSON's 25.0 for a whole-number knob
        changed[str(key)] = str(value)
    _, values = method_values(method, changed)  # unknown keys, types, ranges: the engine's own lines
    return params_text(method, {k: v for k, v in values.items() if k != "seed"})


class ClaudeParamsProposer(ClaudeClient):
    """The loop's :class:`bot.core.explore.Proposer` for method boards (see the module docstring)."""

    def propose(self, state: SearchState) -> Idea | None:
        answer = self.ask(SYSTEM, PROPOSE, request_text(state))
        if answer is None:
            return None
        try:
            text = proposed_text(state.best_text, answer.raw.get("params"))
        except EngineError as err:
            return answer.refused(f"refused: {err.one_line()}")
        if text == state.best_text:
            return answer.refused("refused: the best setting itself")
        return answer.candidate(text)
