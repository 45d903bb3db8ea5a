"""``challenges``: list the challenge registry (name, track, the metric that ranks it, whether members may run it,
whether it is current or retired, summary). The metric and "enabled" are the admins' settings
(``metric.primary.<challenge>``, ``challenges.enabled``). "Retired" follows the group's legacy pages as last synced
(``records sync``), and the registry's own date for a tier retired before the product followed the group: a
retired tier stays scoreable, its board frozen, and is listed after the current ones. Boards the group publishes
that this product does not score yet (a challenge not installed here) are listed after the registry, as published.
"""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table
from bot.context import AppContext
from bot.core.store import StorageError
from engine.challenges import CHALLENGES, IRChallenge
from tools.published.joins import challenge_of
from tools.published.records import current_snapshot, shipped_snapshot
from tools.published.snapshot import Snapshot


def _retired_on(snapshot: Snapshot, name: str) -> str | None:
    """The date (ISO) the group retired ``name``: its legacy page as synced, else the registry's; None if current."""
    retired = snapshot.retirement(name)
    if retired is not None:
        return retired.since.isoformat()
    return CHALLENGES.get(name).retired if name in CHALLENGES else None


def _status(snapshot: Snapshot, name: str) -> str:
    retired = _retired_on(snapshot, name)
    return "current" if retired is None else f"retired {retired}"


def list_challenges(ctx: AppContext, inv: Invocation) -> Reply:
    note = ""
    try:
        config = ctx.tool_config()
        primary = config.primary_metrics()
        enabled = set(config.get("challenges.enabled"))
        with ctx.sessions()() as session:
            snapshot = current_snapshot(session)
    except StorageError as err:  # the registry is still worth showing; the admins' settings are not readable
        primary = {c.name: c.primary_metric for c in CHALLENGES}
        enabled = set(CHALLENGES.names())
        snapshot = shipped_snapshot()
        note = f"; built-in settings shown ({err.one_line()})"
    listed = sorted(CHALLENGES, key=lambda c: _retired_on(snapshot, c.name) is not None)  # current first, stable
    rows = [
        [c.name, c.track, primary[c.name], "yes" if c.name in enabled else "no", _status(snapshot, c.name), c.summary]
        for c in listed
    ]
    elsewhere = [b for b in snapshot.boards if challenge_of(b) not in CHALLENGES and snapshot.of(b)]
    rows += [
        [b, "—", "—", "no", _status(snapshot, b), "published by the group; not scored here yet"] for b in elsewhere
    ]
    data = {
        "challenges": [
            {
                "name": c.name,
                "track": c.track,
                "primary_metric": primary[c.name],
                "enabled": c.name in enabled,
                "status": _status(snapshot, c.name),
                "retired": _retired_on(snapshot, c.name),
                "bands": list(c.bands) if isinstance(c, IRChallenge) and c.bands else None,
                "summary": c.summary,
            }
            for c in listed
        ],
        "published_elsewhere": [{"name": b, "status": _status(snapshot, b)} for b in elsewhere],
    }
    off = len(CHALLENGES) - sum(c.name in enabled for c in CHALLENGES)
    retired = sum(_retired_on(snapshot, c.name) is not None for c in CHALLENGES)
    text = f"{len(CHALLENGES)} challenges" + (f" ({off} not enabled here)" if off else "")
    if retired:
        text += f"; {retired} retired by the group, listed last (still scoreable, boards frozen)"
    if elsewhere:
        text += f"; {len(elsewhere)} published board(s) not scored here yet"
    return Reply(
        text=text + note,
        tables=[Table(headers=["challenge", "track", "metric", "enabled", "status", "what"], rows=rows)],
        data=data,
    )
