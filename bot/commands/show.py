"""``show ID``: one stored run in full — parameters, code, provenance, metrics (a seed set's spread and per-seed
values), its per-step figures, and the comparison with its baseline and the record: what a result card leaves out to
stay phone-sized."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, OutFile, Reply, Table, UsageError
from bot.commands.result_card import comparison_table
from bot.commands.scope import parse_run_id
from bot.context import AppContext
from bot.core.comparison import compare
from bot.core.verdict import configured_rule
from storage.runs import get_run
from tools.metric_format import format_figure
from tools.run_detail import run_detail

USAGE = usage_of("show")


def show_run(ctx: AppContext, inv: Invocation) -> Reply:
    if len(inv.args) != 1:
        raise UsageError("show needs one run id", hint="usage: show ID (see ids with: runs)")
    run_id = parse_run_id(inv.args[0], usage="show ID")
    config = ctx.tool_config()
    primary = config.primary_metrics().get
    rule, reference = configured_rule(config.get), str(config.get("baseline.reference"))
    with ctx.sessions()() as session:
        run = get_run(session, run_id=run_id)
        comparison = compare(session, run, primary=primary(run.challenge), rule=rule, reference=reference)
    detail = run_detail(run)
    per_step = run.result.get("per_step") if isinstance(run.result, dict) else None
    files = (
        [OutFile(name=f"run-{run.id}-code.txt", content=detail.code.encode(), mime="text/plain")] if detail.code else []
    )
    return Reply(
        text=detail.summary,
        tables=[
            Table(headers=["field", "value"], rows=detail.fields),
            Table(
                headers=["metric", "value", "scope", *(["spread (per seed)"] if detail.per_seed else [])],
                rows=detail.metrics,
                title="metrics" + (f" (mean of {len(run.seeds)} seeds)" if detail.per_seed else ""),
            ),
            *(
                [Table(headers=["per step (mean)", "value"], rows=[[k, format_figure(v)] for k, v in per_step.items()])]
                if per_step
                else []
            ),
            *([comparison_table(comparison)] if comparison.has_reference else []),
        ],
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
                "seeds": run.seeds,
                "seed_metrics": detail.per_seed or None,
                "code": run.code,
                "engine_version": run.engine_version,
            },
        },
    )
