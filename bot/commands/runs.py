"""``runs [mine]``: the most recent stored runs (yours only with ``mine``)."""

from __future__ import annotations

from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from storage.runs import recent_runs
from tools.metric_format import format_value

LIMIT = 20


def list_runs(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.args and inv.args != ["mine"]:
        raise UsageError(f"unexpected '{' '.join(inv.args)}'", hint="usage: runs [mine]")
    member = inv.caller.name if inv.args == ["mine"] else None
    with ctx.sessions()() as session:
        runs = recent_runs(session, limit=LIMIT, member=member)
    rows = [
        [
            f"#{r.id}",
            f"{r.created_at:%Y-%m-%d %H:%M}",
            r.member.name,
            r.challenge,
            r.subject,
            "ok" if r.ok else "failed",
            ", ".join(f"{k}={format_value(v)}" for k, v in sorted(r.metrics.items())),
            r.status,
        ]
        for r in runs
    ]
    return Reply(
        text=f"{len(rows)} most recent run(s)" + (f" by {member}" if member else ""),
        tables=[
            Table(
                headers=["run", "when (UTC)", "member", "challenge", "method", "result", "metrics", "status"],
                rows=rows,
            )
        ],
        data={
            "ok": True,
            "runs": [
                {
                    "id": r.id,
                    "challenge": r.challenge,
                    "subject": r.subject,
                    "member": r.member.name,
                    "ok": r.ok,
                    "metrics": r.metrics,
                }
                for r in runs
            ],
        },
    )
