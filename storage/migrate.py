"""Apply the Alembic migrations shipped in ``storage/migrations`` (``upgrade head``) from code, at start-up, under the
database's migration lock (:mod:`storage.migration_lock`), so any number of processes may start at once.

The Alembic configuration is built here rather than read from an ini file, so the installed package needs no
working directory; the URL comes from the caller, never from the environment.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
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


def upgrade_to_head(engine: Engine) -> None:
    """Bring the schema up to the newest revision, holding the migration lock; an unreachable database is a
    one-line :class:`DatabaseUnavailable`."""
    require_reachable(engine)
    with migration_lock(engine):
        command.upgrade(alembic_config(engine), "head")
