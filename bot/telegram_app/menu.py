"""The Telegram command menu and ``/help`` text, generated from the command registry.

Telegram's rules for ``setMyCommands`` (Bot API): a command is 1–32 characters of lowercase letters, digits and
underscores; its description 1–256 characters; at most 100 commands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.command import Command

NAME_RULE = re.compile(r"^[a-z0-9_]{1,32}$")
MAX_DESCRIPTION = 256
MAX_COMMANDS = 100


class MenuError(ValueError):
    """The registry breaks one of Telegram's menu rules (a programming error, caught by a test)."""


def menu_entries(commands: Iterable[Command]) -> list[tuple[str, str]]:
    """``(name, description)`` for every Telegram command, checked against Telegram's limits."""
    entries = [(c.name, c.summary) for c in commands if c.telegram]
    for name, description in entries:
        if not NAME_RULE.match(name):
            raise MenuError(f"command name {name!r} breaks Telegram's rule (1-32 of a-z, 0-9, _)")
        if not 1 <= len(description) <= MAX_DESCRIPTION:
            raise MenuError(f"description of /{name} is {len(description)} chars (Telegram allows 1-256)")
    if len(entries) > MAX_COMMANDS:
        raise MenuError(f"{len(entries)} commands; Telegram's menu holds at most {MAX_COMMANDS}")
    return entries
