"""``epoch [rotate]``: the judge epoch whose fixed secret suite judges ``solve()`` submissions (bot/core/epochs.py);
``rotate`` (admins) starts a new one and re-judges each submission board's leaders, reporting what moved."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.core.epoch_rotation import Rotation, rotate_epoch
from bot.core.epochs import the_current_epoch
from tools.metric_format import format_relative_change, format_value

USAGE = usage_of("epoch")


def epoch(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.options or len(inv.args) > 1 or (inv.args and inv.args[0] != "rotate"):
        raise UsageError(f"unexpected '{' '.join([*inv.args, *inv.options])}'", hint=f"usage: epoch {USAGE}")
    if not inv.args:
        current = the_current_epoch(ctx)
        text = (
            f"judge epoch {current.number}, started {current.started_at:%Y-%m-%d %H:%M} UTC by {current.started_by}:"
            " every solve() is judged on its fixed secret suite (identical code, one figure)"
        )
        return Reply(
            text=text,
            data={"ok": True, "epoch": current.number, "started_at": current.started_at.isoformat()},
        )
    if not inv.caller.is_admin:
        raise UsageError("only an admin can start a new judge epoch", hint="ask an admin (epoch shows the current one)")
    return rotation_reply(rotate_epoch(ctx, by=inv.caller.name, progress=inv.progress))


def _moved(old: float, new: float | None) -> str:
    if new is None:
        return "failed"
    return format_relative_change(new, old) or "±0 %"


def rotation_reply(rotation: Rotation) -> Reply:
    """What the new epoch moved: per re-judged leader its figure and rank before and after."""
    head = f"judge epoch {rotation.epoch.number} started" + (
        f" (was {rotation.previous})" if rotation.previous is not None else ""
    )
    moved = [r for r in rotation.rejudged if r.new_rank != r.old_rank or r.new_value != r.old_value]
    text = f"{head}; re-judged {len(rotation.rejudged)} leader(s) on {rotation.metric}, {len(moved)} moved"
    if rotation.skipped:
        text += "; not re-judged (no stored code): " + ", ".join(f"#{i}" for i in rotation.skipped)
    rows = [
        [
            r.board,
            r.member,
            r.label,
            f"#{r.old_run} → #{r.new_run}",
            f"{format_value(r.old_value)} → {format_value(r.new_value)} ({_moved(r.old_value, r.new_value)})",
            f"{r.old_rank} → {r.new_rank if r.new_rank is not None else '—'}",
        ]
        for r in rotation.rejudged
    ]
    headers = ["board", "member", "label", "run", rotation.metric, "rank"]
    return Reply(
        text=text
        + (
            f"; failed now: {', '.join(r.label for r in rotation.rejudged if r.failure)}"
            if any(r.failure for r in rotation.rejudged)
            else ""
        ),
        tables=[Table(headers=headers, rows=rows, title=f"leaders re-judged on epoch {rotation.epoch.number}")]
        if rows
        else [],
        data={
            "ok": True,
            "epoch": rotation.epoch.number,
            "previous": rotation.previous,
            "metric": rotation.metric,
            "rejudged": [r.__dict__ for r in rotation.rejudged],
            "skipped": list(rotation.skipped),
        },
    )
