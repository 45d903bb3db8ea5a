"""``rescore OLD NEW``: re-score stored runs for a new metric version, keep both values, report the re-ranking;
``rescore rules CHALLENGE``: re-judge a challenge's stored runs under its current correctness rules, report what
fell out or changed rank (bot/core/rejudging.py)."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.core.rejudging import rejudge
from bot.core.rescoring import rescore

USAGE = usage_of("rescore")


def rescore_runs(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.args[:1] == ["rules"]:
        return rejudge_runs(ctx, inv)
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
    text += _skipped(report.skipped, "could not be re-scored (no stored code)")
    text += f"; {len(rows)} ranking change(s)"
    return Reply(
        text=text,
        tables=_table(["challenge", "member", "method", f"rank by {old}", f"rank by {new}"], rows),
        data={
            "ok": True,
            "rescored": report.rescored,
            "attributed": report.attributed,
            "skipped": report.skipped,
            "rank_changes": [c.__dict__ for c in report.rank_changes],
        },
    )


def rejudge_runs(ctx: AppContext, inv: Invocation) -> Reply:
    """``rescore rules CHALLENGE``: re-judge the challenge's stored runs under its current correctness rules."""
    if len(inv.args) != 2:
        raise UsageError("rescore rules needs a challenge", hint=f"usage: rescore {USAGE}")
    report = rejudge(ctx.sessions(), challenge=inv.args[1])
    text = f"re-judged {report.rejudged} run(s) of {report.challenge} under {report.rules}"
    text += f"; {len(report.fell_out)} fell out, {len(report.rank_changes)} changed rank"
    text += _skipped(report.skipped, "not re-judged (no stored IR program)")
    rows = [
        [f"#{c.run_id}", c.member, c.subject, str(c.old_rank or "—"), str(c.new_rank or "—"), c.failure or ""]
        for c in [*report.fell_out, *report.rank_changes]
    ]
    return Reply(
        text=text,
        tables=_table(["run", "member", "method", "rank before", "rank now", "why"], rows),
        data={
            "ok": True,
            "challenge": report.challenge,
            "rules": report.rules,
            "rejudged": report.rejudged,
            "skipped": report.skipped,
            "fell_out": [c.__dict__ for c in report.fell_out],
            "rank_changes": [c.__dict__ for c in report.rank_changes],
        },
    )


def _skipped(run_ids: list[int], why: str) -> str:
    """The reply's clause for runs left alone (``; 2 not re-judged (…): #3, #7``), or "" when there were none."""
    return f"; {len(run_ids)} {why}: " + ", ".join(f"#{i}" for i in run_ids) if run_ids else ""


def _table(headers: list[str], rows: list[list[str]]) -> list[Table]:
    """The reply's one table, or none when it would have no rows."""
    return [Table(headers=headers, rows=rows)] if rows else []
