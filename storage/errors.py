"""Errors the storage layer raises for bad input or an unusable database: one line plus a hint for the user."""

from __future__ import annotations


class StorageError(Exception):
    """A refused storage request. ``one_line()`` is what a member sees: the reason and how to fix it."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def one_line(self) -> str:
        """The message and hint on one line."""
        return f"{self.message} — {self.hint}" if self.hint else self.message


class DatabaseUnavailable(StorageError):
    """The configured database cannot be reached or opened."""


class UnknownRun(StorageError):
    """A run id that is not stored."""


class UnknownLoop(StorageError):
    """An /explore loop id that is not stored."""
