"""``rescore OLD NEW``: re-score stored runs for a new metric version, keep both values, report the re-ranking."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.core.rescoring import rescore

USAGE = usage_of("rescore")


def rescore_runs(ctx: AppContext, inv: Invocation) -> Reply:
    if len(inv.args) != 2:
        raise UsageError("rescore needs the old and the new metric version", hint=f"usage: rescore {USAGE}")
    old, new = inv.args
    rescorer = ctx.rescorers.get(new)
    if rescorer is None:
        known = ", ".join(sorted(ctx.rescorers)) or "none yet"
        raise UsageError(f"no re-scorer for {new}", hint=f"metrics that can be re-scored: {known}")
    report = rescore(ctx.sessions(), old_metric=old, new_metric=new, rescorer=rescorer)
    rows = [
        [c.challenge, c.member, c.subject, str(c.old_rank or "—"), str(c.new_rank or "—")] for c in report.rank_changes
    ]
    text = f"re-scored {report.rescored} run(s) for {new} (kept {old})"
    if report.attributed:
        text += f"; where the cost went recomputed for {report.attributed}"
    if report.skipped:
        text += f"; {len(report.skipped)} could not be re-scored (no stored code): " + ", ".join(
            f"#{i}" for i in report.skipped
        )
    text += f"; {len(rows)} ranking change(s)"
    return Reply(
        text=text,
        tables=[Table(headers=["challenge", "member", "method", f"rank by {old}", f"rank by {new}"], rows=rows)]
        if rows
        else [],
        data={
            "ok": True,
            "rescored": report.rescored,
            "attributed": report.attributed,
            "skipped": report.skipped,
            "rank_changes": [c.__dict__ for c in report.rank_changes],
        },
    )
