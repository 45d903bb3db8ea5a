"""``export``: the product's results in the group's own formats, as files (docs/explore.md#exports).

``sutro export journal [LOOP ...]`` writes /explore loops' steps (the newest loop when none is named), and
``sutro export journal BOARD`` a board's stored results, as JSON lines in the schema of SutroYaro's
``research/log.jsonl`` (:mod:`tools.research_log`). ``sutro export records BOARD [band=N]`` writes the board's record
history as the group's README table, the members' record programs beside it and their SHA-256 sums
(:mod:`tools.record_table`) — ready for a pull request to the group's repository.
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, OutFile, Reply, UsageError
from bot.context import AppContext
from bot.core.explore_journal import loop_list
from bot.core.exports import board_entries, journal_entries, record_rows
from engine.metrics import DALLY
from engine.scoring import ir_challenge
from tools.record_table import sha256sums, table
from tools.research_log import jsonl

USAGE = usage_of("export")


def export(ctx: AppContext, inv: Invocation) -> Reply:
    what, rest = (inv.args[0], inv.args[1:]) if inv.args else ("", [])
    if what == "journal":
        return _journal(ctx, rest)
    if what == "records":
        return _records(ctx, rest, inv.options.get("band"))
    raise UsageError("export what?", hint=f"usage: export {USAGE}")


def _journal(ctx: AppContext, rest: list[str]) -> Reply:
    if len(rest) == 1 and not rest[0].lstrip("#").isdigit():
        board = ir_challenge(rest[0]).name
        entries = board_entries(ctx, board, DALLY)
        name = f"journal-{board}.jsonl"
    else:
        if not all(r.lstrip("#").isdigit() for r in rest):
            raise UsageError("give loop numbers or one board", hint=f"usage: export {USAGE}")
        ids = [int(r.lstrip("#")) for r in rest] or [v.loop_id for v in loop_list(ctx, limit=1)]
        if not ids:
            raise UsageError("there are no explore loops yet", hint="start one: explore BOARD")
        entries = journal_entries(ctx, ids)
        name = "journal-explore-" + "-".join(map(str, ids)) + ".jsonl"
    text = jsonl(entries)
    reply = f"{len(entries)} research-log entries (SutroYaro research/log.jsonl schema) in {name}"
    return Reply(
        text=reply,
        files=[OutFile(name=name, content=text.encode(), mime="application/x-ndjson")],
        data={"ok": True, "entries": [e.as_dict() for e in entries]},
    )


def _records(ctx: AppContext, rest: list[str], band: str | None) -> Reply:
    if len(rest) != 1:
        raise UsageError("which board?", hint=f"usage: export {USAGE}")
    board = ir_challenge(rest[0]).name
    if band is not None and not band.isdigit():
        raise UsageError(f"band must be a whole percent, not '{band}'", hint="e.g. band=40")
    rows = record_rows(ctx, board, {} if band is None else {"band": int(band)})
    label = board + ("" if band is None else f" band={band}")
    if not rows:
        return Reply(text=f"{label} has no records yet", data={"ok": True, "rows": []})
    markdown = table(rows)
    files = [OutFile(name=f"records-{board}{'' if band is None else f'-band{band}'}.md", content=markdown.encode())]
    files += [OutFile(name=r.file_name, content=r.program.encode()) for r in rows if r.program is not None]
    sums = sha256sums(rows)
    if sums:
        files.append(OutFile(name="SHA256SUMS", content=sums.encode()))
    members = sum(r.program is not None for r in rows)
    text = (
        f"{label}: {len(rows)} records ({members} members' programs written beside the table, as "
        f"submissions/<file>, with SHA256SUMS)\n{markdown}"
    )
    return Reply(
        text=text,
        files=files,
        data={
            "ok": True,
            "rows": [
                {"date": r.date, "cost": r.cost, "contributors": list(r.contributors), "description": r.description}
                for r in rows
            ],
        },
    )
