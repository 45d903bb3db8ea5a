"""``leaderboard [CHALLENGE] [n=… k=…] [--metric M]``: best valid result per (member, method), ranked, one table per
board (instance, track, metric version — tools/board.py); the default instance is the group's standard."""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table
from bot.commands.boards import board_entries, check_instance, instance_options
from bot.commands.scope import resolve_scope
from bot.context import AppContext
from tools.board import mixed_seeds_note
from tools.leaderboard import LEADERBOARD_HEADERS, leaderboard_cells, rank_best


def show_leaderboard(ctx: AppContext, inv: Invocation) -> Reply:
    tables: list[Table] = []
    notes: list[str] = []
    data: list[dict[str, object]] = []
    primary = ctx.tool_config().primary_metrics()  # the admins' metric.primary.<challenge> settings
    instance_options(inv.args, inv.options)
    with ctx.sessions()() as session:
        for challenge, metric in resolve_scope(
            session, inv.args[0] if inv.args else None, inv.options.get("metric"), primary
        ):
            if metric is None:
                check_instance(challenge, inv.options)
                continue
            for board, entries in board_entries(session, challenge, metric, inv.options, published=False).items():
                rows = rank_best(entries)
                tables.append(Table(headers=LEADERBOARD_HEADERS, rows=leaderboard_cells(rows), title=board.title))
                if note := mixed_seeds_note(r.best for r in rows):
                    notes.append(f"{board.title}: {note}")
                data.append(
                    {
                        "challenge": challenge,
                        "metric": metric,
                        "instance": dict(board.instance),
                        "track": board.track,
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
        text="\n".join([f"{len(tables)} leaderboard(s); lower is better", *notes]),
        tables=tables,
        data={"ok": True, "boards": data},
    )
