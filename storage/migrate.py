"""Apply the Alembic migrations shipped in ``storage/migrations`` (``upgrade head``) from code, at start-up, under the
database's migration lock (:mod:`storage.migration_lock`), so any number of processes may start at once.

The Alembic configuration is built here rather than read from an ini file, so the installed package needs no
working directory; the URL comes from the caller, never from the environment.
"""

from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from storage.database import redact
from storage.errors import DatabaseUnavailable
from storage.migration_lock import migration_lock

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    """An Alembic :class:`Config` for our migrations that runs on ``engine``'s connections."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    config.attributes["engine"] = engine
    return config


SERVER_HINT = (
    "check that the server is running and SUTRO_DATABASE_URL is right (or leave it empty for SQLite in the data "
    "directory)"
)


def require_reachable(engine: Engine, *, hint: str = SERVER_HINT) -> None:
    """Open and close one connection; an unreachable database is a one-line :class:`DatabaseUnavailable`."""
    try:
        with engine.connect() as probe:
            probe.close()
    except OperationalError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise DatabaseUnavailable(
            f"cannot reach database {redact(str(engine.url.render_as_string(hide_password=False)))}: {reason}",
            hint=hint,
        ) from exc


@functools.cache
def shipped_heads() -> frozenset[str]:
    """The newest revision(s) in ``storage/migrations`` (read once per process: the files do not change under it)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def is_at_head(engine: Engine) -> bool:
    """Whether the database's schema revision is the newest one shipped (one query; no lock needed to read it)."""
    with engine.connect() as connection:
        return set(MigrationContext.configure(connection).get_current_heads()) == shipped_heads()


def upgrade_to_head(engine: Engine) -> None:
    """Bring the schema up to the newest revision, holding the migration lock; an unreachable database is a
    one-line :class:`DatabaseUnavailable`.

    A database already at head is left alone without taking the lock (every job process opens the database);
    otherwise the upgrade runs under the lock and Alembic re-reads the revision there, so a process that waited
    for another's upgrade finds nothing left to do.
    """
    require_reachable(engine)
    if is_at_head(engine):
        return
    with migration_lock(engine):
        command.upgrade(alembic_config(engine), "head")
