"""Apply the Alembic migrations shipped in ``storage/migrations`` (``upgrade head``) from code, at start-up.

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

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    """An Alembic :class:`Config` for our migrations that runs on ``engine``'s connections."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    config.attributes["engine"] = engine
    return config


def upgrade_to_head(engine: Engine) -> None:
    """Bring the schema up to the newest revision; an unreachable database is a one-line
    :class:`DatabaseUnavailable`."""
    try:
        with engine.connect() as probe:
            probe.close()
    except OperationalError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise DatabaseUnavailable(
            f"cannot reach database {redact(str(engine.url.render_as_string(hide_password=False)))}: {reason}",
            hint="check that the server is running and SUTRO_DATABASE_URL is right "
            "(or leave it empty for SQLite in the data directory)",
        ) from exc
    command.upgrade(alembic_config(engine), "head")
