"""Why an IR program is refused before it runs: one :class:`EngineError` subclass, one line, the IR line quoted.

Rule (documented in ``engine.scoring.ir``): anything decidable from the text alone — syntax, unknown op, arity,
addresses, read-before-write, outputs never written, input/output counts, line cap — raises
:class:`InvalidProgram`; behaviour on the test data (a wrong answer, division by zero) is a failed run instead.
"""

from __future__ import annotations

from engine.errors import EngineError

QUOTE_LIMIT = 60
"""Characters of an offending line quoted in a message (a 1 MB line is shortened)."""


def quote(text: str) -> str:
    """``text`` in backticks, shortened to :data:`QUOTE_LIMIT` characters, control characters escaped."""
    short = text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"
    if not short.isprintable():
        short = short.encode("unicode_escape").decode("ascii")
    return f"`{short}`"


class InvalidProgram(EngineError):
    """The IR text breaks a rule of the challenge's scorer. ``line`` is 1-based (0 when no single line is at fault)."""

    def __init__(self, message: str, *, line: int = 0, hint: str = "") -> None:
        super().__init__(f"line {line}: {message}" if line else message, hint=hint)
        self.line = line
