"""``compare ID ID``: metric deltas of two runs and, where attribution is stored, where the cost moved."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.scope import parse_run_id
from bot.context import AppContext
from storage.runs import get_run
from tools.compare import compare_runs, metric_cells, shift_cells

USAGE = usage_of("compare")


def compare(ctx: AppContext, inv: Invocation) -> Reply:
    if len(inv.args) != 2:
        raise UsageError("compare needs two run ids", hint="usage: compare ID ID (see ids with: runs)")
    a_id, b_id = (parse_run_id(t, usage="compare ID ID") for t in inv.args)
    with ctx.sessions()() as session:
        a, b = get_run(session, run_id=a_id), get_run(session, run_id=b_id)
    comparison = compare_runs(a, b)
    tables = [Table(headers=["metric", f"#{a_id}", f"#{b_id}", "change"], rows=metric_cells(comparison))]
    if comparison.shifts:
        tables.append(
            Table(
                headers=["where", "what", f"#{a_id}", f"#{b_id}", "change"],
                rows=shift_cells(comparison),
                title="where the cost moved",
            )
        )
    note = "" if comparison.shifts else " (no per-buffer attribution stored for both runs)"
    return Reply(
        text=f"#{b_id} ({b.subject}) vs #{a_id} ({a.subject}){note}",
        tables=tables,
        data={
            "ok": True,
            "metrics": [{"metric": m.metric, "a": m.a, "b": m.b, "delta": m.delta} for m in comparison.metrics],
            "shifts": [
                {"group": s.group, "label": s.label, "a": s.a, "b": s.b, "delta": s.delta} for s in comparison.shifts
            ],
        },
    )
