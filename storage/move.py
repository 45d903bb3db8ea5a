"""Move every row of one database into another (SQLite → PostgreSQL when a group outgrows the embedded default, or
back): same ids, in dependency order, in committed batches, then the target's id sequences set past the copied
ids, then row counts and a content checksum per table compared on both sides.

Refusals, each one line with a hint and before anything is written: a target that is the source, a target whose
schema is not at this version's head (an older or foreign schema), a target that already holds rows (unless
``replace``, which empties it first, or ``resume``, which keeps the rows already there and copies the rest — for a
move that was interrupted). An empty target gets the schema first (``alembic upgrade head``, under the migration
lock). Stop the bot and its workers while moving: rows written to the source during the move are not copied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from alembic.runtime.migration import MigrationContext
from sqlalchemy import Table, func, inspect, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel

import storage.tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from storage.database import redact
from storage.errors import StorageError
from storage.migrate import require_reachable, shipped_heads, upgrade_to_head
from storage.table_checksum import TableDigest, table_digest

BATCH_ROWS = 500
"""Rows per committed batch: an interrupted move loses at most one batch of work per table."""

MoveProgress = Callable[[str, "float | None"], None]


class MoveRefused(StorageError):
    """The move was not started (or stopped at a batch boundary): the reason and how to proceed."""


@dataclass(frozen=True)
class TableMoved:
    """One table after the move: rows copied now, rows found already in the target (resume), and both digests."""

    table: str
    copied: int
    kept: int
    source: TableDigest
    target: TableDigest

    @property
    def matches(self) -> bool:
        return self.source == self.target


@dataclass(frozen=True)
class MoveReport:
    """What :func:`move_database` did, table by table in the order copied."""

    tables: list[TableMoved]
    sequences_reset: list[str]

    @property
    def verified(self) -> bool:
        return all(t.matches for t in self.tables)

    @property
    def rows(self) -> int:
        return sum(t.source.rows for t in self.tables)


def _silent(line: str, fraction: float | None = None) -> None:
    """The default progress sink: ignore."""


def tables_in_dependency_order() -> list[Table]:
    """Our tables, each after the tables its foreign keys point to."""
    return list(SQLModel.metadata.sorted_tables)


def move_database(
    source: Engine,
    target: Engine,
    *,
    replace: bool = False,
    resume: bool = False,
    batch_rows: int = BATCH_ROWS,
    progress: MoveProgress | None = None,
) -> MoveReport:
    """Copy every table of ``source`` into ``target`` and verify it; see the module docstring for the refusals."""
    say: MoveProgress = progress or _silent
    if replace and resume:
        raise MoveRefused("--force and --resume contradict each other", hint="use one of them")
    if _same_database(source, target):
        raise MoveRefused(f"the target {_name(target)} is the source database", hint="give another --to URL")
    require_reachable(source)
    require_reachable(target, hint="check the --to URL (user, host, port, database) and that its server is running")
    _require_head(source, role="source")
    tables = tables_in_dependency_order()
    if _has_schema(target):
        _require_head(target, role="target")
    else:
        say(f"creating the schema in {_name(target)}", None)
        upgrade_to_head(target)
    occupied = _row_counts(target, tables)
    if any(occupied.values()) and not (replace or resume):
        filled = ", ".join(f"{name} ({n})" for name, n in occupied.items() if n)
        raise MoveRefused(
            f"the target {_name(target)} already holds rows: {filled}",
            hint="move into an empty database, add --resume to finish an interrupted move, "
            "or --force to replace its contents",
        )
    if replace and any(occupied.values()):
        say("emptying the target", None)
        _empty(target, tables)
    total = max(1, sum(_row_counts(source, tables).values()))
    done = 0
    moved: list[tuple[Table, int, int]] = []
    for table in tables:

        def batch_done(rows: int, name: str = table.name) -> None:
            nonlocal done
            done += rows
            say(f"copying {name}", done / total)

        copied, kept = _copy_table(source, target, table, batch_rows=batch_rows, on_batch=batch_done)
        moved.append((table, copied, kept))
    reset = reset_sequences(target, tables)
    say("verifying row counts and checksums", None)
    report = MoveReport(
        tables=[
            TableMoved(table.name, copied, kept, table_digest(source, table), table_digest(target, table))
            for table, copied, kept in moved
        ],
        sequences_reset=reset,
    )
    return report


def _copy_table(
    source: Engine, target: Engine, table: Table, *, batch_rows: int, on_batch: Callable[[int], None]
) -> tuple[int, int]:
    """Copy ``table`` in primary-key order, committing each batch (then ``on_batch(rows in it)``); rows whose key
    is already in the target are kept as they are (resume). Returns (copied, kept)."""
    key = list(table.primary_key.columns)
    with target.connect() as conn:
        present = {tuple(row) for row in conn.execute(select(*key))}
    copied = kept = 0
    with source.connect() as reader:
        rows = reader.execution_options(yield_per=batch_rows).execute(select(table).order_by(*key))
        for batch in _batches(rows.mappings(), batch_rows):
            fresh = [dict(row) for row in batch if tuple(row[c.name] for c in key) not in present]
            kept += len(batch) - len(fresh)
            if fresh:
                _insert(target, table, fresh)
                copied += len(fresh)
            on_batch(len(batch))
    return copied, kept


def _insert(target: Engine, table: Table, rows: list[dict[str, Any]]) -> None:
    try:
        with target.begin() as conn:
            conn.execute(table.insert(), rows)
    except DBAPIError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise MoveRefused(
            f"copying {table.name} into {_name(target)} stopped: {reason}",
            hint="the batches before this one are committed; fix the cause and run the move again with --resume",
        ) from exc


def _batches(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def reset_sequences(engine: Engine, tables: Sequence[Table]) -> list[str]:
    """Set each integer-id sequence of a PostgreSQL database past the largest id in its table, so the next insert
    gets a fresh id (rows copied with explicit ids leave the sequence where it was). Returns the tables reset;
    other back ends need nothing (SQLite's rowid follows the largest id)."""
    if engine.url.get_backend_name() != "postgresql":
        return []
    done = []
    with engine.begin() as conn:
        for table in tables:
            key = list(table.primary_key.columns)
            if len(key) != 1 or key[0].autoincrement is False or not _is_integer(key[0]):
                continue
            sequence = conn.execute(
                text("SELECT pg_get_serial_sequence(:table, :column)"), {"table": table.name, "column": key[0].name}
            ).scalar()
            if sequence is None:
                continue
            largest = conn.execute(select(func.max(key[0]))).scalar()
            # setval(seq, n, true): the next value is n + 1; setval(seq, 1, false): the next value is 1
            conn.execute(
                text("SELECT setval(:seq, :value, :called)"),
                {"seq": sequence, "value": largest or 1, "called": largest is not None},
            )
            done.append(table.name)
    return done


def _is_integer(column: Any) -> bool:
    try:
        return column.type.python_type is int
    except NotImplementedError:
        return False


def _row_counts(engine: Engine, tables: Sequence[Table]) -> dict[str, int]:
    with engine.connect() as conn:
        return {t.name: int(conn.execute(select(func.count()).select_from(t)).scalar() or 0) for t in tables}


def _empty(engine: Engine, tables: Sequence[Table]) -> None:
    with engine.begin() as conn:
        for table in reversed(tables):
            conn.execute(table.delete())


def _has_schema(engine: Engine) -> bool:
    names = set(inspect(engine).get_table_names())
    return bool(names)


def _require_head(engine: Engine, *, role: str) -> None:
    heads = shipped_heads()
    with engine.connect() as conn:
        current = set(MigrationContext.configure(conn).get_current_heads())
    if current == heads:
        return
    if not current:
        raise MoveRefused(
            f"the {role} {_name(engine)} holds tables that are not a Sutro schema (no Alembic revision)",
            hint="give an empty database or one made by this version of Sutro",
        )
    raise MoveRefused(
        f"the {role} {_name(engine)} has schema revision {', '.join(sorted(current))}; "
        f"this version needs {', '.join(sorted(heads))}",
        hint="start this version of Sutro once against it (migrations run at start-up), then move again",
    )


def _same_database(a: Engine, b: Engine) -> bool:
    return a.url.render_as_string(hide_password=False) == b.url.render_as_string(hide_password=False)


def _name(engine: Engine) -> str:
    return redact(engine.url.render_as_string(hide_password=False))
