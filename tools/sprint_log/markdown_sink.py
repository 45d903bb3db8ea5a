"""The default sprint-log sink: a Markdown file in the data directory (no credentials needed)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

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


class MarkdownSink:
    """Appends entries to ``<data dir>/sprint-log.md``; an entry whose marker is already in the file is skipped."""

    name = "markdown"

    def __init__(self, path: Path) -> None:
        self.path = path

    def deliver(self, entry: LogEntry) -> bool:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)  # members' notes: not world-readable
        with os.fdopen(fd, "a+", encoding="utf-8") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)  # two processes delivering at once: check-then-append stays atomic
            fh.seek(0)
            return self._append(fh, fh.read(), entry)

    def _append(self, fh: Any, existing: str, entry: LogEntry) -> bool:
        if marker(entry.uid) in existing:
            return False
        week_headings = [line for line in existing.splitlines() if line.startswith("## Week ")]
        needs_week = not week_headings or week_headings[-1] != f"## {week_heading(entry.created_at)}"
        block = render_markdown(entry, needs_week_heading=needs_week)
        prefix = "\n" if existing and not existing.endswith("\n\n") else ""
        fh.write(prefix + block)
        fh.flush()
        os.fsync(fh.fileno())
        return True

    def close(self) -> None:
        """Nothing to release."""
