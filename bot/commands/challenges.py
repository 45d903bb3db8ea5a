"""``challenges``: list the challenge registry (name, track, the metric that ranks it, whether members may run it,
whether the group still works on it, summary). The metric and "enabled" are the admins' settings
(``metric.primary.<challenge>``, ``challenges.enabled``). Current challenges come first; a challenge the group has
retired is listed after them as ``retired YYYY-MM-DD`` (still scoreable, not offered as current).
"""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table
from bot.context import AppContext
from engine.challenges import CHALLENGES, current
from engine.challenges.ir_track import IRChallenge
from storage.errors import StorageError


def list_challenges(ctx: AppContext, inv: Invocation) -> Reply:
    note = ""
    try:
        config = ctx.tool_config()
        primary = config.primary_metrics()
        enabled = set(config.get("challenges.enabled"))
    except StorageError as err:  # the registry is still worth showing; the admins' settings are not readable
        primary = {c.name: c.primary_metric for c in CHALLENGES}
        enabled = set(CHALLENGES.names())
        note = f"; built-in settings shown ({err.one_line()})"
    listed = sorted(CHALLENGES, key=lambda c: not current(c))  # stable: registry order within each group
    rows = [
        [c.name, c.track, primary[c.name], "yes" if c.name in enabled else "no", _status(c.retired), c.summary]
        for c in listed
    ]
    data = {
        "challenges": [
            {
                "name": c.name,
                "track": c.track,
                "primary_metric": primary[c.name],
                "enabled": c.name in enabled,
                "retired": c.retired,
                "bands": list(c.bands) if isinstance(c, IRChallenge) and c.bands else None,
                "summary": c.summary,
            }
            for c in listed
        ]
    }
    off = len(rows) - sum(c.name in enabled for c in CHALLENGES)
    retired = sum(not current(c) for c in CHALLENGES)
    return Reply(
        text=f"{len(rows)} challenges"
        + (f" ({off} not enabled here)" if off else "")
        + (f"; {retired} retired by the group, listed last" if retired else "")
        + note,
        tables=[Table(headers=["challenge", "track", "metric", "enabled", "status", "what"], rows=rows)],
        data=data,
    )


def _status(retired: str | None) -> str:
    return "current" if retired is None else f"retired {retired}"
