"""``show ID``: one stored run in full — parameters, code, provenance, metrics, and for a traced run its reuse-distance
histogram per scope (a table, and a PNG chart: a photo in the chat, a file the CLI writes)."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, OutFile, Reply, Table, UsageError
from bot.commands.scope import parse_run_id
from bot.context import AppContext
from bot.core.recording import result_of
from engine.attribution.histogram import ReuseHistogram, bin_label
from storage.runs import get_run
from storage.tables import Run
from tools.run_detail import run_detail

USAGE = usage_of("show")


def show_run(ctx: AppContext, inv: Invocation) -> Reply:
    if len(inv.args) != 1:
        raise UsageError("show needs one run id", hint="usage: show ID (see ids with: runs)")
    run_id = parse_run_id(inv.args[0], usage="show ID")
    with ctx.sessions()() as session:
        run = get_run(session, run_id=run_id)
    detail = run_detail(run)
    files = (
        [OutFile(name=f"run-{run.id}-code.txt", content=detail.code.encode(), mime="text/plain")] if detail.code else []
    )
    histograms = reuse_histograms(run)
    tables = [
        Table(headers=["field", "value"], rows=detail.fields),
        Table(headers=["metric", "value", "scope"], rows=detail.metrics, title="metrics"),
    ]
    for scope, histogram in histograms.items():
        tables.append(histogram_table(histogram, title=f"reuse distances ({scope})"))
        files.append(histogram_file(histogram, run_id=run.id, scope=scope, subject=run.subject))
    return Reply(
        text=detail.summary,
        tables=tables,
        files=files,
        data={
            "ok": True,
            "run": {
                "id": run.id,
                "challenge": run.challenge,
                "subject": run.subject,
                "ok": run.ok,
                "member": run.member.name,
                "params": run.params,
                "metrics": run.metrics,
                "code": run.code,
                "engine_version": run.engine_version,
            },
            "reuse_histograms": {
                scope: {"bins": h.bins(), "total": h.total(), "by_buffer": dict(zip(h.names, h.rows, strict=True))}
                for scope, h in histograms.items()
            },
        },
    )


def reuse_histograms(run: Run) -> dict[str, ReuseHistogram]:
    """The stored run's reuse-distance histogram by scope (empty for a run without a traced per-buffer table)."""
    attribution = result_of(run).buffer_attribution
    if attribution is None:
        return {}
    return {s.scope: s.histogram for s in attribution.scopes if s.histogram.names}


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

    png = reuse_chart_png(histogram, title=f"run {run_id} ({subject}): reuse distances, {scope}")
    return OutFile(name=f"run-{run_id}-reuse-{scope.replace(' ', '-')}.png", content=png, mime="image/png")
