"""A table's row count and content checksum, equal on SQLite and PostgreSQL for the same rows.

Each row becomes a canonical JSON text (timestamps as UTC ISO strings, floats by ``repr``, JSON columns with sorted
keys) hashed with SHA-256; the table's checksum is the SHA-256 of the sorted row hashes, so it does not depend on the
order a back end returns rows in (string keys collate differently on the two).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.engine import Engine


@dataclass(frozen=True)
class TableDigest:
    """Row count and checksum (hex SHA-256) of one table."""

    rows: int
    checksum: str


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data that reads the same whichever back end returned it."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat() if value.tzinfo else value.isoformat()
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return value


def row_hash(row: dict[str, Any]) -> bytes:
    """SHA-256 of one row's canonical JSON text."""
    return hashlib.sha256(json.dumps(canonical(row), sort_keys=True).encode()).digest()


def table_digest(engine: Engine, table: Table) -> TableDigest:
    """Count and checksum ``table`` in ``engine``'s database (reads every row once)."""
    with engine.connect() as conn:
        hashes = sorted(row_hash(dict(row)) for row in conn.execute(select(table)).mappings())
    combined = hashlib.sha256(b"".join(hashes)).hexdigest()
    return TableDigest(rows=len(hashes), checksum=combined)
