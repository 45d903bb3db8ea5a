"""``records [CHALLENGE] [n=… k=…] [page=N] [--metric M]``: record history per board (who beat whom, by how much,
when) with a progression chart (tools/records_chart.py: a log axis past a decade); the group's published records
(tools/published) take part, marked "(published)". A long history is shown 20 rows a page (the chart and ``--json``
always have all of it)."""

from __future__ import annotations

from bot.commands.base import Invocation, OutFile, Reply, Table
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
from tools.records import RECORD_HEADERS, record_cells, record_history
from tools.records_chart import progression_chart_png


def show_records(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.args[:1] == ["sync"]:
        from bot.commands.records_sync import sync_records

        return sync_records(ctx, inv)
    tables: list[Table] = []
    files: list[OutFile] = []
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
            for board, entries in board_entries(session, challenge, metric, inv.options, published=True).items():
                history = record_history(entries)
                page = page_of(record_cells(history), wanted)
                pages = max(pages, page.pages)
                title = board.title + (f" ({page.number}/{page.pages})" if page.pages > 1 else "")
                tables.append(Table(headers=RECORD_HEADERS, rows=page.rows, title=title))
                png = progression_chart_png(history, challenge=challenge, metric=metric, board=board.name)
                stem = "-".join([challenge, *(f"{k}{v}" for k, v in board.instance), board.track])
                files.append(
                    OutFile(name=f"records-{stem}-{metric.replace('@', '-v')}.png", content=png, mime="image/png")
                )
                data.append(
                    {
                        "challenge": challenge,
                        "metric": metric,
                        "instance": dict(board.instance),
                        "track": board.track,
                        "records": [
                            {
                                "run": c.record.run_id or None,
                                "member": c.record.member,
                                "method": c.record.subject,
                                "value": c.record.value,
                                "published": c.record.source or None,
                                "beat_run": c.previous.run_id or None if c.previous else None,
                                "improvement": c.improvement,
                            }
                            for c in history
                        ],
                    }
                )
    if not tables:
        return Reply(text="no scored runs yet — run something first (sutro run …)", data={"ok": True, "histories": []})
    paging = paging_of("records", inv.args, inv.options, min(wanted, pages), pages)
    return Reply(
        text="\n".join(
            line
            for line in [
                f"record history for {len(tables)} board(s); lower is better",
                *config.refused_primary_metrics(),
                next_page_hint(paging),
            ]
            if line
        ),
        tables=tables,
        files=files,
        paging=paging,
        data={"ok": True, "histories": data},
    )
