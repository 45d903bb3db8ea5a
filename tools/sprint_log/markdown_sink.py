"""The default sprint-log sink: a Markdown file in the data directory (no credentials needed).

Appends cost the same at 100 and at 10,000 entries: the sink does not re-read the file. What an append needs to
know — the last week heading (does this entry open a new week?), the last entries' uids (is this entry already
there, after a crash between the write and the outbox update?), whether the file ends in a blank line — is kept in
a small state file beside the log (``.sprint-log.md.state``), together with the log's size when it was written.
If the sizes differ (a person edited the log, or we died between the two writes) the state is rebuilt from one
full read, which also finds any marker already in the file.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import BinaryIO

from tools.sprint_log.entry import (
    RESULT_HEADERS,
    LogEntry,
    body_text,
    entry_heading,
    marker,
    meta_line,
    neutral,
    week_heading,
)
from tools.user_text import markdown, one_line

SPRINT_LOG_FILE = "sprint-log.md"
RECENT_UIDS = 128
"""How many of the last written uids the state keeps (delivery is in order: a retried entry is the last one)."""


def _cell(text: str) -> str:
    return markdown(neutral(one_line(text)), lines_start_blocks=False)


def render_markdown(entry: LogEntry, *, needs_week_heading: bool) -> str:
    """The Markdown block for ``entry``: optional week heading, entry heading, meta line, body, results table."""
    lines: list[str] = []
    if needs_week_heading:
        lines += [f"## {week_heading(entry.created_at)}", ""]
    # member text is escaped: a title, name or note cannot start a heading, table, link or raw HTML. The marker
    # is written unescaped (it is ours), after the escaped author.
    heading = entry_heading(LogEntry(entry.uid, entry.created_at, "", "", markdown(neutral(one_line(entry.title)))))
    meta = meta_line(LogEntry(entry.uid, entry.created_at, markdown(neutral(one_line(entry.author))), entry.kind, ""))
    lines += [f"### {heading}", "", f"*{meta}*", ""]
    body = body_text(entry)
    if body.strip():
        lines += ["  \n".join(markdown(line) for line in body.split("\n")), ""]
    if entry.results:
        lines.append("| " + " | ".join(RESULT_HEADERS) + " |")
        lines.append("|" + "---|" * len(RESULT_HEADERS))
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in entry.results]
        lines.append("")
    return "\n".join(lines) + "\n"


@dataclass
class LogFileState:
    """What an append needs to know about the log file, valid while the file has ``size`` bytes."""

    size: int = 0
    last_week: str | None = None
    recent_uids: list[str] = field(default_factory=list)
    ends_with_blank_line: bool = False


def scan_log(data: bytes, uids: list[str]) -> LogFileState:
    """The state of a log file with contents ``data`` (one full read; used when the saved state is stale).
    ``uids``: markers to look for (the entry about to be written)."""
    text = data.decode("utf-8", "replace")
    weeks = [line for line in text.splitlines() if line.startswith("## Week ")]
    return LogFileState(
        size=len(data),
        last_week=weeks[-1] if weeks else None,
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
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)  # members' notes: not world-readable
        with os.fdopen(fd, "a+b") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)  # two processes delivering at once: check-then-append stays atomic
            state = self._state(fh, entry.uid)
            if entry.uid in state.recent_uids:
                return False
            needs_week = state.last_week != f"## {week_heading(entry.created_at)}"
            block = render_markdown(entry, needs_week_heading=needs_week)
            data = (("" if state.ends_with_blank_line else "\n") + block).encode("utf-8")
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            if needs_week:
                state.last_week = f"## {week_heading(entry.created_at)}"
            state.size += len(data)
            state.recent_uids = [*state.recent_uids, entry.uid][-RECENT_UIDS:]
            state.ends_with_blank_line = block.endswith("\n\n")
            self._save(state)
            return True

    def _state(self, fh: BinaryIO, uid: str) -> LogFileState:
        """The saved state if it matches the file's size, else one rebuilt from a full read."""
        size = os.fstat(fh.fileno()).st_size
        try:
            saved = LogFileState(**json.loads(self.state_path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            saved = None
        if saved is not None and saved.size == size:
            return saved
        self.full_reads += 1
        fh.seek(0)
        return scan_log(fh.read(), [uid])

    def _save(self, state: LogFileState) -> None:
        temporary = self.state_path.with_name(self.state_path.name + ".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it names entry uids: keep it private
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(asdict(state)))
        os.replace(temporary, self.state_path)

    def close(self) -> None:
        """Nothing to release."""
