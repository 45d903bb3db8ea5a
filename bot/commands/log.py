"""``log TEXT``: add a note to the sprint log (saved first, then delivered to the configured sink).

``log retry ID`` / ``log drop ID`` (admins): deliver a parked entry again, or give up on it (``status`` lists them).
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, UsageError
from bot.context import AppContext
from bot.core.log_entry import log_note
from tools.sprint_log.log import NOTE_LIMIT, QUEUED_FOR_THE_BOT

USAGE = usage_of("log")


def _parked_action(ctx: AppContext, inv: Invocation) -> Reply | None:
    """``retry ID`` / ``drop ID`` (exactly two words), else None (the words are a note)."""
    if len(inv.args) != 2 or inv.args[0] not in ("retry", "drop") or not inv.args[1].lstrip("#").isdigit():
        return None
    action, entry_id = inv.args[0], int(inv.args[1].lstrip("#"))
    if not inv.caller.is_admin:
        raise UsageError(f"only admins can {action} parked sprint-log entries", hint="/status lists them")
    log = ctx.sprint_log()
    if action == "drop":
        log.drop(entry_id)
        return Reply(
            text=f"entry {entry_id} dropped; it stays in the database, not in the sprint log",
            data={"ok": True, "entry": entry_id, "state": "dropped"},
        )
    retried = log.retry(entry_id)
    if retried.state == "delivered":
        text = f"entry {entry_id} written to the {log.sink_name} sprint log"
    else:
        text = f"entry {entry_id} {retried.state}: {retried.problem or 'retry pending'}"
    return Reply(
        text=text,
        ok=retried.state != "parked",
        data={"ok": retried.state != "parked", "entry": entry_id, "state": retried.state},
    )


def add_note(ctx: AppContext, inv: Invocation) -> Reply:
    action = _parked_action(ctx, inv)
    if action is not None:
        return action
    text = " ".join(inv.args).strip()
    if not text:
        raise UsageError("nothing to log", hint='usage: log "what you tried and what you saw"')
    if len(text) > NOTE_LIMIT:  # checked on the whole text: the title below is cut to 200 characters
        raise UsageError(
            f"the note has {len(text):,} characters; a note holds at most {NOTE_LIMIT:,}",
            hint="split it into several notes",
        )
    title, _, body = text.partition("\n")
    log = ctx.sprint_log()
    appended = log_note(ctx, author=inv.caller.name, title=title[:200], body=body)
    report = appended.report
    number = appended.entry.id
    ok = True
    if appended.state == "delivered":
        state = f"note {number} written to the {log.sink_name} sprint log"
    elif appended.state == "parked":
        ok = False
        state = f"saved as entry {number}; parked, the {log.sink_name} sprint log refused it: {appended.problem}"
    elif report.needs_fix:
        ok = False
        state = f"saved as entry {number}; not delivered: {appended.problem}"
    elif appended.queued_for_bot:
        waiting = f"{report.pending} entr{'y' if report.pending == 1 else 'ies'}"
        state = f"saved as entry {number}; {waiting} waiting for the {log.sink_name} sprint log ({QUEUED_FOR_THE_BOT})"
    else:
        waiting = f"{report.pending} entr{'y' if report.pending == 1 else 'ies'}"
        state = (
            f"saved as entry {number}; {waiting} waiting for the {log.sink_name} sprint log "
            f"({appended.problem or 'retry pending'}) — they are sent automatically when it is reachable"
        )
    return Reply(
        text=state,
        ok=ok,
        data={
            "ok": ok,
            "entry": number,
            "uid": appended.entry.uid,
            "state": appended.state,
            "pending": report.pending,
            "parked": report.parked,
            "problem": appended.problem,
            "sink": log.sink_name,
        },
    )
