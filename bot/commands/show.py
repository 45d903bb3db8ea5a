"""``show ID``: one stored run as a phone reads it (:mod:`bot.commands.show_summary`: at most 25 rows — the verdict,
every metric with its seed spread and change, the diagnostics); ``show ID --full``: the run in full — parameters,
code, provenance, metrics (a seed set's spread and per-seed values), its per-step figures, the comparison with its
baseline and the record, and for a traced run its reuse-distance histogram per scope (a table, and a PNG chart: a
photo in the chat, a file the CLI writes). What a result card leaves out to stay phone-sized is here."""

from __future__ import annotations

from typing import Any

from bot.commands import usage_of
from bot.commands.base import Followup, Invocation, OutFile, Reply, Table, UsageError
from bot.commands.result_card import comparison_table
from bot.commands.scope import parse_run_id
from bot.commands.show_summary import summary_lines
from bot.context import AppContext
from bot.core.comparison import Comparison, compare, settled
from bot.core.judgement import judgement_data
from bot.core.judgement_words import judgement_lines
from bot.core.store import Run
from bot.core.stored_result import result_of
from bot.core.stored_runs import stored_run
from bot.core.verdict import configured_rule
from engine.attribution import WHOLE_PROGRAM, ReuseHistogram, bin_label
from tools.metric_format import format_value
from tools.run_detail import RunDetail, run_detail

USAGE = usage_of("show")


def show_run(ctx: AppContext, inv: Invocation) -> Reply:
    if len(inv.args) != 1:
        raise UsageError("show needs one run id", hint="usage: show ID [--full] (see ids with: runs)")
    run_id = parse_run_id(inv.args[0], usage="show ID")
    config = ctx.tool_config()
    primary = config.primary_metrics().get
    rule, reference = configured_rule(config.get), str(config.get("baseline.reference"))
    with ctx.sessions()() as session:
        run = stored_run(session, run_id)
        comparison = settled(
            session, run, compare(session, run, primary=primary(run.challenge), rule=rule, reference=reference)
        )
    if "full" not in inv.flags:
        return Reply(
            text="\n".join(summary_lines(run, result_of(run), comparison)),
            data=show_data(run, comparison, run_detail(run), reuse_histograms(run)),
            followups=[Followup("full text", f"show {run.id} --full")],
        )
    detail = run_detail(run)
    per_step = run.result.get("per_step") if isinstance(run.result, dict) else None
    files = (
        [OutFile(name=f"run-{run.id}-code.txt", content=detail.code.encode(), mime="text/plain")] if detail.code else []
    )
    histograms = reuse_histograms(run)
    tables = [
        Table(headers=["field", "value"], rows=detail.fields),
        Table(
            headers=["metric", "value", "scope", *(["spread (per seed)"] if detail.per_seed else [])],
            rows=detail.metrics,
            title="metrics" + (f" (mean of {len(run.seeds)} seeds)" if detail.per_seed else ""),
        ),
        *(
            [Table(headers=["per step (mean)", "value"], rows=[[k, format_value(v)] for k, v in per_step.items()])]
            if per_step
            else []
        ),
        *([comparison_table(comparison)] if comparison.has_reference else []),
    ]
    for scope, histogram in histograms.items():
        tables.append(histogram_table(histogram, title=f"{distances_of(scope)} ({scope})"))
        files.append(histogram_file(histogram, run_id=run.id, scope=scope, subject=run.subject))
    judgement = comparison.judgement
    said = judgement_lines(judgement) if judgement is not None else []
    return Reply(
        text="\n".join([detail.summary, *said]),
        tables=tables,
        files=files,
        data=show_data(run, comparison, detail, histograms),
    )


def show_data(
    run: Run, comparison: Comparison, detail: RunDetail, histograms: dict[str, ReuseHistogram]
) -> dict[str, Any]:
    """``show ID --json``: the run, its stored verdict and its reuse histograms (the same with or without --full)."""
    judgement = comparison.judgement
    return {
        "ok": True,
        "run": {
            "id": run.id,
            "challenge": run.challenge,
            "subject": run.subject,
            "ok": run.ok,
            "member": run.member.name,
            "params": run.params,
            "metrics": run.metrics,
            "seeds": run.seeds,
            "seed_metrics": detail.per_seed or None,
            "code": run.code,
            "engine_version": run.engine_version,
        },
        "verdict": None if judgement is None else judgement_data(judgement),
        "reuse_histograms": {
            scope: {"bins": h.bins(), "total": h.total(), "by_buffer": dict(zip(h.names, h.rows, strict=True))}
            for scope, h in histograms.items()
        },
    }


def reuse_histograms(run: Run) -> dict[str, ReuseHistogram]:
    """The stored run's reuse-distance histogram by scope (empty for a run without a traced per-buffer table)."""
    attribution = result_of(run).buffer_attribution
    if attribution is None:
        return {}
    return {s.scope: s.histogram for s in attribution.scopes if s.histogram.names}


def distances_of(scope: str) -> str:
    """What the histogram of ``scope`` bins: an IR program's reads by address ring (engine/attribution/rings.py),
    a traced run's by reuse distance."""
    return "read distances by address ring" if scope == WHOLE_PROGRAM else "reuse distances"


def histogram_table(histogram: ReuseHistogram, *, title: str) -> Table:
    """Floats read per distance bin, with the bin's share and the buffer reading most of it."""
    total = histogram.total()
    whole = sum(total.values()) or 1
    rows = []
    for b, floats in total.items():
        top = max(range(len(histogram.names)), key=lambda i: histogram.rows[i].get(b, 0))
        rows.append([bin_label(b), f"{floats:,}", f"{floats / whole:.0%}", histogram.names[top]])
    return Table(headers=["distance", "floats read", "share", "mostly"], rows=rows, title=title)


def histogram_file(histogram: ReuseHistogram, *, run_id: int | None, scope: str, subject: str) -> OutFile:
    """The chart of ``histogram`` as a PNG file named after the run and scope."""
    from tools.reuse_chart import reuse_chart_png  # matplotlib only when a chart is drawn

    ring = scope == WHOLE_PROGRAM
    png = reuse_chart_png(
        histogram,
        title=f"run {run_id} ({subject}): {distances_of(scope)}, {scope}",
        distance="address ring r = ⌈√address⌉ (log₂ bins)" if ring else "reuse distance (floats, log₂ bins)",
        read="reads" if ring else "floats read",
    )
    return OutFile(name=f"run-{run_id}-reuse-{scope.replace(' ', '-')}.png", content=png, mime="image/png")
