"""Migrations build the schema from empty and agree with the SQLModel tables (``alembic check``), on SQLite and,
when the server binaries are installed, on a throwaway PostgreSQL cluster started here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import inspect

from storage.database import make_engine
from storage.migrate import alembic_config, upgrade_to_head

TABLES = {
    "members",
    "runs",
    "metric_values",
    "sprint_log_entries",
    "tool_config_values",
    "tool_config_changes",
    "jobs",
    "submissions",
}


def _upgrade_and_check(url: str) -> None:
    engine = make_engine(url)
    try:
        upgrade_to_head(engine)
        assert set(inspect(engine).get_table_names()) >= TABLES
        command.check(alembic_config(engine))  # raises if autogenerate would emit any operation
        upgrade_to_head(engine)  # idempotent at start-up
    finally:
        engine.dispose()


def test_sqlite_upgrade_from_empty_and_check_clean(tmp_path: Path) -> None:
    _upgrade_and_check(f"sqlite:///{tmp_path / 'fresh.db'}")


@pytest.mark.slow
def test_postgres_upgrade_from_empty_and_check_clean(postgres_url: str) -> None:
    _upgrade_and_check(postgres_url)


@pytest.mark.slow
def test_postgres_round_trip_of_a_run(postgres_url: str) -> None:
    """Timestamps come back aware and the window-function leaderboard query runs on PostgreSQL too."""
    from datetime import UTC, datetime

    from storage.database import session_factory
    from storage.runs import NewRun, get_run, record_run
    from storage.scores import best_per_member_method

    engine = make_engine(postgres_url)
    upgrade_to_head(engine)
    when = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)
    with session_factory(engine)() as s:
        for i, value in enumerate([5.0, 3.0, 3.0]):
            record_run(
                s,
                NewRun(
                    challenge="c",
                    kind="method",
                    subject="m",
                    ok=True,
                    metrics={"dally@1": value},
                    request_key=f"k{i}",
                    member="alice",
                    engine_version="0",
                    created_at=when.replace(hour=9 + i),
                ),
            )
        assert get_run(s, run_id=1).created_at == when
        best = best_per_member_method(s, challenge="c", metric="dally@1")
    assert [(b.run_id, b.value) for b in best] == [(2, 3.0)]
    engine.dispose()


def test_shipped_head_is_alembics_head() -> None:
    from alembic.script import ScriptDirectory

    from storage.migrate import shipped_head

    config = alembic_config(make_engine("sqlite://"))
    assert shipped_head() == ScriptDirectory.from_config(config).get_current_head()


def _columns(engine: Any) -> dict[str, set[str]]:
    """Table -> its column names, as the database has them."""
    inspector = inspect(engine)
    return {t: {c["name"] for c in inspector.get_columns(t)} for t in inspector.get_table_names()}


@pytest.mark.slow
def test_a_database_behind_head_is_upgraded_and_one_at_head_opens_without_alembic(tmp_path: Path) -> None:
    import subprocess
    import sys

    from storage.migrate import database_revision, shipped_head

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    try:
        upgrade_to_head(engine)
        command.downgrade(alembic_config(engine), "-1")  # one revision behind, as an older release left it
        behind = _columns(engine)
        upgrade_to_head(engine)
        with engine.connect() as connection:
            assert database_revision(connection) == shipped_head()
        at_head = _columns(engine)
        assert at_head != behind and all(behind[t] <= at_head.get(t, set()) for t in behind)  # the last revision's
        # table or column is back, and nothing was lost
    finally:
        engine.dispose()
    # at head: a fresh process opens it and never imports Alembic (a command-line start does not pay for it)
    probe = (
        "import sys; from storage.database import make_engine; from storage.migrate import upgrade_to_head; "
        f"upgrade_to_head(make_engine({url!r})); print('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "False"


def test_runs_stored_before_submissions_get_one_credited_submission_each(tmp_path: Path) -> None:
    """Upgrading a database from 0004 gives every stored run the submission it was made for (its own member, subject
    and time, computed, credited to itself), so the first submitter keeps the credit after the upgrade."""
    from sqlalchemy import text

    engine = make_engine(f"sqlite:///{tmp_path / 'before.db'}")
    try:
        command.upgrade(alembic_config(engine), "0004_jobs")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO members (id, name, created_at) VALUES (1, 'ann', '2026-11-01 09:00:00')"))
            conn.execute(text("INSERT INTO members (id, name, created_at) VALUES (2, 'bob', '2026-11-01 09:00:00')"))
            for run_id, member, subject in [(1, 2, "fast"), (2, 1, "slow"), (3, 2, "again")]:
                conn.execute(
                    text(
                        "INSERT INTO runs (id, challenge, kind, subject, params, seeds, metrics, result, ok, wall_s, "
                        "engine_version, request_key, active_key, member_id, created_at, status) VALUES (:id, 'c', "
                        "'ir', :subject, '{}', '[]', '{}', '{}', 1, 0.0, '0', :key, :key, :member, :at, 'active')"
                    ),
                    {
                        "id": run_id,
                        "subject": subject,
                        "key": f"k{run_id}",
                        "member": member,
                        "at": f"2026-11-0{run_id} 10:00:00",
                    },
                )
        upgrade_to_head(engine)
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT id, run_id, member_id, label, computed, credit_id, created_at FROM submissions ORDER BY id"
                )
            ).all()
    finally:
        engine.dispose()
    assert [tuple(r[:6]) for r in rows] == [
        (1, 1, 2, "fast", 1, 1),
        (2, 2, 1, "slow", 1, 2),
        (3, 3, 2, "again", 1, 3),
    ]
    assert [str(r[6])[:10] for r in rows] == ["2026-11-01", "2026-11-02", "2026-11-03"]


def test_a_command_on_an_empty_data_directory_migrates_it(tmp_path: Path) -> None:
    """The bot's own start-up path (``bot.services.open_database``) brings a data directory with no database to
    head; the other tests start from a copy of a database migrated once per test process (tests/conftest.py), so
    this is where a first start is exercised."""
    from bot.app import build_context
    from bot.settings import Settings
    from storage.migrate import database_revision, shipped_head

    data_dir = tmp_path / "empty"
    ctx = build_context(Settings(_env_file=None, data_dir=data_dir))  # type: ignore[call-arg]
    try:
        with ctx.sessions()() as session:
            connection = session.connection()
            assert database_revision(connection) == shipped_head()
            assert set(inspect(connection).get_table_names()) >= TABLES
    finally:
        ctx.close()
    assert (data_dir / "sutro.db").stat().st_size > 0


def test_the_suites_template_database_is_a_plain_upgrade_from_empty(tmp_path: Path, migrated_database: Path) -> None:
    """The template the other tests copy has exactly the schema a fresh ``upgrade_to_head`` gives (compared as
    sets: SQLite keeps a batch-rebuilt table's constraints in whatever order they were emitted)."""
    fresh = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    template = make_engine(f"sqlite:///{migrated_database}")
    try:
        upgrade_to_head(fresh)
        assert _schema(template) == _schema(fresh)
    finally:
        fresh.dispose()
        template.dispose()


def _schema(engine: Any) -> dict[str, Any]:
    """Per table: columns, primary key, foreign keys, indexes and unique constraints, each order-free."""
    found = inspect(engine)

    def order_free(rows: list[dict[str, Any]]) -> set[str]:
        return {repr(sorted(row.items())) for row in rows}

    return {
        table: (
            [(c["name"], str(c["type"]), c["nullable"], c.get("default")) for c in found.get_columns(table)],
            found.get_pk_constraint(table)["constrained_columns"],
            order_free(found.get_foreign_keys(table)),
            order_free(found.get_indexes(table)),  # type: ignore[arg-type]
            order_free(found.get_unique_constraints(table)),  # type: ignore[arg-type]
        )
        for table in found.get_table_names()
    }
