"""``records [CHALLENGE] [n=… k=…] [page=N] [--metric M]``: the record history of a board (who beat whom, by how
much, when) with its progression chart (tools/records_chart.py: a log axis past a decade); the group's published
records (tools/published) take part, marked "(published)". One board: its history, 20 rows a page (the chart and
``--json`` always have all of it). Several boards: one row per board (its record, who, when, how many records) and
one figure with a panel per board, so the chat gets one chart and a table it can show inline (docs/cards.md)."""

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
from tools.board import Board
from tools.metric_format import format_value
from tools.records import RECORD_HEADERS, RecordChange, record_cells, record_history
from tools.records_chart import MAX_PANELS, overview_chart_png, progression_chart_png

SUMMARY_HEADERS = ["board", "record", "by", "when (UTC)", "records"]


def show_records(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.args[:1] == ["sync"]:
        from bot.commands.records_sync import sync_records

        return sync_records(ctx, inv)
    config = ctx.tool_config()
    primary = config.primary_metrics()  # the admins' metric.primary.<challenge> settings
    instance_options(inv.args, inv.options)
    wanted = page_number(inv.options)
    boards: list[tuple[str, str, Board, list[RecordChange]]] = []
    data: list[dict[str, object]] = []
    with ctx.sessions()() as session:
        for challenge, metric in resolve_scope(
            session, inv.args[0] if inv.args else None, inv.options.get("metric"), primary
        ):
            if metric is None:
                check_instance(challenge, inv.options)
                continue
            for board, entries in board_entries(session, challenge, metric, inv.options, published=True).items():
                history = record_history(entries)
                boards.append((challenge, metric, board, history))
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
    if not boards:
        return Reply(text="no scored runs yet — run something first (sutro run …)", data={"ok": True, "histories": []})
    if len(boards) == 1:
        return _one_board(inv, config.refused_primary_metrics(), wanted, boards[0], data)
    return _overview(config.refused_primary_metrics(), boards, data)


def _one_board(
    inv: Invocation,
    refused: list[str],
    wanted: int,
    board: tuple[str, str, Board, list[RecordChange]],
    data: list[dict[str, object]],
) -> Reply:
    """One board: its whole record history as a table (20 rows a page) and its progression chart."""
    challenge, metric, where, history = board
    page = page_of(record_cells(history), wanted)
    title = where.title + (f" ({page.number}/{page.pages})" if page.pages > 1 else "")
    png = progression_chart_png(history, challenge=challenge, metric=metric, board=where.name)
    stem = "-".join([challenge, *(f"{k}{v}" for k, v in where.instance), where.track])
    chart = OutFile(name=f"records-{stem}-{metric.replace('@', '-v')}.png", content=png, mime="image/png")
    paging = paging_of("records", inv.args, inv.options, min(wanted, page.pages), page.pages)
    lines = [f"record history of {where.title}; lower is better", *refused, next_page_hint(paging)]
    return Reply(
        text="\n".join(line for line in lines if line),
        tables=[Table(headers=RECORD_HEADERS, rows=page.rows, title=title)],
        files=[chart],
        paging=paging,
        data={"ok": True, "histories": data},
    )


def _overview(
    refused: list[str], boards: list[tuple[str, str, Board, list[RecordChange]]], data: list[dict[str, object]]
) -> Reply:
    """Several boards: one row per board (its record, who set it, when, how many records it has had) and one
    figure with a panel per board (at most :data:`MAX_PANELS`); ``records BOARD …`` gives one board's history."""
    rows = []
    for _, _, where, history in boards:
        last = history[-1].record if history else None
        rows.append(
            [
                where.title,
                "—" if last is None else format_value(last.value),
                "—" if last is None else last.member,
                "—" if last is None else f"{last.created_at:%Y-%m-%d}",
                str(len(history)),
            ]
        )
    drawn = [(where.title, metric, history) for _, metric, where, history in boards if history][:MAX_PANELS]
    files = []
    if drawn:
        png = overview_chart_png(drawn)
        files.append(OutFile(name="records-overview.png", content=png, mime="image/png"))
    left_out = sum(1 for _, _, _, history in boards if history) - len(drawn)
    lines = [
        f"records of {len(boards)} boards; lower is better — one board's history: records CHALLENGE [n=… k=…]",
        f"the chart shows the first {len(drawn)} boards ({left_out} more in the table)" if left_out else "",
        *refused,
    ]
    return Reply(
        text="\n".join(line for line in lines if line),
        tables=[Table(headers=SUMMARY_HEADERS, rows=rows, title="current records")],
        files=files,
        data={"ok": True, "histories": data},
    )
