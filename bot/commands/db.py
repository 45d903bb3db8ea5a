"""``db move --to URL``: move every row of the configured database into another one (SQLite → PostgreSQL when the
group outgrows the embedded default, or back), verified table by table. Terminal only, admins only.

The source is the database the settings name (``SUTRO_DATABASE_URL``, else SQLite in the data directory). Stop the
bot and its workers first; afterwards point ``SUTRO_DATABASE_URL`` at the target and start them again.
"""

from __future__ import annotations

from bot.commands import usage_of
from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.core.db_move import move_configured_database
from bot.core.store import redact

USAGE = usage_of("db")


def database(ctx: AppContext, inv: Invocation) -> Reply:
    if inv.args != ["move"]:
        raise UsageError(
            f"unknown db action {' '.join(inv.args) or '(none)'}",
            hint=f"usage: db {USAGE}, e.g. db move --to postgresql+psycopg://sutro:…@host/sutro",
        )
    to = inv.options.get("to", "").strip()
    if not to:
        raise UsageError("db move needs the target database", hint=f"usage: db {USAGE}")
    try:
        report = move_configured_database(
            ctx.settings.database_url,
            ctx.settings.data_dir,
            to,
            replace="force" in inv.flags,
            resume="resume" in inv.flags,
            progress=inv.progress,
        )
    except KeyboardInterrupt:  # Ctrl-C: the batches copied so far are committed, the rest can follow
        text = (
            f"db move to {redact(to)} was interrupted; the rows copied so far are kept — "
            f"run `sutro db move --to URL --resume` with the same URL to copy the rest"
        )
        return Reply(text=text, ok=False, data={"ok": False, "interrupted": True, "target": redact(to)})
    rows = [
        [t.table, str(t.source.rows), str(t.target.rows), str(t.copied), "yes" if t.matches else "NO"]
        for t in report.tables
    ]
    where = redact(to)
    if report.verified:
        text = (
            f"moved {report.rows} rows in {len(report.tables)} tables to {where}; counts and checksums match — "
            f"set SUTRO_DATABASE_URL to it and start the bot and workers"
        )
    else:
        bad = ", ".join(t.table for t in report.tables if not t.matches)
        text = (
            f"moved to {where}, but these tables differ from the source: {bad} — "
            "was something writing to either database? Stop it and run db move --force"
        )
    return Reply(
        text=text,
        ok=report.verified,
        tables=[Table(headers=["table", "source rows", "target rows", "copied now", "checksum match"], rows=rows)],
        data={
            "ok": report.verified,
            "target": where,
            "tables": {
                t.table: {"rows": t.source.rows, "copied": t.copied, "kept": t.kept, "matches": t.matches}
                for t in report.tables
            },
            "sequences_reset": report.sequences_reset,
        },
    )
