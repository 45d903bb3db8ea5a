"""Errors the tools raise for bad configuration or input: one line plus a hint for the user."""

from __future__ import annotations


class ToolError(Exception):
    """A refused tool request (bad sprint-log settings, unknown challenge or metric …)."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def one_line(self) -> str:
        """The message and hint on one line."""
        return f"{self.message} — {self.hint}" if self.hint else self.message
