"""AppContext: the services a command may use, built once by the composition root (``bot.app``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.settings import Settings


@dataclass
class AppContext:
    """Handed to every command. Tests build one directly with the services they need."""

    settings: Settings
