"""``leaderboard [CHALLENGE] [--metric M]``: best valid result per (member, method), ranked, per metric version."""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table
from bot.commands.scope import resolve_scope
from bot.context import AppContext
from storage.scores import best_per_member_method
from tools.leaderboard import LEADERBOARD_HEADERS, leaderboard_cells, rank_best


def show_leaderboard(ctx: AppContext, inv: Invocation) -> Reply:
    tables: list[Table] = []
    data: list[dict[str, object]] = []
    primary = ctx.tool_config().primary_metrics()  # the admins' metric.primary.<challenge> settings
    with ctx.sessions()() as session:
        for challenge, metric in resolve_scope(
            session, inv.args[0] if inv.args else None, inv.options.get("metric"), primary
        ):
            if metric is None:
                continue
            rows = rank_best(best_per_member_method(session, challenge=challenge, metric=metric))
            tables.append(
                Table(headers=LEADERBOARD_HEADERS, rows=leaderboard_cells(rows), title=f"{challenge} — {metric}")
            )
            data.append(
                {
                    "challenge": challenge,
                    "metric": metric,
                    "rows": [
                        {
                            "rank": r.rank,
                            "member": r.best.member,
                            "method": r.best.subject,
                            "value": r.best.value,
                            "run": r.best.run_id,
                        }
                        for r in rows
                    ],
                }
            )
    if not tables:
        return Reply(text="no scored runs yet — run something first (sutro run …)", data={"ok": True, "boards": []})
    return Reply(
        text=f"{len(tables)} leaderboard(s); lower is better",
        tables=tables,
        data={"ok": True, "boards": data},
    )
