"""The default Markdown sprint log: week headings, a results table, order, idempotent delivery, back-off."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.database import SessionFactory
from storage.outbox import next_due_entry
from storage.timestamps import utcnow
from tools.sprint_log.delivery import Backoff, OutboxDelivery
from tools.sprint_log.entry import LogEntry
from tools.sprint_log.log import SprintLog
from tools.sprint_log.markdown_sink import MarkdownSink, render_markdown
from tools.sprint_log.sink import DeliveryFailed


def test_entries_append_in_order_with_table(db_sessions: SessionFactory, tmp_path: Path) -> None:
    path = tmp_path / "log.md"
    log = SprintLog(db_sessions, OutboxDelivery(db_sessions, MarkdownSink(path)))
    log.append_entry(author="al", kind="run", title="local_update n=20", results=[("dally@1", "10", "-2", "a|b")])
    log.append_entry(author="bo", kind="note", title="hello 🚀", body="a thought")
    text = path.read_text(encoding="utf-8")
    assert text.count("## Week ") == 1
    assert text.index("local_update n=20") < text.index("hello 🚀")
    assert "| metric | value | vs baseline | vs record |" in text
    assert "| dally@1 | 10 | -2 | a\\|b |" in text
    assert "a thought" in text


def test_delivering_the_same_entry_twice_writes_it_once(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from tools.sprint_log.entry import LogEntry

    sink = MarkdownSink(tmp_path / "log.md")
    entry = LogEntry(uid="x1", created_at=datetime(2026, 1, 5, tzinfo=UTC), author="a", kind="note", title="t")
    assert sink.deliver(entry) is True
    assert sink.deliver(entry) is False
    assert (tmp_path / "log.md").read_text().count("sutro#x1") == 1


class AlwaysDown:
    name = "down"

    def deliver(self, entry: object) -> bool:
        raise DeliveryFailed("Docs answered 503", retryable=True)

    def close(self) -> None:
        pass


def test_failed_round_schedules_the_next_try_with_backoff(db_sessions: SessionFactory) -> None:
    sleeps: list[float] = []
    delivery = OutboxDelivery(db_sessions, AlwaysDown(), backoff=Backoff(base_s=2.0, factor=3.0), sleep=sleeps.append)
    log = SprintLog(db_sessions, delivery)
    before = utcnow()
    report = log.append_entry(author="al", kind="note", title="waits").report
    assert report.pending == 1 and report.error == "Docs answered 503"
    assert sleeps == [2.0, 6.0]  # three tries in the round, two back-off sleeps
    with db_sessions() as s:
        assert next_due_entry(s) is None  # not due again before the back-off (2 s after attempt 0) elapsed
        due = next_due_entry(s, now=before + timedelta(seconds=60))
        assert due is not None and due.attempts == 1 and due.last_error == "Docs answered 503"


def note(uid: str, day: int, title: str = "t") -> LogEntry:
    return LogEntry(uid=uid, created_at=datetime(2026, 1, day, 12, tzinfo=UTC), author="a", kind="note", title=title)


def test_appends_do_not_reread_the_file_and_match_a_full_render(tmp_path: Path) -> None:
    """Oracle: the file equals the blocks rendered with the week headings a reader expects (first entry of each
    ISO week) and a day line at each new day, and only the first append (no state yet) read the whole file."""
    sink = MarkdownSink(tmp_path / "log.md")
    days = [5, 6, 12, 12, 13, 19]  # ISO weeks 2, 2, 3, 3, 3, 4 of 2026
    for i, day in enumerate(days):
        assert sink.deliver(note(f"u{i}", day, f"entry {i}")) is True
    assert sink.full_reads == 1
    firsts = {0, 2, 5}
    new_days = {0, 1, 2, 4, 5}  # the 12th twice: one day line
    expected = "".join(  # every block ends in a blank line: blocks follow each other directly
        render_markdown(note(f"u{i}", day, f"entry {i}"), new_section=i in firsts, new_day=i in new_days)
        for i, day in enumerate(days)
    )
    text = (tmp_path / "log.md").read_text(encoding="utf-8")
    assert text == expected
    assert text.count("## Week 2026-W03") == 1 and text.count("### Mon 12 Jan 2026") == 1
    assert "12:00 entry 3 — a <!-- sutro#u3 -->" in text.splitlines()


def test_a_person_editing_the_log_or_a_crash_after_the_write_is_noticed(tmp_path: Path) -> None:
    path = tmp_path / "log.md"
    sink = MarkdownSink(path)
    sink.deliver(note("a1", 5))
    with path.open("a", encoding="utf-8") as fh:  # a person adds a line; the saved size no longer matches
        fh.write("a line typed by a person\n")
    assert sink.deliver(note("a2", 5)) is True and sink.full_reads == 2
    # a writer that died after appending its block but before saving the state: the next delivery of the same
    # entry reads the file, finds the marker and writes nothing
    other = MarkdownSink(path)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(render_markdown(note("a3", 5), new_section=False, new_day=False))
    assert other.deliver(note("a3", 5)) is False and other.full_reads == 1
    text = path.read_text(encoding="utf-8")
    assert [text.count(f"sutro#a{i}") for i in (1, 2, 3)] == [1, 1, 1] and text.count("## Week") == 1
