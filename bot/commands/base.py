"""The transport-agnostic command layer: what a command receives and what it answers.

The CLI and the Telegram handlers both turn their input into an :class:`Invocation`, call the same
:class:`Command`, and render the :class:`Reply` their own way (a rich table / JSON on the terminal; a formatted
message, photo or document in the chat). A command never prints, never talks to Telegram and never reads argv.

The types live in leaf modules (``bot.invocation``, ``bot.reply``, ``bot.command``) so that the job board and the
executors can carry them without importing the command registry; they are re-exported here for the commands.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from bot.command import Command
from bot.invocation import LOCAL_CALLER, Attachment, Caller, Invocation, Progress, UsageError
from bot.reply import Button, Followup, OutFile, Paging, Reply, Table

if TYPE_CHECKING:
    from bot.context import AppContext

Handler = Callable[["AppContext", Invocation], Reply]
"""What a command's handler is: the application context and the invocation in, the reply out."""
StopHandler = Callable[["AppContext", Invocation, datetime], str]
"""See :attr:`Command.on_stopped`."""

__all__ = [
    "LOCAL_CALLER",
    "Attachment",
    "Button",
    "Caller",
    "Command",
    "Followup",
    "Handler",
    "Invocation",
    "OutFile",
    "Paging",
    "Progress",
    "Reply",
    "StopHandler",
    "Table",
    "UsageError",
]
