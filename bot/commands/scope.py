"""A run id as a command argument (``42`` or ``#42``); the challenge and metric a board command is about are resolved
in the core (bot/core/board_scope.py)."""

from __future__ import annotations

from bot.invocation import UsageError


def parse_run_id(token: str, *, usage: str) -> int:
    """``42`` or ``#42`` as an int; anything else is a UsageError."""
    text = token.lstrip("#")
    if not text.isdigit():
        raise UsageError(f"'{token}' is not a run id", hint=f"run ids are numbers like 42; usage: {usage}")
    return int(text)
