"""Recording and reading runs: ids, one active row per request key, aware timestamps, one-line errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from storage.database import SessionFactory, make_engine, session_factory
from storage.errors import DatabaseUnavailable, UnknownRun
from storage.migrate import upgrade_to_head
from storage.runs import NewRun, find_by_request_key, get_run, recent_runs, record_run, stored_metrics
from storage.scores import add_metric_value, best_per_member_method, scored_runs
from tests.refusing_port import refusing_port

T0 = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)


def run_fields(**overrides: Any) -> dict[str, Any]:
    fields: dict[str, Any] = dict(
        challenge="matmul_4x4",
        kind="ir",
        subject="naive",
        ok=True,
        metrics={"dally@1": 100.0},
        request_key="k-naive",
        member="alice",
        engine_version="0.1.0",
        params={"n": 4},
        seeds=[1],
    )
    fields.update(overrides)
    return fields


def test_record_returns_id_and_reads_back_aware(db_sessions: SessionFactory) -> None:
    with db_sessions() as s:
        stored = record_run(s, NewRun(**run_fields(created_at=T0, code="x = 1", code_hash="h")))
    assert stored.id == 1
    with db_sessions() as s:
        again = get_run(s, run_id=1)
        assert again.created_at == T0 and again.created_at.tzinfo is not None
        assert again.member.name == "alice"
        assert again.params == {"n": 4} and again.metrics == {"dally@1": 100.0}
        assert stored_metrics(s, challenge="matmul_4x4") == ["dally@1"]


def test_naive_timestamp_is_refused(db_sessions: SessionFactory) -> None:
    with db_sessions() as s, pytest.raises(Exception, match="naive datetime"):
        record_run(s, NewRun(**run_fields(created_at=datetime(2026, 1, 1))))


def test_same_request_key_returns_the_stored_run_and_force_supersedes(db_sessions: SessionFactory) -> None:
    with db_sessions() as s:
        first = record_run(s, NewRun(**run_fields()))
        # a second writer recording the same request without --force gets the stored row back
        duplicate = record_run(s, NewRun(**run_fields(metrics={"dally@1": 1.0})))
        assert duplicate.id == first.id
        forced = record_run(s, NewRun(**run_fields(metrics={"dally@1": 90.0})), supersede=True)
        assert forced.id != first.id
        active = find_by_request_key(s, request_key="k-naive")
        assert active is not None and active.id == forced.id
        assert get_run(s, run_id=first.id).status == "superseded"  # type: ignore[arg-type]
        # only the active one counts for scores
        assert [r.value for r in scored_runs(s, challenge="matmul_4x4", metric="dally@1")] == [90.0]


def test_unknown_run_is_one_line_with_hint(db_sessions: SessionFactory) -> None:
    with db_sessions() as s:
        record_run(s, NewRun(**run_fields()))
        with pytest.raises(UnknownRun) as err:
            get_run(s, run_id=42)
    assert err.value.one_line() == "no run #42 — run ids go from 1 to 1; see recent ones with: runs"


def test_recent_runs_newest_first_and_per_member(db_sessions: SessionFactory) -> None:
    with db_sessions() as s:
        for i, who in enumerate(["alice", "bob", "alice"]):
            record_run(s, NewRun(**run_fields(member=who, request_key=f"k{i}", created_at=T0 + timedelta(hours=i))))
        assert [r.id for r in recent_runs(s)] == [3, 2, 1]
        assert [r.id for r in recent_runs(s, member="alice")] == [3, 1]
        assert [r.id for r in recent_runs(s, limit=1)] == [3]


def test_best_per_member_method_sql_ties_earliest_wins(db_sessions: SessionFactory) -> None:
    rows = [  # member, subject, value, hours after T0
        ("alice", "naive", 100.0, 0),
        ("alice", "naive", 80.0, 1),
        ("alice", "naive", 80.0, 2),  # ties alice's 80 from hour 1: the earlier one stays
        ("bob", "naive", 80.0, 3),
        ("bob", "tiled", 60.0, 4),
        ("bob", "tiled", 70.0, 5),
    ]
    with db_sessions() as s:
        for i, (who, subject, value, h) in enumerate(rows):
            record_run(
                s,
                NewRun(
                    **run_fields(
                        member=who,
                        subject=subject,
                        metrics={"dally@1": value},
                        request_key=f"k{i}",
                        created_at=T0 + timedelta(hours=h),
                    )
                ),
            )
        record_run(s, NewRun(**run_fields(member="carol", ok=False, metrics={"dally@1": 1.0}, request_key="bad")))
        best = best_per_member_method(s, challenge="matmul_4x4", metric="dally@1")
    assert [(b.member, b.subject, b.value, b.run_id) for b in best] == [
        ("bob", "tiled", 60.0, 5),
        ("alice", "naive", 80.0, 2),
        ("bob", "naive", 80.0, 4),
    ]
    assert all(b.created_at.tzinfo is not None for b in best)


def test_rescore_keeps_both_versions(db_sessions: SessionFactory) -> None:
    with db_sessions() as s:
        run = record_run(s, NewRun(**run_fields()))
        add_metric_value(s, run_id=run.id, metric="dally@2", value=77.0)  # type: ignore[arg-type]
        assert get_run(s, run_id=run.id).metrics == {"dally@1": 100.0, "dally@2": 77.0}  # type: ignore[arg-type]
        assert [r.value for r in scored_runs(s, challenge="matmul_4x4", metric="dally@2")] == [77.0]


def test_unreachable_database_is_one_line_with_fix(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'missing-dir' / 'x.db'}")
    with pytest.raises(DatabaseUnavailable) as err:
        upgrade_to_head(engine)
    line = err.value.one_line()
    assert "\n" not in line and "cannot reach database" in line and "SUTRO_DATABASE_URL" in line


def test_postgres_refused_connection_is_one_line_without_password() -> None:
    with refusing_port() as port:
        engine = make_engine(f"postgresql+psycopg://app:secret@127.0.0.1:{port}/db?connect_timeout=2")
        with pytest.raises(DatabaseUnavailable) as err:
            upgrade_to_head(engine)
    line = err.value.one_line()
    assert "\n" not in line and "secret" not in line and "SUTRO_DATABASE_URL" in line


def test_malformed_database_url_is_one_line() -> None:
    with pytest.raises(DatabaseUnavailable) as err:
        make_engine("not a url")
    assert "SUTRO_DATABASE_URL" in err.value.one_line()
    with pytest.raises(DatabaseUnavailable):
        make_engine("nosuchdb://x")


def test_session_factory_objects_survive_commit(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'a.db'}")
    upgrade_to_head(engine)
    with session_factory(engine)() as s:
        run = record_run(s, NewRun(**run_fields()))
    assert run.member.name == "alice"


def test_sqlite_is_configured_for_several_writers(db_sessions: SessionFactory) -> None:
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    from storage.database import SQLITE_BUSY_TIMEOUT_MS
    from storage.tables import Run

    with db_sessions() as s:
        assert s.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert s.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert s.execute(text("PRAGMA busy_timeout")).scalar() == SQLITE_BUSY_TIMEOUT_MS
        s.rollback()
        fields = {k: v for k, v in run_fields().items() if k != "member"}
        s.add(Run(**fields, member_id=999))  # there is no member 999
        with pytest.raises(IntegrityError, match="FOREIGN KEY"):
            s.commit()
