"""The default sprint-log sink: a Markdown file in the data directory (no credentials needed).

Appends cost the same at 100 and at 10,000 entries: the sink does not re-read the file. What an append needs to
know — the last section and day headings (does this entry open a new sprint, week or day?), the last entries'
uids (is this entry already there, after a crash between the write and the outbox update?), whether the file ends
in a blank line — is kept in
a small state file beside the log (``.sprint-log.md.state``), together with the log's size when it was written.
If the sizes differ (a person edited the log, or we died between the two writes) the state is rebuilt from one
full read, which also finds any marker already in the file.

Per-member logs (``EntryDetail.document``): a member's entries go to their own file beside the shared one
(``sprint-log-alice.md``), each with its own state. Charts are PNG files in ``sprint-log-charts/`` beside the log,
written before the entry that links to them.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import BinaryIO

from tools.sprint_log.entry import (
    TLDR_LABEL,
    LogEntry,
    author_suffix,
    clock,
    day_line,
    extra_lines,
    first_line,
    marker,
    neutral,
    section_heading,
    tldr_line,
)
from tools.sprint_log.images import public_chart_name
from tools.user_text import markdown, one_line

SPRINT_LOG_FILE = "sprint-log.md"
CHARTS_DIR = "sprint-log-charts"
"""Charts are image files in this folder beside the log, linked from their entry."""
RECENT_UIDS = 128
"""How many of the last written uids the state keeps (delivery is in order: a retried entry is the last one)."""
_SLUG = re.compile(r"[^a-z0-9]+")


def _cell(text: str) -> str:
    return markdown(neutral(one_line(text)), lines_start_blocks=False)


def member_log_name(member: str) -> str:
    """The file of a member's own log (per-member logs): ``sprint-log-alice.md``."""
    return f"sprint-log-{_SLUG.sub('-', member.lower()).strip('-') or 'member'}.md"


def render_markdown(entry: LogEntry, *, new_section: bool, new_day: bool = True) -> str:
    """The Markdown block for ``entry``: the section heading when it opens one, the day line when the day changed,
    its first line (``H:MM`` and the note or headline) with the marker as an HTML comment, further lines, the table
    and its charts (links to files in :data:`CHARTS_DIR`). Member text is escaped: it cannot start a heading, a
    table, a link or raw HTML."""
    lines: list[str] = []
    if new_section:
        lines += [f"## {markdown(neutral(one_line(section_heading(entry))))}", ""]
        if entry.detail.tldr:
            lines += [tldr_markdown(entry.detail.tldr), ""]
    if new_section or new_day:
        lines += [f"### {day_line(entry)}", ""]
    text = markdown(first_line(entry))
    first = f"{clock(entry)} {text}" if entry.kind == "note" else f"{clock(entry)} **{text}**"
    first += markdown(author_suffix(entry)) + f" <!-- {marker(entry.uid)} -->"
    more = [markdown(line) for line in extra_lines(entry)]
    links = [f"[{markdown(link.text)}]({link.url})" if link.url else markdown(link.text) for link in entry.detail.links]
    if links:
        more.append(" · ".join(links))
    lines += ["  \n".join([first, *more]), ""]
    table = entry.table
    if table is not None:
        lines.append("| " + " | ".join(_cell(h) for h in table.headers) + " |")
        lines.append("|" + "|".join("---" if i == 0 else "--:" for i in range(len(table.headers))) + "|")
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
        lines.append("")
    for chart in entry.charts:
        lines += [f"![{_cell(chart.caption)}]({CHARTS_DIR}/{public_chart_name(entry, chart)})", ""]
    return "\n".join(lines) + "\n"


def tldr_markdown(text: str) -> str:
    """The TLDR line under a sprint's heading: ``**TLDR:** …`` (member text escaped: no other line starts so)."""
    return f"**{TLDR_LABEL}** {markdown(tldr_line(text).removeprefix(TLDR_LABEL).strip())}"


@dataclass
class LogFileState:
    """What an append needs to know about the log file, valid while the file has ``size`` bytes."""

    size: int = 0
    last_section: str | None = None
    last_day: str | None = None
    recent_uids: list[str] = field(default_factory=list)
    ends_with_blank_line: bool = False
    tldr_offsets: dict[str, int] = field(default_factory=dict)
    """Section heading line -> byte offset of its TLDR line."""


