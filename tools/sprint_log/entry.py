"""A sprint-log entry as the sinks see it, and the text pieces every sink renders the same way.

An entry sits under a heading for its ISO week (``Week 2026-W47``); its own heading is the UTC timestamp and title;
a meta line names the kind and author and carries the entry's marker ``sutro#<uid>``, which lets a sink tell that
the entry is already in the document (exactly-once delivery after a crash, see tools/sprint_log/delivery.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from tools.user_text import one_line, plain_body

KINDS = ("run", "score", "note", "idea")
_MARKER_LIKE = re.compile(r"sutro#", re.IGNORECASE)
RESULT_HEADERS = ("metric", "value", "vs baseline", "vs record")


@dataclass(frozen=True)
class LogEntry:
    """One entry. results: rows of (metric, value, change vs baseline, change vs record), already formatted."""

    uid: str
    created_at: datetime
    author: str
    kind: str
    title: str
    body: str = ""
    results: list[tuple[str, str, str, str]] = field(default_factory=list)


def week_heading(when: datetime) -> str:
    """The heading of ``when``'s ISO week in UTC, e.g. ``Week 2026-W47``."""
    year, week, _ = when.astimezone(UTC).isocalendar()
    return f"Week {year}-W{week:02d}"


def entry_heading(entry: LogEntry) -> str:
    """``2026-11-22 18:30 UTC — <title>`` (plain ISO text: deterministic length for index arithmetic)."""
    return f"{entry.created_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC — {neutral(one_line(entry.title))}"


def marker(uid: str) -> str:
    """The text that identifies an entry inside a document."""
    return f"sutro#{uid}"


def meta_line(entry: LogEntry) -> str:
    """``note by alice · sutro#1a2b3c``."""
    return f"{one_line(entry.kind)} by {neutral(one_line(entry.author))} · {marker(entry.uid)}"


def body_text(entry: LogEntry) -> str:
    """The entry's body as every sink writes it: control characters removed, and any marker-like text
    (``sutro#…``) broken up, so that content can never make a sink believe another entry is present."""
    return neutral(plain_body(entry.body))


def neutral(text: str) -> str:
    """``text`` with the marker prefix ``sutro#`` (any case) broken into ``sutro #``."""
    return _MARKER_LIKE.sub(lambda m: m.group(0)[:-1] + " #", text)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: the unit of every Google Docs index (an emoji counts 2)."""
    return len(text.encode("utf-16-le")) // 2
