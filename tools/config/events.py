"""A tiny publish/subscribe point for "tool setting KEY changed", shared by every copy of the app context.

Subscribers are called in the thread that made the change (a command runs in a worker thread): a subscriber
that touches an event loop must hop onto it (``loop.call_soon_threadsafe``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("sutro.config")


class ConfigEvents:
    """Register ``subscribe(fn)``; :meth:`publish` calls every subscriber with the changed key's name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Callable[[str], None]] = []

    def subscribe(self, subscriber: Callable[[str], None]) -> Callable[[], None]:
        """Add ``subscriber``; returns a function that removes it again."""
        with self._lock:
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

        return unsubscribe

    def publish(self, key: str) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                subscriber(key)
            except Exception:  # noqa: BLE001 - a failing subscriber must not undo a committed change
                log.exception("config change subscriber failed for %s", key)
