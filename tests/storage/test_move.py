"""Moving a database: SQLite → PostgreSQL → SQLite with every table populated keeps every row (same ids, same
content: the per-table checksum is computed independently on each side), the first insert after the move gets a
fresh id, a non-empty target is refused, an interrupted move resumes, and bad targets are refused in one line with
nothing written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import select

from storage.attributions import put_attribution
from storage.chat_messages import Topic, store_message
from storage.database import make_engine, session_factory
from storage.digests import claim_week, mark_posted
from storage.errors import DatabaseUnavailable
from storage.explore import StepRecord, add_step, open_loop
from storage.ideas import add_usage, create_idea, propose
from storage.jobs import enqueue, finish, start_attempt
from storage.leases import take_lease
from storage.migrate import upgrade_to_head
from storage.move import MoveRefused, move_database, tables_in_dependency_order
from storage.outbox import save_entry
from storage.rejudges import PlannedEntry, start_epoch_with_plan
from storage.runs import NewRun, record_run
from storage.sprints import start_sprint
from storage.table_checksum import table_digest
from storage.tables import JOB_DONE, Member, PublishedSync, SprintLogEntry, ToolConfigChange, ToolConfigValue
from storage.verdicts import put_verdict, start_epoch

WHEN = datetime(2026, 11, 16, 9, 30, 15, 123456, tzinfo=UTC)


def _populate(engine: Engine) -> None:
    """At least one row in every table (several in most), with JSON, floats, booleans, NULLs and timestamps."""
    upgrade_to_head(engine)
    with session_factory(engine)() as s:
        sprint = start_sprint(s, title="Technical Sprint 2", goal="cheaper", started_by="alice", started_at=WHEN)
        assert sprint is not None
        for i in range(7):
            record_run(
                s,
                NewRun(
                    challenge="sparse_parity",
                    kind="method",
                    subject="sgd",
                    ok=i != 3,
                    metrics={"dally@1": 1000.5 + i, "ard@1": 0.1 * i},
                    request_key=f"k{i}",
                    member=["alice", "bob"][i % 2],
                    engine_version="0.1",
                    params={"n": 20 + i, "note": "ünïcode ✓"},
                    seeds=[1, 2, i],
                    failure=None if i != 3 else "CPU time limit (5 s) exceeded",
                    created_at=WHEN.replace(minute=i),
                ),
            )
            save_entry(
                s,
                author="alice",
                kind="note",
                title=f"note {i}",
                results=[{"metric": "m", "value": str(i)}],
                sprint_id=sprint.id if i < 2 else None,
                detail={"zone": "Europe/Berlin", "headline": "ünïcode ✓"} if i == 0 else None,
                charts=[("reuse", "reuse distances", b"\x89PNG\r\n\x1a\n\x00\xff")] if i == 0 else (),
            )
        put_attribution(s, run_id=1, metric="dally@2", body={"scopes": [], "elements": []})
        put_verdict(s, run_id=1, body={"metric": "dally@2", "outcome": "WIN", "new_record": True})
        start_epoch(s, key="0f" * 16, started_by="admin")
        entry = PlannedEntry("sparse_parity n=20 k=3 · submission", "dmc@1", "alice", "brute", 1, 12.5, 1)
        start_epoch_with_plan(s, key="1e" * 16, started_by="admin", plan=[entry])  # a rotation's plan
        idea = create_idea(s, member="carol", text="try a smaller batch")
        assert idea.id is not None
        propose(s, idea_id=idea.id, spec={"title": "smaller batch", "params": {"batch": 8}}, code="x = 1", tokens=42)
        add_usage(s, month="2026-11", input_tokens=1000, output_tokens=200)
        claim_week(s, week="2026-W47", slot_at=WHEN, reason="scheduled", claimed_by="bot-1", chat_id=-100123)
        mark_posted(s, week="2026-W47")
        enqueue(s, key="job-1", command="run", description="run gf2", member="alice")
        start_attempt(s, key="job-1", worker="w1")
        finish(s, key="job-1", state=JOB_DONE)
        topic = Topic(-100123, 7)
        buttons = [["Run it", "idea:run:1"]]
        store_message(s, topic=topic, kind="text", text="<b>run #7</b> ✓", reply_to=55, buttons=buttons)
        store_message(s, topic=topic, kind="document", file_name="reply.txt", content=b"\x00\xffbinary\n", error="502")
        s.add(ToolConfigValue(key="limits.queue_per_member", value=3, updated_by="admin"))
        s.add(ToolConfigChange(key="limits.queue_per_member", old_value=2, new_value=3, changed_by="admin"))
        s.add(PublishedSync(source="https://example.org/g.git", commit="ab" * 20, snapshot={"records": []}))
        s.commit()
        take_lease(s, name="sprint-log:gdocs", holder="host:123:abc", ttl=timedelta(minutes=5))  # a delivery under way
        loop = open_loop(  # an /explore loop with one kept step (its best's text moves with it)
            s,
            member="alice",
            board="matmul_4x4",
            params={},
            goal="ünïcode ✓",
            start_label="built-in baseline",
            start_cost=1316,
            start_code="1,2\nmul 3,1,2\n3\n",
            record_cost=667.0,
            budget={"steps": 5, "seconds": 60.0, "spend_usd": 0.0},
        )
        assert loop.id is not None
        step = StepRecord("re-place", "placing afresh lowers the cost", "kept", 853, -35.2, "", 0.4, "ab" * 32, "x")
        add_step(s, loop.id, step, cpu_s=0.4)


def _digests(engine: Engine) -> dict[str, tuple[int, str]]:
    return {t.name: tuple(table_digest(engine, t).__dict__.values()) for t in tables_in_dependency_order()}


@pytest.fixture
def source(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'source.db'}")
    _populate(engine)
    return engine


@pytest.mark.slow
def test_sqlite_to_postgres_and_back_keeps_every_row_and_new_writes_work(
    source: Engine, postgres_url: str, tmp_path: Path
) -> None:
    before = _digests(source)
    assert all(rows > 0 for rows, _ in before.values()), before  # every table really is populated
    target = make_engine(postgres_url)
    report = move_database(source, target, batch_rows=3)
    assert report.verified and [t.table for t in report.tables] == list(before)
    assert _digests(target) == before
    assert "sprint_log_entries" in report.sequences_reset and "runs" in report.sequences_reset
    # the first write after the move: a new note, run and member get fresh ids (the failure the issue reported)
    with session_factory(target)() as s:
        note = save_entry(s, author="dave", kind="note", title="first note on PostgreSQL")
        run = record_run(
            s,
            NewRun(
                challenge="sparse_parity",
                kind="method",
                subject="sgd",
                ok=True,
                metrics={"dally@1": 1.0},
                request_key="after-move",
                member="dave",
                engine_version="0.1",
            ),
        )
    assert (note.id, run.id) == (8, 8)  # 7 of each were copied
    with session_factory(target)() as s:
        assert s.exec(select(SprintLogEntry).where(SprintLogEntry.id == 8)).one().title == "first note on PostgreSQL"
        assert s.exec(select(Member).where(Member.name == "dave")).one().id == 4  # alice, bob, carol copied
    # ... and back to a new SQLite file, new rows included
    back = make_engine(f"sqlite:///{tmp_path / 'back.db'}")
    assert move_database(target, back).verified
    assert _digests(back) == _digests(target)
    with session_factory(back)() as s:
        assert save_entry(s, author="erin", kind="note", title="back on SQLite").id == 9
    for engine in (source, target, back):
        engine.dispose()


def test_a_non_empty_target_is_refused_unless_forced(source: Engine, tmp_path: Path) -> None:
    target = make_engine(f"sqlite:///{tmp_path / 'target.db'}")
    upgrade_to_head(target)
    with session_factory(target)() as s:
        save_entry(s, author="zed", kind="note", title="already here")
    with pytest.raises(MoveRefused) as refused:
        move_database(source, target)
    line = refused.value.one_line()
    assert "already holds rows: sprint_log_entries (1)" in line and "--force" in line and "\n" not in line
    with session_factory(target)() as s:
        assert [e.title for e in s.exec(select(SprintLogEntry)).all()] == ["already here"]  # nothing changed
    assert move_database(source, target, replace=True).verified
    assert _digests(target) == _digests(source)


class Interrupted(Exception):
    pass


@pytest.mark.slow  # 0.6 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_an_interrupted_move_resumes_where_it_stopped(source: Engine, tmp_path: Path) -> None:
    target = make_engine(f"sqlite:///{tmp_path / 'target.db'}")
    batches = []

    def stop_after_four_batches(line: str, fraction: float | None = None) -> None:
        if line.startswith("copying"):
            batches.append(line)
            if len(batches) == 4:
                raise Interrupted  # as if the process died between two committed batches

    with pytest.raises(Interrupted):
        move_database(source, target, batch_rows=2, progress=stop_after_four_batches)
    partial = {name: rows for name, (rows, _) in _digests(target).items()}
    assert 0 < sum(partial.values()) < sum(rows for rows, _ in _digests(source).values())
    with pytest.raises(MoveRefused) as refused:
        move_database(source, target)
    assert "--resume" in refused.value.one_line()
    report = move_database(source, target, resume=True, batch_rows=2)
    assert report.verified and _digests(target) == _digests(source)
    assert sum(t.kept for t in report.tables) == sum(partial.values())  # nothing copied twice


def test_a_target_with_an_older_schema_is_refused_and_left_alone(source: Engine, tmp_path: Path) -> None:
    from alembic import command

    from storage.migrate import alembic_config

    target = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    command.upgrade(alembic_config(target), "0003_ideas")
    tables_before = set(inspect(target).get_table_names())
    with pytest.raises(MoveRefused) as refused:
        move_database(source, target)
    assert "schema revision 0003_ideas" in refused.value.one_line() and "start this version" in refused.value.one_line()
    assert set(inspect(target).get_table_names()) == tables_before
    with target.connect() as c:
        assert c.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0003_ideas"


def test_an_unreachable_server_and_a_bad_url_are_one_line(source: Engine, tmp_path: Path) -> None:
    unreachable = make_engine("postgresql+psycopg://sutro:secret@127.0.0.1:1/sutro?connect_timeout=2")
    with pytest.raises(DatabaseUnavailable) as err:
        move_database(source, unreachable)
    line = err.value.one_line()
    assert line.startswith("cannot reach database postgresql+psycopg://sutro:***@127.0.0.1:1/sutro")
    assert "--to URL" in line and "secret" not in line and "\n" not in line
    with pytest.raises(DatabaseUnavailable, match="cannot use database URL"):
        make_engine("postgres//nope")
    with pytest.raises(MoveRefused, match="is the source database"):
        move_database(source, make_engine(str(source.url)))
