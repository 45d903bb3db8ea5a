"""Errors the engine raises for bad input: each carries a one-line message and a hint for the user.

Upper layers turn these into a one-line reply; anything else that escapes is an internal error with an incident id.
"""

from __future__ import annotations


class EngineError(Exception):
    """Bad input or a refused request. ``str(err)`` is one line; ``hint`` says how to fix it (may be empty)."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def one_line(self) -> str:
        """The message and hint on one line, as shown to a member."""
        return f"{self.message} — {self.hint}" if self.hint else self.message


class UnknownName(EngineError):
    """A challenge, method, metric or parameter name that is not registered."""

    def __init__(self, kind: str, name: str, suggestions: list[str], known: list[str]) -> None:
        if suggestions:
            hint = "did you mean " + " or ".join(f"'{s}'" for s in suggestions) + "?"
        else:
            hint = f"known {kind}s: " + ", ".join(known)
        super().__init__(f"unknown {kind} '{name}'", hint=hint)
        self.kind = kind
        self.name = name
        self.suggestions = suggestions
        self.known = known


class BadParameter(EngineError):
    """A parameter value outside its valid range or of the wrong type."""
