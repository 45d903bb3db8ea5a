"""Why ``sutro serve`` would not start, in one sentence, and the exit status that says which part failed.

A start-up failure is an operator's problem with one part of the deployment; :class:`StartupRefused` names the part,
says what is wrong and how to fix it in one sentence, and carries the documented exit status (below, and in
docs/integrations.md#starting-the-bot). The details (exception types, the chain of causes) go to the log
(logger ``sutro.startup``), not to the terminal.
"""

from __future__ import annotations

from enum import StrEnum


class Part(StrEnum):
    """The part of the deployment that stopped the bot from starting."""

    SETTINGS = "settings"  # a SUTRO_ setting or a credential file is invalid or unreadable
    NETWORK = "network"  # Telegram's Bot API cannot be reached
    TOKEN = "token"  # Telegram refused the bot token
    DATA_DIR = "data directory"  # the data directory cannot be created or written
    DATABASE = "database"  # the database cannot be reached, or refused the login


EXIT_STATUS: dict[Part, int] = {
    Part.SETTINGS: 2,
    Part.NETWORK: 4,
    Part.TOKEN: 5,
    Part.DATA_DIR: 6,
    Part.DATABASE: 7,
}
"""``sutro serve``'s exit status for each part (0: stopped cleanly; 3: an internal error, with an incident id)."""


class StartupRefused(Exception):
    """The bot cannot start because of ``part``; ``sentence`` is what the operator reads (what, and the fix)."""

    def __init__(self, part: Part, sentence: str) -> None:
        super().__init__(sentence)
        self.part = part
        self.sentence = sentence

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS[self.part]


def causes(exc: BaseException) -> str:
    """``exc`` and its chain of causes as ``Type: message <- Type: message`` (for the log)."""
    seen: list[str] = []
    current: BaseException | None = exc
    while current is not None and len(seen) < 10:
        seen.append(f"{type(current).__name__}: {current}")
        current = current.__cause__ or current.__context__
    return " <- ".join(seen)
