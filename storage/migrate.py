"""Apply the Alembic migrations shipped in ``storage/migrations`` (``upgrade head``) from code, at start-up, under the
database's migration lock (:mod:`storage.migration_lock`), so any number of processes may start at once.

The Alembic configuration is built here rather than read from an ini file, so the installed package needs no
working directory; the URL comes from the caller, never from the environment.

A database already at the newest shipped revision is left alone without taking the lock and without importing
Alembic (with Mako and Pygments, about a tenth of a command-line start; every job process opens the database):
the newest revision is read from the revision files' own ``revision`` / ``down_revision`` lines, the database's
from its ``alembic_version`` table.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from storage.database import redact
from storage.errors import DatabaseUnavailable
from storage.migration_lock import migration_lock

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

_REVISION_LINE = re.compile(r"""^(revision|down_revision)\b[^=\n]*=\s*(?:["']([^"']+)["']|None)\s*$""", re.MULTILINE)

SERVER_HINT = (
    "check that the server is running and SUTRO_DATABASE_URL is right (or leave it empty for SQLite in the data "
    "directory)"
)


@functools.cache
def shipped_heads() -> frozenset[str]:
    """The newest revision(s) among ``migrations/versions/*.py`` (those no other revision names as its parent), read
    once per process from the files' ``revision`` / ``down_revision`` lines."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        fields = {m.group(1): m.group(2) for m in _REVISION_LINE.finditer(path.read_text(encoding="utf-8"))}
        if fields.get("revision"):
            revisions.add(str(fields["revision"]))
            if fields.get("down_revision"):
                parents.add(str(fields["down_revision"]))
    return frozenset(revisions - parents)


def shipped_head() -> str | None:
    """The single newest shipped revision; None unless the files form a single line of history."""
    heads = shipped_heads()
    return next(iter(heads)) if len(heads) == 1 else None


def database_revision(connection: Connection) -> str | None:
    """The revision stamped in the database (its single ``alembic_version`` row), None for a fresh database."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


def alembic_config(engine: Engine) -> Config:
    """An Alembic :class:`Config` for our migrations that runs on ``engine``'s connections."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    config.attributes["engine"] = engine
    return config


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


def is_at_head(engine: Engine) -> bool:
    """Whether the database's schema revision is the newest one shipped (one query; no lock needed to read it).
    False when the database is busy (a writer holds SQLite's lock): the upgrade under the lock then decides."""
    try:
        with engine.connect() as connection:
            current = database_revision(connection)
    except OperationalError:
        return False
    return current is not None and current == shipped_head()


def upgrade_to_head(engine: Engine) -> None:
    """Bring the schema up to the newest revision, holding the migration lock; an unreachable database is a
    one-line :class:`DatabaseUnavailable`.

    Alembic re-reads the revision under the lock, so a process that waited for another's upgrade finds nothing
    left to do.
    """
    require_reachable(engine)
    if is_at_head(engine):
        return
    from alembic import command

    with migration_lock(engine):
        command.upgrade(alembic_config(engine), "head")
