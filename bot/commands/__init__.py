"""The command registry: one module per command, collected here in menu order.

This list drives the CLI, Telegram dispatch and menu, ``/help`` and the README command table.
"""

from __future__ import annotations

from bot.commands import challenges, guide, queue, serve, status
from bot.commands.base import Command

COMMANDS: tuple[Command, ...] = (
    guide.START,
    guide.HELP,
    challenges.COMMAND,
    queue.QUEUE,
    queue.CANCEL,
    status.COMMAND,
    serve.COMMAND,
)


def command_named(name: str) -> Command | None:
    """The registered command called ``name``, or None."""
    return next((c for c in COMMANDS if c.name == name), None)
