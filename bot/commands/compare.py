"""``compare ID ID``: metric deltas of two runs with the verdict of the second against the first (docs/verdicts.md),
a warning when they are on different boards, and, where attribution is stored, where the cost moved."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.scope import parse_run_id
from bot.context import AppContext
from bot.core.verdict import configured_rule, judge
from storage.runs import get_run
from tools.board import board_of
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
    rule = configured_rule(ctx.tool_config().get)
    verdicts = {
        m.metric: judge([m.b], [m.a], candidate_passed=b.ok, rule=rule).outcome.value
        for m in comparison.metrics
        if m.a is not None and m.b is not None
    }
    lines = [f"#{b_id} ({b.subject}) vs #{a_id} ({a.subject}){note}"]
    lines += [f"{metric}: {outcome}" for metric, outcome in verdicts.items()]
    boards = {board_of(r.challenge, r.kind, r.subject, r.params, "").name for r in (a, b)}
    if len(boards) > 1:
        lines.append("not like for like: different boards (" + " vs ".join(sorted(boards)) + ")")
    return Reply(
        text="\n".join(lines),
        tables=tables,
        data={
            "ok": True,
            "metrics": [
                {"metric": m.metric, "a": m.a, "b": m.b, "delta": m.delta, "verdict": verdicts.get(m.metric)}
                for m in comparison.metrics
            ],
            "shifts": [
                {"group": s.group, "label": s.label, "a": s.a, "b": s.b, "delta": s.delta} for s in comparison.shifts
            ],
        },
    )
