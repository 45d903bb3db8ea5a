"""The one reader of a submitted file's bytes (``score``, ``submit``, ``run`` with a file): text as the scorers see it.

Strict UTF-8 with nothing taken away: a file that starts with a UTF-8 byte-order mark (EF BB BF) is refused, as the
group's scorers refuse it (their first line then does not read as integers) and as :func:`engine.scoring.ir.score_ir`
does when given the same text, so a program is accepted on every path or on none. NUL bytes (a binary file) and
bytes that are not UTF-8 are refused too, each in one line with a hint.
"""

from __future__ import annotations

import codecs

from engine.errors import EngineError

PLAIN_TEXT_HINT = "give the program as plain UTF-8 text"


def program_text(content: bytes, *, hint: str = PLAIN_TEXT_HINT) -> str:
    """``content`` decoded as strict UTF-8; EngineError (one line, ``hint``) for a BOM, NUL bytes or bad bytes."""
    if content.startswith(codecs.BOM_UTF8):
        raise EngineError(
            "the file starts with a UTF-8 byte-order mark (EF BB BF), which the group's scorer rejects",
            hint="save it as UTF-8 without a BOM (most editors: encoding 'UTF-8', not 'UTF-8 with BOM')",
        )
    if b"\x00" in content:
        raise EngineError("not a text file (it contains NUL bytes)", hint=hint)
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as err:
        raise EngineError(f"not UTF-8 text (bad byte at offset {err.start})", hint=hint) from None
