"""``epoch [rotate|resume]``: the judge epoch whose fixed secret suite judges ``solve()`` submissions
(bot/core/epochs.py); ``rotate`` (admins) starts a new one and re-judges every submission board entry, up to the
admins' budget, reporting what moved; ``resume`` (admins) goes on with a rotation that stopped or ran out of budget."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.core.epoch_rotation import Rotation, pending_entries, resume_rotation, rotate_epoch
from bot.core.epochs import the_current_epoch
from tools.metric_format import format_relative_change, format_value

USAGE = usage_of("epoch")


def epoch(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.options or len(inv.args) > 1 or (inv.args and inv.args[0] not in ("rotate", "resume")):
        raise UsageError(f"unexpected '{' '.join([*inv.args, *inv.options])}'", hint=f"usage: epoch {USAGE}")
    if not inv.args:
        current = the_current_epoch(ctx)
        text = (
            f"judge epoch {current.number}, started {current.started_at:%Y-%m-%d %H:%M} UTC by {current.started_by}:"
            " every solve() is judged on its fixed secret suite (identical code, one figure)"
        )
        waiting, planned = pending_entries(ctx)
        if waiting:
            text += (
                f"; its rotation has {waiting} of {planned} board entries still to re-judge"
                " (an admin continues with: epoch resume)"
            )
        return Reply(
            text=text,
            data={
                "ok": True,
                "epoch": current.number,
                "started_at": current.started_at.isoformat(),
                "pending": waiting,
                "planned": planned,
            },
        )
    if not inv.caller.is_admin:
        what = "start a new judge epoch" if inv.args[0] == "rotate" else "resume a judge epoch's re-judging"
        raise UsageError(f"only an admin can {what}", hint="ask an admin (epoch shows the current one)")
    if inv.args[0] == "resume":
        return rotation_reply(resume_rotation(ctx, progress=inv.progress))
    return rotation_reply(rotate_epoch(ctx, by=inv.caller.name, progress=inv.progress))


def _moved(old: float, new: float | None) -> str:
    if new is None:
        return "failed"
    return format_relative_change(new, old) or "±0 %"


def rotation_reply(rotation: Rotation) -> Reply:
    """What the new epoch moved: per entry re-judged so far its figure and rank before and after, and how many
    entries still wait for ``epoch resume``."""
    if rotation.resumed:
        head = f"judge epoch {rotation.epoch.number}: re-judging resumed"
    else:
        head = f"judge epoch {rotation.epoch.number} started" + (
            f" (was {rotation.previous})" if rotation.previous is not None else ""
        )
    moved = [r for r in rotation.rejudged if r.new_rank != r.old_rank or r.new_value != r.old_value]
    text = (
        f"{head}; re-judged {len(rotation.rejudged)} of {rotation.total} board entries on {rotation.metric}"
        f" ({rotation.this_call} now), {len(moved)} moved"
    )
    if rotation.skipped:
        text += "; not re-judged (no stored code): " + ", ".join(f"#{i}" for i in rotation.skipped)
    if any(r.failure for r in rotation.rejudged):
        text += f"; failed now: {', '.join(r.label for r in rotation.rejudged if r.failure)}"
    if rotation.pending:
        text += (
            f"; {rotation.pending} still to re-judge (budget {rotation.budget} a call, epoch.rejudge_budget):"
            " continue with: epoch resume"
        )
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
        text=text,
        tables=[Table(headers=headers, rows=rows, title=f"entries re-judged on epoch {rotation.epoch.number}")]
        if rows
        else [],
        data={
            "ok": True,
            "epoch": rotation.epoch.number,
            "previous": rotation.previous,
            "metric": rotation.metric,
            "rejudged": [r.__dict__ for r in rotation.rejudged],
            "skipped": list(rotation.skipped),
            "pending": rotation.pending,
            "total": rotation.total,
            "this_call": rotation.this_call,
            "budget": rotation.budget,
        },
    )
