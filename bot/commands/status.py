"""``status``: versions, then one row per part of the deployment for operators (database, sprint-log sink and
backlog, executor, sandbox tier, last records sync, next digest; each marked BROKEN when it is — status_parts.py),
the job queue depth and the digest's schedule.

Inside the bot it also says whether Telegram hands the bot every group message or, with BotFather's privacy mode
on, only commands and replies to it (``ctx.reads_group_messages``, from getMe).

The next digest is the bot's scheduled job when this runs inside the bot (``ctx.digest_next``); elsewhere (the
terminal) it is computed from the same schedule settings, and says whether a bot would post it (chat,
enabled).
"""

from __future__ import annotations

import platform
from datetime import UTC, datetime
from importlib.metadata import version

import numpy

from bot.commands.base import Invocation, Reply, Table
from bot.commands.digest_content import schedule_of
from bot.commands.status_parts import (
    PartStatus,
    database_part,
    executor_part,
    records_sync_part,
    sandbox_part,
    sink_parts,
)
from bot.context import AppContext
from bot.core.store_health import last_digest, outbox_state
from engine.sandbox import probe_tier
from engine.version import __version__


def _digest_rows(ctx: AppContext, data: dict[str, object]) -> tuple[list[list[str]], PartStatus]:
    """The digest rows, and the "next digest" part: broken when the bot runs with the digest switched on but
    nothing scheduled, or when the last digest failed."""
    config = ctx.tool_config()
    schedule = schedule_of(config)
    unscheduled = False
    if ctx.digest_next is not None:
        upcoming = ctx.digest_next()
        when = f"{upcoming:%a %Y-%m-%d %H:%M %Z}" if upcoming else "not scheduled (see digest.enabled, digest.chat_id)"
        unscheduled = (
            upcoming is None and bool(config.get("digest.enabled")) and config.get("digest.chat_id") is not None
        )
        data["next_digest"] = upcoming.isoformat() if upcoming else None
    elif not config.get("digest.enabled") or config.get("digest.chat_id") is None:
        when = "off (digest.enabled is false or digest.chat_id is none)"
        data["next_digest"] = None
    else:
        upcoming = schedule.next_slot(datetime.now(UTC))
        when = f"{upcoming:%a %Y-%m-%d %H:%M %Z} (when the bot runs)"
        data["next_digest"] = upcoming.isoformat()
    rows = [["digest schedule", schedule.describe()]]
    sessions = ctx.sessions()
    last = last_digest(sessions)
    outbox = outbox_state(sessions)
    failed = False
    if last is not None:
        rows.append(["last digest", f"{last.week} {last.state} ({last.reason})"])
        data["last_digest"] = {"week": last.week, "state": last.state}
        failed = last.stuck
    data["outbox_backlog"] = outbox.waiting  # the row is the "sprint-log backlog" part (status_parts.py)
    parked = outbox.parked
    rows.append(["sprint-log entries parked", f"{parked} (admins: /log retry ID or /log drop ID)" if parked else "0"])
    rows += [[f"parked #{e.entry}", f"{e.title[:40]}: {e.reason[:160]}"] for e in outbox.shown]
    data["outbox_parked"] = [{"entry": e.entry, "title": e.title, "reason": e.reason} for e in outbox.shown]
    return rows, PartStatus("next digest", when, unscheduled or failed)


PRIVACY_ON = (
    "commands and replies only: privacy mode is on, so pasted code and uncaptioned files reach the bot only where "
    "it is a group admin — reply /submit to such a message, or turn privacy off (@BotFather /setprivacy → Disable, "
    "then re-add the bot)"
)
PRIVACY_OFF = "all (privacy mode is off)"


def _privacy_rows(ctx: AppContext, data: dict[str, object]) -> list[list[str]]:
    """The "group messages" row: what Telegram lets the bot read in groups (none outside the bot)."""
    reads_all = ctx.reads_group_messages() if ctx.reads_group_messages is not None else None
    if reads_all is None:
        return []
    data["reads_all_group_messages"] = reads_all
    return [["group messages", PRIVACY_OFF if reads_all else PRIVACY_ON]]


def show_status(ctx: AppContext, inv: Invocation) -> Reply:
    tier = probe_tier()
    parts = [
        database_part(ctx),
        *sink_parts(ctx),
        executor_part(ctx),
        sandbox_part(tier),
        records_sync_part(ctx),
    ]
    rows = [
        ["sutro", __version__],
        ["python", platform.python_version()],
        ["numpy", numpy.__version__],
        ["python-telegram-bot", version("python-telegram-bot")],  # read from metadata: commands never import telegram
        *(part.row() for part in parts),
    ]
    data: dict[str, object] = {
        "version": __version__,
        "python": platform.python_version(),
        "sandbox_tier": tier.tier,
    }
    if ctx.jobs is not None:
        active = ctx.jobs.active()
        running = sum(j.state == "running" for j in active)
        rows.append(["jobs running", str(running)])
        rows.append(["jobs queued", str(len(active) - running)])
        data.update(jobs_running=running, jobs_queued=len(active) - running)
    else:
        rows.append(["job queue", "none (commands run directly)"])
    rows += _privacy_rows(ctx, data)
    digest_rows, digest_part = _digest_rows(ctx, data)
    rows += [digest_part.row(), *digest_rows]
    parts.append(digest_part)
    data["parts"] = [part.as_json() for part in parts]
    data["broken"] = [part.name for part in parts if part.broken]
    return Reply(text=f"sutro {__version__}", tables=[Table(headers=["what", "value"], rows=rows)], data=data)
