"""``challenges``: list the challenge registry (name, track, the metric that ranks it, whether members may run it,
summary). The metric and "enabled" are the admins' settings (``metric.primary.<challenge>``, ``challenges.enabled``).
"""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table
from bot.context import AppContext
from engine.challenges import CHALLENGES
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
    rows = [[c.name, c.track, primary[c.name], "yes" if c.name in enabled else "no", c.summary] for c in CHALLENGES]
    data = {
        "challenges": [
            {
                "name": c.name,
                "track": c.track,
                "primary_metric": primary[c.name],
                "enabled": c.name in enabled,
                "summary": c.summary,
            }
            for c in CHALLENGES
        ]
    }
    off = len(rows) - sum(c.name in enabled for c in CHALLENGES)
    return Reply(
        text=f"{len(rows)} challenges" + (f" ({off} not enabled here)" if off else "") + note,
        tables=[Table(headers=["challenge", "track", "metric", "enabled", "what"], rows=rows)],
        data=data,
    )
