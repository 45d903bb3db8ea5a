"""The weekly digest carries the week of the sprint log: sprints with their TLDRs, the verdicts its results stated,
its notes and ideas, and only the failures still open — and a long week is split into chat messages that each fit
Telegram's 4096 characters, cut between sections, nothing lost.

A hand-made week, clocks pinned (every row has a fixed time): [Mon 16 Nov 09:00, Mon 23 Nov 09:00) UTC.
  sprint "Technical Sprint 2", started Nov 17, ended Nov 20 (TLDR set)  → "ended"
  sprint "Technical Sprint 3", started Nov 21, still running            → "running"
  sprint "Technical Sprint 1", ended Nov 10                             → before the week: left out
  entries: note Nov 17 (alice), run Nov 18 (WIN), score Nov 19 (LOSS), idea Nov 20 (bob), note Nov 24 (after)
  runs: #1 carol tiled failed Nov 18 10:00, #2 carol tiled ok Nov 18 12:00 (the failure is fixed: not open);
        #3 dave naive failed Nov 21 (open)
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.commands.digest_content import MESSAGE_BUDGET, digest_messages
from bot.reply import Reply, Table
from bot.telegram_app.render import MESSAGE_LIMIT, render
from storage.outbox import save_entry
from storage.runs import NewRun, record_run
from storage.sprints import end_sprint, start_sprint
from tools.digest import render_digest
from tools.digest_week import gather_week

START = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)
END = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def at(day: int, hour: int = 12) -> datetime:
    return datetime(2026, 11, day, hour, tzinfo=UTC)


def store(sessions: Any) -> None:
    with sessions() as session:
        old = start_sprint(session, title="Technical Sprint 1", goal="", started_by="al", started_at=at(2))
        assert old is not None and old.id is not None
        end_sprint(session, sprint_id=old.id, ended_by="al", ended_at=at(10))
        two = start_sprint(session, title="Technical Sprint 2", goal="g", started_by="al", started_at=at(17))
        assert two is not None and two.id is not None
        two.tldr = "1 run, 1 submission. Verdicts: 1 WIN, 1 LOSS."
        session.add(two)
        session.commit()
        end_sprint(session, sprint_id=two.id, ended_by="al", ended_at=at(20))
        start_sprint(session, title="Technical Sprint 3", goal="", started_by="bo", started_at=at(21))
        save_entry(session, author="alice", kind="note", title="Finished reading the slides", created_at=at(17, 3))
        save_entry(
            session,
            author="alice",
            kind="run",
            title="sparse_parity / local_update (#4)",
            created_at=at(18),
            detail={"headline": "local_update vs sgd, n=20 k=3, seed 0: dmc@1 −2.9 % one step (WIN)", "verdict": "WIN"},
        )
        save_entry(
            session,
            author="bob",
            kind="score",
            title="matmul_4x4 / slow (#5)",
            created_at=at(19),
            detail={"headline": "slow vs baseline, matmul_4x4: dally@1 +12.0 % (LOSS)", "verdict": "LOSS"},
        )
        save_entry(session, author="bob", kind="idea", title="idea #1: update w1 in blocks", created_at=at(20))
        save_entry(session, author="alice", kind="note", title="after the week", created_at=at(24))
        for number, (member, subject, ok, when) in enumerate(
            [
                ("carol", "tiled", False, at(18, 10)),
                ("carol", "tiled", True, at(18, 12)),
                ("dave", "naive", False, at(21)),
            ],
            start=1,
        ):
            record_run(
                session,
                NewRun(
                    challenge="matmul_4x4",
                    kind="ir",
                    subject=subject,
                    ok=ok,
                    metrics={"dally@1": 100.0} if ok else {},
                    request_key=f"r{number}",
                    member=member,
                    engine_version="test",
                    failure=None if ok else "line 3: unknown op",
                    created_at=when,
                ),
            )


@pytest.fixture
def digest_text(db_sessions: Any) -> str:
    store(db_sessions)
    with db_sessions() as session:
        week = gather_week(
            session, week="2026-W47", start=START, end=END, challenges=[("matmul_4x4", "dally@1")], sprint_log="x"
        )
    return render_digest(week).text


def section(text: str, title: str) -> list[str]:
    return text.split(title)[1].split("\n\n")[0].strip("\n").splitlines()


def test_the_weeks_sprints_verdicts_notes_and_ideas_are_in_the_digest(digest_text: str) -> None:
    assert section(digest_text, "Sprints (2):") == [
        "• Technical Sprint 2 (ended): 1 run, 1 submission. Verdicts: 1 WIN, 1 LOSS.",
        "• Technical Sprint 3 (running)",
    ]
    assert section(digest_text, "Verdicts of the week (1 WIN, 1 LOSS):") == [
        "• local_update vs sgd, n=20 k=3, seed 0: dmc@1 −2.9 % one step (WIN) — alice",
        "• slow vs baseline, matmul_4x4: dally@1 +12.0 % (LOSS) — bob",
    ]
    assert section(digest_text, "Notes (1):") == ["• Tue 03:00 alice: Finished reading the slides"]
    assert section(digest_text, "Ideas (1):") == ["• idea #1: update w1 in blocks — bob"]
    assert "Technical Sprint 1" not in digest_text and "after the week" not in digest_text


def test_only_failures_still_open_are_listed(digest_text: str) -> None:
    # carol's failure at 10:00 was followed by her passing run of the same program at 12:00: fixed, not open
    assert section(digest_text, "Failures worth a look (2 failed run(s)):") == [
        "• #3 dave matmul_4x4/naive: line 3: unknown op"
    ]


def test_a_long_digest_is_split_between_sections_into_messages_that_fit() -> None:
    notes = "Notes (300):\n" + "\n".join(f"• Mon 09:{i % 60:02d} member{i}: " + "&<x> " * 30 for i in range(300))
    text = "\n\n".join(["Weekly digest W: 300 run(s)", "New records: none this week", notes, "Sprint log: x"])
    tables = [
        Table(
            headers=["#", "member", "method", "value", "run"],
            rows=[[str(r), f"m{r}", "tiled", "1,234", f"#{r}"] for r in range(5)],
            title=f"board {b} — dally@1",
        )
        for b in range(20)
    ]
    reply = Reply(text=text, tables=tables)
    parts = digest_messages(reply)
    sizes = [len(render(part).html) for part in parts]
    assert len(parts) > 3 and max(sizes) <= MESSAGE_LIMIT, sizes
    assert all(size <= MESSAGE_BUDGET + 500 for size in sizes)
    joined = "\n".join(part.text for part in parts)
    assert all(f"member{i}: " in joined for i in range(300))  # every note line in some message, whole
    assert [t.title for part in parts for t in part.tables] == [t.title for t in tables]
    assert parts[0].text.startswith("Weekly digest W") and parts[1].text.startswith("(digest, continued)")


def test_a_digest_that_fits_is_one_message_unchanged() -> None:
    reply = Reply(text="Weekly digest W: 1 run(s)\n\nSprint log: x", tables=[Table(headers=["a"], rows=[["1"]])])
    [part] = digest_messages(reply)
    assert part.text == reply.text and part.tables == reply.tables
