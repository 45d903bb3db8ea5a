"""``records [CHALLENGE] [--metric M]``: record history (who beat whom, by how much, when) with a progression chart."""

from __future__ import annotations

from bot.commands.base import Invocation, OutFile, Reply, Table
from bot.commands.scope import resolve_scope
from bot.context import AppContext
from storage.scores import scored_runs
from tools.records import RECORD_HEADERS, record_cells, record_history
from tools.records_chart import progression_chart_png


def show_records(ctx: AppContext, inv: Invocation) -> Reply:
    tables: list[Table] = []
    files: list[OutFile] = []
    data: list[dict[str, object]] = []
    primary = ctx.tool_config().primary_metrics()  # the admins' metric.primary.<challenge> settings
    with ctx.sessions()() as session:
        for challenge, metric in resolve_scope(
            session, inv.args[0] if inv.args else None, inv.options.get("metric"), primary
        ):
            if metric is None:
                continue
            history = record_history(scored_runs(session, challenge=challenge, metric=metric))
            tables.append(Table(headers=RECORD_HEADERS, rows=record_cells(history), title=f"{challenge} — {metric}"))
            png = progression_chart_png(history, challenge=challenge, metric=metric)
            files.append(
                OutFile(name=f"records-{challenge}-{metric.replace('@', '-v')}.png", content=png, mime="image/png")
            )
            data.append(
                {
                    "challenge": challenge,
                    "metric": metric,
                    "records": [
                        {
                            "run": c.record.run_id,
                            "member": c.record.member,
                            "method": c.record.subject,
                            "value": c.record.value,
                            "beat_run": c.previous.run_id if c.previous else None,
                            "improvement": c.improvement,
                        }
                        for c in history
                    ],
                }
            )
    if not tables:
        return Reply(text="no scored runs yet — run something first (sutro run …)", data={"ok": True, "histories": []})
    return Reply(
        text=f"record history for {len(tables)} challenge(s); lower is better",
        tables=tables,
        files=files,
        data={"ok": True, "histories": data},
    )
