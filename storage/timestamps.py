"""Timezone-aware UTC timestamps that come back aware on every backend.

SQLite has no timezone type: ``DateTime(timezone=True)`` returns naive values there (docs/integrations.md#database,
tried), while PostgreSQL returns aware ones. :class:`UTCDateTime` stores UTC and re-attaches ``timezone.utc`` on read.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.types import DateTime, TypeDecorator


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A ``DateTime(timezone=True)`` that refuses naive input and always returns aware UTC datetimes."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column; use an aware datetime (storage.timestamps.utcnow)")
        value = value.astimezone(UTC)
        # SQLite stores the text form; drop tzinfo so every stored value has one format (UTC by construction).
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
