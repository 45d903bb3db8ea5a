"""A sprint-log entry as the sinks see it, and the text pieces every sink renders the same way.

An entry sits under a *section* heading — its sprint (``Technical Sprint 2 · 23 Nov 2026``), or without a sprint its
week (``Week 2026-W48``) — and under a day line when the day changed since the previous entry. A note is one line
``H:MM text`` in the log's time zone (the group's own sprint logs read this way: "3:06 Finished reading the slides;
make a plan."); a run or a submission is a one-line headline in words, then a few lines (parameters that differ
from the defaults, where the cost moved, links), a compact table and its charts. How an entry reads is decided
when it is saved (:class:`EntryDetail`, stored with the outbox row), so a retry renders it the same way.

Each entry carries a marker ``sutro#<uid>`` that lets a sink tell that the entry is already in the document
(exactly-once delivery after a crash, see tools/sprint_log/delivery.py): an HTML comment in the Markdown log, a
named range in a Google Doc.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tools.user_text import one_line, plain_body

KINDS = ("run", "score", "note", "idea", "sprint", "tldr", "explore")
"""``sprint``: a sprint started or ended; ``tldr``: the new summary of a section, replacing the old one in place;
``explore``: an /explore loop's summary (what was tried, what was kept, the best and its verdict)."""
TLDR_LABEL = "TLDR:"
_MARKER_LIKE = re.compile(r"sutro#", re.IGNORECASE)
RESULT_HEADERS = ("metric", "value", "vs baseline", "vs record")
"""The table of entries saved before :class:`EntryDetail` existed (their ``results`` rows)."""


@dataclass(frozen=True)
class EntryTable:
    """A compact table: header cells and rows of cells, already formatted (one number format, tools/metric_format)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class EntryLink:
    """A piece of the links line: ``text``, pointing at ``url`` when there is one (``/show 4`` has none)."""

    text: str
    url: str = ""


@dataclass(frozen=True)
class EntryDetail:
    """How an entry reads, fixed when it is saved.

    zone: IANA time zone of its ``H:MM`` and day line. section: the heading it goes under ("" = its week in
    ``zone``). headline: a run's or submission's line in words ("" = the title). lines: further plain lines
    (parameters, movers). links: the links line. table: its compact table. show_author: name the member (a shared
    log); False where each member has their own section. document: which log it goes to ("" = the shared one;
    a member's own Markdown file when the admins configure per-member logs). tldr: a sprint section's summary line,
    written under its heading when this entry opens the section. verdict: the run's verdict (``WIN`` …), "" if none.
    """

    zone: str = "UTC"
    section: str = ""
    headline: str = ""
    lines: tuple[str, ...] = ()
    links: tuple[EntryLink, ...] = ()
    table: EntryTable | None = None
    show_author: bool = True
    document: str = ""
    tldr: str = ""
    verdict: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "zone": self.zone,
            "section": self.section,
            "headline": self.headline,
            "lines": list(self.lines),
            "links": [[link.text, link.url] for link in self.links],
            "table": None if self.table is None else {"headers": list(self.table.headers), "rows": self.table.rows},
            "show_author": self.show_author,
            "document": self.document,
            "tldr": self.tldr,
            "verdict": self.verdict,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> EntryDetail:
        """The detail stored with an outbox row; ``{}`` (a row saved before details existed) gives the defaults."""
        if not data:
            return cls()
        table = data.get("table")
        return cls(
            zone=str(data.get("zone") or "UTC"),
            section=str(data.get("section") or ""),
            headline=str(data.get("headline") or ""),
            lines=tuple(str(line) for line in data.get("lines") or ()),
            links=tuple(EntryLink(str(text), str(url)) for text, url in data.get("links") or ()),
            table=None
            if not table
            else EntryTable(tuple(map(str, table["headers"])), tuple(tuple(map(str, r)) for r in table["rows"])),
            show_author=bool(data.get("show_author", True)),
            document=str(data.get("document") or ""),
            tldr=str(data.get("tldr") or ""),
            verdict=str(data.get("verdict") or ""),
        )


@dataclass(frozen=True)
class EntryChart:
    """A chart of an entry: a file name (``reuse.png``), a one-line caption, and the PNG bytes."""

    name: str
    caption: str
    png: bytes


@dataclass(frozen=True)
class LogEntry:
    """One entry. results: rows of (metric, value, change vs baseline, change vs record) of an entry saved before
    ``detail`` existed (its table); detail: how it reads; charts: its images."""

    uid: str
    created_at: datetime
    author: str
    kind: str
    title: str
    body: str = ""
    results: list[tuple[str, str, str, str]] = field(default_factory=list)
    detail: EntryDetail = EntryDetail()
    charts: tuple[EntryChart, ...] = ()

    @property
    def local(self) -> datetime:
        """When it was saved, in the log's time zone."""
        return self.created_at.astimezone(zone_of(self.detail.zone))

    @property
    def table(self) -> EntryTable | None:
        """Its table: the detail's, else the old results rows."""
        if self.detail.table is not None:
            return self.detail.table
        if self.results:
            return EntryTable(RESULT_HEADERS, tuple(tuple(row) for row in self.results))
        return None


def zone_of(name: str) -> tzinfo:
    """The time zone called ``name``; UTC for a name that does not exist (the setting is validated when an admin
    sets it, so this only guards rows written by hand)."""
    try:
        return ZoneInfo(name) if name and name != "UTC" else UTC
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def week_heading(when: datetime, zone: str = "UTC") -> str:
    """The heading of ``when``'s ISO week in ``zone``, e.g. ``Week 2026-W47``."""
    year, week, _ = when.astimezone(zone_of(zone)).isocalendar()
    return f"Week {year}-W{week:02d}"


def section_heading(entry: LogEntry) -> str:
    """The heading ``entry`` goes under: its sprint's, or its week's."""
    return entry.detail.section or week_heading(entry.created_at, entry.detail.zone)


def day_line(entry: LogEntry) -> str:
    """The day ``entry`` was saved on, in the log's zone: ``Tue 24 Nov 2026``."""
    return f"{entry.local:%a %d %b %Y}"


def clock(entry: LogEntry) -> str:
    """``H:MM`` in the log's zone, as the group writes it (``3:06``, ``14:30``)."""
    local = entry.local
    return f"{local.hour}:{local.minute:02d}"


def first_line(entry: LogEntry) -> str:
    """The entry's first line without its time: a note's title, or a run's headline (member text made one line)."""
    return neutral(one_line(entry.detail.headline or entry.title))


def author_suffix(entry: LogEntry) -> str:
    """`` — alice`` in a shared log, "" where the section is the member's own."""
    return f" — {neutral(one_line(entry.author))}" if entry.detail.show_author and entry.author else ""


def entry_heading(entry: LogEntry) -> str:
    """``3:06 <first line> — alice``: the whole first line of the entry as plain text."""
    return f"{clock(entry)} {first_line(entry)}{author_suffix(entry)}"


def tldr_line(text: str) -> str:
    """``TLDR: <text>`` on one line (member text made one line, marker-like text broken up)."""
    return f"{TLDR_LABEL} {neutral(one_line(text))}"


def marker(uid: str) -> str:
    """The text that identifies an entry inside a document."""
    return f"sutro#{uid}"


def extra_lines(entry: LogEntry) -> list[str]:
    """The lines after the first: the body (member text, marker-like text broken up), then the detail's lines."""
    body = [line for line in body_text(entry).split("\n") if line.strip()]
    return [*body, *(neutral(one_line(line)) for line in entry.detail.lines)]


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
