"""Delivery leases: one holder at a time, renewed by its holder, taken over once expired, released only by the
holder; and the sprint-log delivery waits for another process's lease instead of writing beside it."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

from storage.database import SessionFactory
from storage.leases import release_lease, take_lease
from storage.outbox import backlog_size
from tools.sprint_log.delivery import OutboxDelivery
from tools.sprint_log.log import SprintLog
from tools.sprint_log.markdown_sink import MarkdownSink

MINUTE = timedelta(minutes=1)


def test_one_holder_at_a_time_until_it_expires_or_is_released(db_sessions: SessionFactory) -> None:
    with db_sessions() as s:
        assert take_lease(s, name="sink", holder="a", ttl=MINUTE)
        assert not take_lease(s, name="sink", holder="b", ttl=MINUTE)
        assert take_lease(s, name="sink", holder="a", ttl=MINUTE)  # renewed by its holder
        assert take_lease(s, name="other sink", holder="b", ttl=MINUTE)  # names are independent
        release_lease(s, name="sink", holder="b")  # not b's: left alone
        assert not take_lease(s, name="sink", holder="b", ttl=MINUTE)
        release_lease(s, name="sink", holder="a")
        assert take_lease(s, name="sink", holder="b", ttl=timedelta(seconds=0.2))
    time.sleep(0.3)
    with db_sessions() as s:  # b died without releasing: its lease expired
        assert take_lease(s, name="sink", holder="a", ttl=MINUTE)


def test_a_delivery_waits_for_the_holder_and_writes_nothing_beside_it(
    db_sessions: SessionFactory, tmp_path: Path
) -> None:
    sink = MarkdownSink(tmp_path / "log.md")
    delivery = OutboxDelivery(db_sessions, sink)
    log = SprintLog(db_sessions, delivery)
    with db_sessions() as s:  # another process is delivering to the same sink
        assert take_lease(s, name=f"sprint-log:{sink.name}", holder="another process", ttl=timedelta(seconds=1))
    try:
        saved = log.append_entry(author="al", kind="note", title="written by the holder or after it", deliver=False)
        report = delivery.deliver_pending(budget_s=0.3)
        assert (report.delivered, report.pending) == (0, 1)
        assert not (tmp_path / "log.md").exists() or saved.entry.uid not in (tmp_path / "log.md").read_text()
        time.sleep(1.0)  # the holder went away without releasing: its lease expires
        report = delivery.deliver_pending()
    finally:
        log.close()
    assert (report.delivered, report.pending) == (1, 0)
    with db_sessions() as s:
        assert backlog_size(s) == 0
