"""``compare ID ID``: metric deltas of two runs with the verdict of the second against the first (docs/verdicts.md),
one line naming what differs when they are not like for like (instance, track, seeds, metric version), the
verdict over each run's seed values, and where the cost moved: for runs with per-buffer tables, the
buffers side by side for the board's primary metric (``bot.core.attribution_diff``), sorted by their part of the
change, each "moved" or "unchanged"; for IR runs, the per-address-ring shifts."""

from __future__ import annotations

from typing import Any

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.commands.card_voice import metric_name, movers_lines, verdict_phrase
from bot.commands.scope import parse_run_id
from bot.context import AppContext
from bot.core.attribution_diff import compare_stored
from bot.core.comparison import run_versus_run
from bot.core.verdict import Verdict, VerdictRule, configured_rule
from engine.attribution import UNCHANGED, AttributionDiff, BufferChange, explain
from tools.board import setting_of, what_differs
from tools.compare import metric_cells, shift_cells
from tools.metric_format import format_value, percent_needed

USAGE = usage_of("compare")


def _contribution(diff: AttributionDiff, row: BufferChange, which: str) -> float | None:
    buffer = row.a if which == "a" else row.b
    return None if buffer is None else buffer.contribution(diff.metric)


def _cell(value: float | None) -> str:
    return "—" if value is None else format_value(value)


def _signed(value: float) -> str:
    return ("+" if value > 0 else "−" if value < 0 else "") + format_value(abs(value))


LEADING_METRICS = ("bytedmd", "dmc", "dally")
"""The metrics a comparison's first line names, in this order, when both runs have them (the group's primary
metrics: ByteDMD and DMC for sparse parity, Dally for the IR track); every metric is in the table below it."""


def headline(a_id: int, a: str, b_id: int, b: str, judged: dict[str, Verdict], rule: VerdictRule) -> str:
    """``#3 local_update vs #1 sgd: ByteDMD −1.2 % (WIN); DMC −0.5 %, inconclusive — seed spread ±17 %``: the
    verdict of the second run against the first on the leading metrics both have (else on every metric)."""
    lead = [k for name in LEADING_METRICS for k in judged if k.partition("@")[0] == name] or list(judged)
    said = "; ".join(f"{metric_name(k)} {verdict_phrase(judged[k], rule)}" for k in lead)
    return f"#{b_id} {b} vs #{a_id} {a}" + (f": {said}" if said else "")


def buffer_table(diff: AttributionDiff, a_id: int, b_id: int) -> Table:
    """The per-buffer diff as a card table: name, contribution in A and B, change, that change as a share of A's
    total (so its sign is the change's and the shares add up to the whole change),
    the verdict; buffers that did not move (:data:`engine.attribution.UNCHANGED`: no change, or one too small to
    count) are left out and counted in the title, the last row is the totals (``--json`` lists every buffer)."""
    changed = [r for r in diff.rows if r.verdict != UNCHANGED]
    rows = [
        [
            r.name,
            _cell(_contribution(diff, r, "a")),
            _cell(_contribution(diff, r, "b")),
            _signed(r.change),
            percent_needed(r.change / abs(diff.total_a)) if diff.total_a else "",
            r.verdict,
        ]
        for r in changed
    ]
    rows.append(["total", _cell(diff.total_a), _cell(diff.total_b), _signed(diff.change), "", ""])
    return Table(
        headers=["buffer", f"#{a_id}", f"#{b_id}", "change", f"of #{a_id}", "verdict"],
        rows=rows,
        title=f"where {diff.metric} ({diff.scope}) moved, by buffer"
        + (f" ({len(diff.rows) - len(changed)} more barely moved)" if len(changed) < len(diff.rows) else ""),
    )


def buffer_rows(diff: AttributionDiff) -> list[dict[str, Any]]:
    """The same table for ``--json``: one object per buffer (None where a run has no such buffer)."""
    return [
        {
            "buffer": r.name,
            "a": _contribution(diff, r, "a"),
            "b": _contribution(diff, r, "b"),
            "change": r.change,
            "share_of_change": r.share_of_change,
            "verdict": r.verdict,
            "floats_read_a": None if r.a is None else r.a.floats_read,
            "floats_read_b": None if r.b is None else r.b.floats_read,
            "mean_distance_a": None if r.a is None else r.a.mean_distance,
            "mean_distance_b": None if r.b is None else r.b.mean_distance,
        }
        for r in diff.rows
    ]


def compare(ctx: AppContext, inv: Invocation) -> Reply:
    if len(inv.args) != 2:
        got = "one run id" if len(inv.args) == 1 else f"{len(inv.args)} run ids"
        raise UsageError(f"compare needs two run ids, got {got}", hint="usage: compare ID ID (see ids with: runs)")
    a_id, b_id = (parse_run_id(t, usage="compare ID ID") for t in inv.args)
    pair = compare_stored(ctx, a_id, b_id)
    a, b, comparison, diff = pair.a, pair.b, pair.comparison, pair.buffers
    tables = [Table(headers=["metric", f"#{a_id}", f"#{b_id}", "change"], rows=metric_cells(comparison))]
    if diff is not None:
        tables.append(buffer_table(diff, a_id, b_id))
    if comparison.shifts and diff is None:  # an IR pair's rings are in the per-buffer table already
        tables.append(
            Table(
                headers=["where", "what", f"#{a_id}", f"#{b_id}", "change"],
                rows=shift_cells(comparison),
                title="where the cost moved",
            )
        )
    note = "" if comparison.shifts or diff is not None else " (no per-buffer attribution stored for both runs)"
    rule = configured_rule(ctx.tool_config().get)
    judged = {
        m.metric: run_versus_run(b, a, m.metric, rule=rule)
        for m in comparison.metrics
        if m.a is not None and m.b is not None
    }
    verdicts = {metric: verdict.outcome.value for metric, verdict in judged.items()}
    lines = [headline(a_id, a.subject, b_id, b.subject, judged, rule) + note]
    if diff is not None:
        lines += movers_lines(diff, f"#{a_id}")
        lines.append(f"{diff.metric} ({diff.scope}): {explain(diff)}")
    differs = what_differs(*(setting_of(r.challenge, r.kind, r.subject, r.params, r.seeds, r.metrics) for r in (a, b)))
    if differs:
        lines.append(differs)
    buffers = None
    if diff is not None:
        buffers = {
            "metric": diff.metric,
            "scope": diff.scope,
            "total_a": diff.total_a,
            "total_b": diff.total_b,
            "change": diff.change,
            "moved_floats_share": diff.moved_floats_share,
            "moved_contribution_share": diff.moved_contribution_share,
            "rows": buffer_rows(diff),
        }
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
            "buffers": buffers,
        },
    )
