"""The effective tool configuration: stored override or default, changed through an audited, atomic write.

Every ``set``/``reset`` writes the new value (or deletes the override) and its history row (who, when, old,
new) in one transaction, then tells the subscribers (the digest scheduler reschedules at once). Reads always
go to the database, so a change made by another process (``sutro config set`` in a terminal) is seen on the
next read.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import col, select

from storage.database import SessionFactory
from storage.tables import ToolConfigChange, ToolConfigValue
from storage.timestamps import utcnow
from tools.config.schema import PRIMARY_METRIC_PREFIX, ConfigKey, build_schema
from tools.config.values import as_text
from tools.errors import ToolError

Listener = Callable[[str], None]


@dataclass(frozen=True)
class Change:
    """One audited change; ``new`` is None after a reset (the default applies again)."""

    key: str
    old: Any
    new: Any
    by: str
    at: datetime


@dataclass(frozen=True)
class Setting:
    """A key's effective value and whether it is an admin's override or the default.

    refused: when a stored override no longer validates (e.g. ``metric.primary.sparse_parity=bytedmd@1``, a metric
    version since retired, or a removed challenge), one line saying what was stored, why it is refused and that the
    default applies; "" otherwise. Replies that use the setting show it rather than fall back silently.
    """

    key: ConfigKey
    value: Any
    overridden: bool
    refused: str = ""


class ToolConfig:
    """Read and change the tool settings stored in ``tool_config_values`` / ``tool_config_changes``."""

    def __init__(
        self,
        sessions: SessionFactory,
        *,
        seeds: Mapping[str, Any] | None = None,
        on_change: Listener | None = None,
    ) -> None:
        self._sessions = sessions
        self.schema = build_schema(seeds)
        self._on_change = on_change

    # -- reading ----------------------------------------------------------------------------------------
    def key(self, name: str) -> ConfigKey:
        """The schema entry for ``name``; an unknown name is a ToolError with a "did you mean"."""
        if name in self.schema:
            return self.schema[name]
        close = difflib.get_close_matches(name, list(self.schema), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}?" if close else "/config list shows every key"
        raise ToolError(f"unknown key {name}", hint=hint)

    def get(self, name: str) -> Any:
        """The effective value of ``name``: the stored override if it still validates, else the default."""
        return self.setting(name).value

    def setting(self, name: str) -> Setting:
        key = self.key(name)
        with self._sessions() as session:
            row = session.get(ToolConfigValue, name)
            return _effective(key, row)

    def all(self) -> list[Setting]:
        """Every key, in schema order, with its effective value."""
        with self._sessions() as session:
            rows = {r.key: r for r in session.exec(select(ToolConfigValue)).all()}
        return [_effective(key, rows.get(name)) for name, key in self.schema.items()]

    def primary_metrics(self) -> dict[str, str]:
        """challenge -> the metric that ranks it (``metric.primary.<challenge>``), for every challenge."""
        return {
            s.key.name.removeprefix(PRIMARY_METRIC_PREFIX): s.value
            for s in self.all()
            if s.key.name.startswith(PRIMARY_METRIC_PREFIX)
        }

    def refused(self) -> list[Setting]:
        """The settings whose stored override is refused (see :attr:`Setting.refused`), in schema order."""
        return [s for s in self.all() if s.refused]

    def refused_primary_metrics(self) -> list[str]:
        """The one-line notes of the ``metric.primary.<challenge>`` overrides that are refused (a retired metric
        version): what a board's reply says instead of ranking by the default without a word."""
        return [s.refused for s in self.refused() if s.key.name.startswith(PRIMARY_METRIC_PREFIX)]

    def history(self, name: str | None = None, *, limit: int = 50) -> list[Change]:
        """Changes, newest first (of one key when ``name`` is given)."""
        query = select(ToolConfigChange).order_by(col(ToolConfigChange.id).desc()).limit(limit)
        if name is not None:
            self.key(name)
            query = query.where(ToolConfigChange.key == name)
        with self._sessions() as session:
            rows = session.exec(query).all()
        return [Change(r.key, r.old_value, r.new_value, r.changed_by, r.changed_at) for r in rows]

    # -- changing ---------------------------------------------------------------------------------------
    def set(self, name: str, text: str, *, by: str) -> Change:
        """Validate ``text`` for ``name``, store it as the override and record the change (one
        transaction)."""
        key = self.key(name)
        try:
            value = key.parse(text)
        except ValueError as err:
            raise ToolError(f"{name} {err}", hint=f"/config get {name} shows the current value") from None
        return self._write(key, value, by=by, reset=False)

    def reset(self, name: str, *, by: str) -> Change:
        """Remove the override of ``name`` (the default applies again) and record the change."""
        return self._write(self.key(name), None, by=by, reset=True)

    def _write(self, key: ConfigKey, value: Any, *, by: str, reset: bool) -> Change:
        now = utcnow()
        with self._sessions() as session:
            row = session.get(ToolConfigValue, key.name)
            old = _effective(key, row).value
            new = key.default if reset else value
            if reset:
                if row is not None:
                    session.delete(row)
            elif row is None:
                session.add(ToolConfigValue(key=key.name, value=value, updated_at=now, updated_by=by))
            else:
                row.value = value  # a new object: JSON columns are reassigned, never mutated in place
                row.updated_at = now
                row.updated_by = by
            session.add(
                ToolConfigChange(
                    key=key.name,
                    old_value=old,
                    new_value=None if reset else value,
                    changed_by=by,
                    changed_at=now,
                )
            )
            session.commit()
        if self._on_change is not None:
            self._on_change(key.name)
        return Change(key.name, old, new, by, now)


def _effective(key: ConfigKey, row: ToolConfigValue | None) -> Setting:
    if row is None:
        return Setting(key, key.default, False)
    try:
        return Setting(key, key.check(row.value), True)
    except ValueError as err:  # stored before the schema changed (a retired metric version, a removed challenge)
        note = (
            f"{key.name}: the stored {describe(row.value)} is refused ({err}), so the default "
            f"{describe(key.default)} applies; /config set {key.name} VALUE or /config reset {key.name}"
        )
        return Setting(key, key.default, False, note)


def describe(value: Any) -> str:
    """A value as shown to admins (the same text ``/config set`` accepts; ``(empty)`` for an empty text or
    list)."""
    return as_text(value) or "(empty)"
