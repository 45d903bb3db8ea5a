"""The command registry: one module per command, collected here in menu order.

This list drives the CLI, Telegram dispatch and menu, ``/help`` and the README command table.
"""

from __future__ import annotations

from bot.commands import (
    challenges,
    compare,
    config,
    db,
    digest,
    guide,
    idea,
    leaderboard,
    log,
    queue,
    records,
    rescore,
    run,
    runs,
    score,
    serve,
    show,
    status,
    submit,
)
from bot.commands.base import Command

COMMANDS: tuple[Command, ...] = (
    guide.START,
    guide.HELP,
    run.COMMAND,
    submit.COMMAND,
    score.COMMAND,
    challenges.COMMAND,
    leaderboard.COMMAND,
    records.COMMAND,
    runs.COMMAND,
    show.COMMAND,
    compare.COMMAND,
    idea.COMMAND,
    queue.QUEUE,
    queue.CANCEL,
    log.COMMAND,
    digest.COMMAND,
    config.COMMAND,
    rescore.COMMAND,
    status.COMMAND,
    serve.COMMAND,
    db.COMMAND,
)


def command_named(name: str) -> Command | None:
    """The registered command called ``name``, or None."""
    return next((c for c in COMMANDS if c.name == name), None)
