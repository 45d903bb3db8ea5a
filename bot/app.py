"""The composition root: build every service from :class:`Settings`, in one place, at start-up."""

from __future__ import annotations

from bot.context import AppContext
from bot.settings import Settings


def build_context(settings: Settings | None = None) -> AppContext:
    """Create the application's services from settings (environment and ``.env`` when ``settings`` is None)."""
    settings = settings or Settings()
    return AppContext(settings=settings)
