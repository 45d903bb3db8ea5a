"""``log TEXT``: add a note to the sprint log (saved first, then delivered to the configured sink)."""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, UsageError
from bot.context import AppContext

USAGE = usage_of("log")


def add_note(ctx: AppContext, inv: Invocation) -> Reply:
    text = " ".join(inv.args).strip()
    if not text:
        raise UsageError("nothing to log", hint='usage: log "what you tried and what you saw"')
    title, _, body = text.partition("\n")
    log = ctx.sprint_log()
    appended = log.append_entry(author=inv.caller.name, kind="note", title=title[:200], body=body)
    report = appended.report
    if report.pending == 0:
        state = f"written to the {log.sink_name} sprint log"
    else:
        state = (
            f"saved; {report.pending} entr{'y' if report.pending == 1 else 'ies'} waiting for the {log.sink_name} "
            f"sprint log ({report.error or 'retry pending'}) — they are sent automatically when it is reachable"
        )
    return Reply(
        text=f"note {appended.entry.uid} {state}",
        data={
            "ok": True,
            "entry": appended.entry.id,
            "uid": appended.entry.uid,
            "pending": report.pending,
            "sink": log.sink_name,
        },
    )