def scan_log(data: bytes, uids: list[str]) -> LogFileState:
    """The state of a log file with contents ``data`` (one full read; used when the saved state is stale).
    ``uids``: markers to look for (the entry about to be written)."""
    text = data.decode("utf-8", "replace")
    section = day = None
    tldrs: dict[str, int] = {}
    offset = 0
    for raw in data.splitlines(keepends=True):
        line = raw.decode("utf-8", "replace").rstrip("\n")
        if line.startswith("## "):
            section, day = line, None
        elif line.startswith("### "):
            day = line
        elif line.startswith(f"**{TLDR_LABEL}**") and section is not None and section not in tldrs:
            tldrs[section] = offset
        offset += len(raw)
    return LogFileState(
        tldr_offsets=tldrs,
        size=len(data),
        last_section=section,
        last_day=day,
        recent_uids=[uid for uid in uids if marker(uid) in text],
        ends_with_blank_line=not text or text.endswith("\n\n"),
    )


class MarkdownSink:
    """Appends entries to ``<data dir>/sprint-log.md``; an entry whose marker is already in the file is skipped.

    Two processes may deliver at once: an exclusive ``flock`` on the log makes check-then-append atomic, and the
    state file is only read and written under that lock.
    """

    name = "markdown"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.state_path = path.with_name(f".{path.name}.state")
        self.full_reads = 0
        """How many appends had to read the whole file (a stale or missing state): for tests and the bench."""

    def deliver(self, entry: LogEntry) -> bool:
        path = self.path if not entry.detail.document else self.path.with_name(member_log_name(entry.detail.document))
        state_path = self.state_path if path == self.path else path.with_name(f".{path.name}.state")
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)  # members' notes: not world-readable
        with os.fdopen(fd, "a+b") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)  # two processes delivering at once: check-then-append stays atomic
            state = self._state(fh, state_path, entry.uid)
            if entry.uid in state.recent_uids:
                return False
            section = f"## {markdown(neutral(one_line(section_heading(entry))))}"
            if entry.kind == "tldr":
                return self._replace_tldr(fh, state, state_path, section, entry)
            day = f"### {day_line(entry)}"
            new_section = state.last_section != section
            new_day = new_section or state.last_day != day
            self._write_charts(path.parent, entry)  # before the text that links to them
            block = render_markdown(entry, new_section=new_section, new_day=new_day)
            data = (("" if state.ends_with_blank_line else "\n") + block).encode("utf-8")
            if new_section and entry.detail.tldr:
                state.tldr_offsets[section] = state.size + data.index(f"**{TLDR_LABEL}**".encode())
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            state.last_section, state.last_day = section, day
            state.size += len(data)
            state.recent_uids = [*state.recent_uids, entry.uid][-RECENT_UIDS:]
            state.ends_with_blank_line = block.endswith("\n\n")
            self._save(state, state_path)
            return True

    def _replace_tldr(self, fh: BinaryIO, state: LogFileState, state_path: Path, section: str, entry: LogEntry) -> bool:
        """Replace the TLDR line of ``section`` with the entry's text: the rest of the file after it is rewritten
        (the sprint's entries, not the whole log). False when the section has no TLDR line (nothing written)."""
        offset = state.tldr_offsets.get(section)
        fh.seek(offset if offset is not None else 0)
        if offset is None or not fh.read(len(TLDR_LABEL) + 4).startswith(f"**{TLDR_LABEL}**".encode()):
            fh.seek(0)
            state = scan_log(fh.read(), [])
            offset = state.tldr_offsets.get(section)
            if offset is None:
                return False
        fh.seek(offset)
        tail = fh.read()
        old, _, rest = tail.partition(b"\n")
        new = tldr_markdown(entry.body).encode("utf-8")
        fh.truncate(offset)  # O_APPEND: the write below lands at the new end
        fh.write(new + b"\n" + rest)
        fh.flush()
        os.fsync(fh.fileno())
        delta = len(new) - len(old)
        state.tldr_offsets = {k: v + delta if v > offset else v for k, v in state.tldr_offsets.items()}
        state.size += delta
        self._save(state, state_path)
        return True

    @staticmethod
    def _write_charts(folder: Path, entry: LogEntry) -> None:
        if not entry.charts:
            return
        charts = folder / CHARTS_DIR
        charts.mkdir(mode=0o700, exist_ok=True)
        for chart in entry.charts:
            fd = os.open(charts / public_chart_name(entry, chart), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(chart.png)

    def _state(self, fh: BinaryIO, state_path: Path, uid: str) -> LogFileState:
        """The saved state if it matches the file's size, else one rebuilt from a full read."""
        size = os.fstat(fh.fileno()).st_size
        try:
            saved = LogFileState(**json.loads(state_path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            saved = None
        if saved is not None and saved.size == size:
            return saved
        self.full_reads += 1
        fh.seek(0)
        return scan_log(fh.read(), [uid])

    def _save(self, state: LogFileState, state_path: Path) -> None:
        temporary = state_path.with_name(state_path.name + ".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it names entry uids: keep it private
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(asdict(state)))
        os.replace(temporary, state_path)

    def close(self) -> None:
        """Nothing to release."""
