"""``log TEXT``: add a note to the sprint log (saved first, then delivered to the configured sink)."""

from __future__ import annotations

from bot.commands.base import Command, Invocation, Reply, UsageError
from bot.context import AppContext

USAGE = "TEXT"


def add_note(ctx: AppContext, inv: Invocation) -> Reply:
    text = " ".join(inv.args).strip()
    if not text:
        raise UsageError("nothing to log", hint='usage: log "what you tried and what you saw"')
    title, _, body = text.partition("\n")
    log = ctx.sprint_log()
    appended = log.append_entry(author=inv.caller.name, kind="note", title=title[:200], body=body)
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


COMMAND = Command(
    name="log",
    summary="Add a note to the sprint log",
    usage=USAGE,
    handler=add_note,
    details="The note is stored first and then written to the sprint log (Markdown file or Google Doc). "
    "The text is kept as typed (key=value words included); a first line becomes the title, the rest the body.",
    free_text=True,
)
