"""AppContext: the services a command may use, built once by the composition root (``bot.app``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.settings import Settings

if TYPE_CHECKING:
    from bot.jobs.board import JobBoard


@dataclass
class AppContext:
    """Handed to every command. Tests build one directly with the services they need.

    jobs: the bot's job queue; None where commands run directly (the CLI, inside a worker process).
    """

    settings: Settings
    jobs: JobBoard | None = None
