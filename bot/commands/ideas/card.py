"""The idea card a person approves (plain text; the chat renders it, the CLI prints it) and its buttons."""

from __future__ import annotations

from bot.reply import Button
from tools.assistant.spec import ExperimentSpec

MAX_CODE_LINES_ON_CARD = 40


def card_text(idea_id: int, spec: ExperimentSpec, check_line: str) -> str:
    """The card: title, hypothesis, the one change, baseline, challenge and parameters, seeds, the check, code."""
    sub = spec.submission
    lines = [
        f"idea #{idea_id}: {spec.title}",
        f"hypothesis: {spec.hypothesis}",
        f"the one change: {spec.change}",
        f"baseline: {spec.baseline}",
        f"runs: {sub.describe()}",
        f"seeds: {', '.join(map(str, spec.seeds)) or 'fresh hidden instances (judge)'}",
        f"contract check: {check_line}",
    ]
    if sub.code:
        code_lines = sub.code.rstrip().splitlines()
        shown = code_lines[:MAX_CODE_LINES_ON_CARD]
        if len(code_lines) > len(shown):
            shown.append(f"# … {len(code_lines) - len(shown)} more lines (stored with the idea)")
        lines += ["code:", *shown]
    lines.append("nothing runs until someone presses Run it")
    return "\n".join(lines)


def card_buttons(idea_id: int) -> list[Button]:
    """Run it / Edit / Discard, each carrying the idea id (Telegram callback data ``idea:<action>:<id>``)."""
    return [
        Button("Run it", f"idea:run:{idea_id}"),
        Button("Edit", f"idea:edit:{idea_id}"),
        Button("Discard", f"idea:discard:{idea_id}"),
    ]
