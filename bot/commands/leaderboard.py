"""``leaderboard [CHALLENGE] [n=… k=…] [page=N] [--metric M]``: best valid result per (member, method), ranked, one
table per board (instance, track, metric version — tools/board.py); the default instance is the group's standard.

Phone width: a table has rank, member, method, value and run (the metric is in its title; the date is in
``--json``), and a long board is shown :data:`~bot.commands.boards.PAGE_ROWS` rows a page with a line naming the
next page; ``--json`` always has every row."""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table
from bot.commands.boards import (
    check_instance,
    instance_options,
    next_page_hint,
    page_number,
    page_of,
    paging_of,
)
from bot.context import AppContext
from bot.core.board_entries import board_entries
from bot.core.board_scope import resolve_scope
from tools.board import mixed_seeds_note
from tools.leaderboard import LEADERBOARD_HEADERS, board_title, leaderboard_cells, rank_best
from tools.param_diff import changed_params

PHONE_COLUMNS = ("#", "member", "method", "value", "run")
"""The columns a leaderboard table shows (of :data:`LEADERBOARD_HEADERS`)."""


def show_leaderboard(ctx: AppContext, inv: Invocation) -> Reply:
    tables: list[Table] = []
    notes: list[str] = []
    data: list[dict[str, object]] = []
    config = ctx.tool_config()
    primary = config.primary_metrics()  # the admins' metric.primary.<challenge> settings
    instance_options(inv.args, inv.options)
    wanted = page_number(inv.options)
    pages = 1
    with ctx.sessions()() as session:
        for challenge, metric in resolve_scope(
            session, inv.args[0] if inv.args else None, inv.options.get("metric"), primary
        ):
            if metric is None:
                check_instance(challenge, inv.options)
                continue
            for board, entries in board_entries(session, challenge, metric, inv.options, published=False).items():
                rows = rank_best(entries)
                page = page_of(rows, wanted)
                pages = max(pages, page.pages)
                title = board_title(board) + (f" ({page.number}/{page.pages})" if page.pages > 1 else "")
                tables.append(
                    Table(headers=list(PHONE_COLUMNS), rows=_phone(leaderboard_cells(page.rows)), title=title)
                )
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
                                "params": changed_params(r.best.kind, r.best.subject, r.best.params),
                                "value": r.best.value,
                                "run": r.best.run_id,
                            }
                            for r in rows
                        ],
                    }
                )
    if not tables:
        return Reply(text="no scored runs yet — run something first (sutro run …)", data={"ok": True, "boards": []})
    paging = paging_of("leaderboard", inv.args, inv.options, min(wanted, pages), pages)
    return Reply(
        text="\n".join(
            line
            for line in [
                f"{len(tables)} leaderboard(s); lower is better",
                *config.refused_primary_metrics(),
                *notes,
                next_page_hint(paging),
            ]
            if line
        ),
        tables=tables,
        paging=paging,
        data={"ok": True, "boards": data},
    )


def _phone(cells: list[list[str]]) -> list[list[str]]:
    """The :data:`PHONE_COLUMNS` of full leaderboard cells."""
    keep = [LEADERBOARD_HEADERS.index(c) for c in PHONE_COLUMNS]
    return [[row[i] for i in keep] for row in cells]
