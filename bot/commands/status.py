"""``status``: versions, sandbox tier, job queue depth, Docs outbox backlog, and the next weekly digest.

Inside the bot it also says whether Telegram hands the bot every group message or, with BotFather's privacy mode
on, only commands and replies to it (``ctx.reads_group_messages``, from getMe).

The next digest is the bot's scheduled job when this runs inside the bot (``ctx.digest_next``); elsewhere (the
terminal) it is computed from the same schedule settings, and says whether a bot would post it (chat,
enabled).
"""

from __future__ import annotations

import platform
from importlib.metadata import version

import numpy

from bot.commands.base import Invocation, Reply, Table
from bot.commands.digest_content import schedule_of
from bot.context import AppContext
from engine.sandbox import probe_tier
from engine.version import __version__
from storage.digests import latest_digest
from storage.outbox import backlog_size, parked_count, parked_entries
from storage.timestamps import utcnow


def _digest_rows(ctx: AppContext, data: dict[str, object]) -> list[list[str]]:
    config = ctx.tool_config()
    schedule = schedule_of(config)
    if ctx.digest_next is not None:
        upcoming = ctx.digest_next()
        when = f"{upcoming:%a %Y-%m-%d %H:%M %Z}" if upcoming else "not scheduled (see digest.enabled, digest.chat_id)"
        data["next_digest"] = upcoming.isoformat() if upcoming else None
    elif not config.get("digest.enabled") or config.get("digest.chat_id") is None:
        when = "off (digest.enabled is false or digest.chat_id is none)"
        data["next_digest"] = None
    else:
        upcoming = schedule.next_slot(utcnow())
        when = f"{upcoming:%a %Y-%m-%d %H:%M %Z} (when the bot runs)"
        data["next_digest"] = upcoming.isoformat()
    rows = [["next digest", when], ["digest schedule", schedule.describe()]]
    with ctx.sessions()() as session:
        last = latest_digest(session)
        backlog = backlog_size(session)
        parked = parked_count(session)
        shown = [(e.id, e.title, e.last_error or "") for e in parked_entries(session, limit=5)]
    if last is not None:
        rows.append(["last digest", f"{last.week} {last.state} ({last.reason})"])
        data["last_digest"] = {"week": last.week, "state": last.state}
    rows.append(["Docs outbox backlog", str(backlog)])
    data["outbox_backlog"] = backlog
    rows.append(["sprint-log entries parked", f"{parked} (admins: /log retry ID or /log drop ID)" if parked else "0"])
    rows += [[f"parked #{i}", f"{title[:40]}: {reason[:160]}"] for i, title, reason in shown]
    data["outbox_parked"] = [{"entry": i, "title": title, "reason": reason} for i, title, reason in shown]
    return rows


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
    rows = [
        ["sutro", __version__],
        ["python", platform.python_version()],
        ["numpy", numpy.__version__],
        ["python-telegram-bot", version("python-telegram-bot")],  # read from metadata: commands never import telegram
        ["sandbox tier", tier.description],
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
    rows += _digest_rows(ctx, data)
    return Reply(text=f"sutro {__version__}", tables=[Table(headers=["what", "value"], rows=rows)], data=data)
