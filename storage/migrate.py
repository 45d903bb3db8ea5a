"""Apply the Alembic migrations shipped in ``storage/migrations`` (``upgrade head``) from code, at start-up.

The Alembic configuration is built here rather than read from an ini file, so the installed package needs no
working directory; the URL comes from the caller, never from the environment.

A database already at the newest shipped revision is left alone without importing Alembic (with Mako and
Pygments, about a tenth of a command-line start): the newest revision is read from the revision files' own
``revision`` / ``down_revision`` lines, the database's from its ``alembic_version`` table.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from storage.database import redact
from storage.errors import DatabaseUnavailable

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_REVISION_LINE = re.compile(r"""^(revision|down_revision)\b[^=\n]*=\s*(?:["']([^"']+)["']|None)\s*$""", re.MULTILINE)


def shipped_head() -> str | None:
    """The newest revision among ``migrations/versions/*.py`` (the one no other revision names as its parent);
    None unless the files form a single line of history."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        fields = {m.group(1): m.group(2) for m in _REVISION_LINE.finditer(path.read_text(encoding="utf-8"))}
        if "revision" in fields and fields["revision"]:
            revisions.add(fields["revision"])
            if fields.get("down_revision"):
                parents.add(str(fields["down_revision"]))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


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


def upgrade_to_head(engine: Engine) -> None:
    """Bring the schema up to the newest revision; an unreachable database is a one-line
    :class:`DatabaseUnavailable`."""
    try:
        probe = engine.connect()
    except OperationalError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise DatabaseUnavailable(
            f"cannot reach database {redact(str(engine.url.render_as_string(hide_password=False)))}: {reason}",
            hint="check that the server is running and SUTRO_DATABASE_URL is right "
            "(or leave it empty for SQLite in the data directory)",
        ) from exc
    try:
        current = database_revision(probe)
    except OperationalError:  # busy (a writer holds SQLite's lock): let Alembic decide, as before
        current = None
    finally:
        probe.close()
    if current is not None and current == shipped_head():
        return
    from alembic import command

    command.upgrade(alembic_config(engine), "head")
