"""``db move``'s use case: copy every row of the configured database (``SUTRO_DATABASE_URL``, else SQLite in the
data directory) into another one and verify it table by table (storage/move.py); both connections are closed
whatever happens, and an interruption keeps the batches already committed."""

from __future__ import annotations

from pathlib import Path

from storage.database import database_url_for, make_engine
from storage.move import MoveProgress, MoveReport, move_database

__all__ = ["MoveReport", "move_configured_database"]


def move_configured_database(
    database_url: str,
    data_dir: Path,
    to: str,
    *,
    replace: bool = False,
    resume: bool = False,
    progress: MoveProgress | None = None,
) -> MoveReport:
    """Move the database the settings name (``database_url`` or the SQLite file in ``data_dir``) to ``to``.
    Raises storage's MoveRefused / DatabaseUnavailable (one line each), or KeyboardInterrupt as it came."""
    source = make_engine(database_url_for(database_url, data_dir))
    target = make_engine(to)
    try:
        return move_database(source, target, replace=replace, resume=resume, progress=progress)
    finally:
        source.dispose()
        target.dispose()
