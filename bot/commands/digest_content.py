"""Build the weekly digest Reply (text, leaderboard tables, the activity chart and a record-progression chart for
each of the :data:`MAX_BOARD_CHARTS` most active boards of the week) from the stored runs and tool settings.

Shared by ``/digest`` (preview, post now) and the scheduled job (bot/telegram_app/digest_job.py). Which
challenges appear and which metric ranks them come from the tool settings (``challenges.enabled``,
``metric.primary.<challenge>``), less the challenges the group has retired; the sprint-log link from
``sprint_log.sink`` / ``sprint_log.document_id``.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from datetime import datetime, timedelta

from bot.commands.base import OutFile, Reply, Table
from bot.context import AppContext
from engine.challenges import retired_name
from tools.config.store import ToolConfig
from tools.digest import ChallengeWeek, render_digest
from tools.digest_chart import activity_chart_png
from tools.digest_schedule import DigestSchedule, week_of
from tools.digest_week import gather_week
from tools.published.follow import falls_between, fell_lines
from tools.records_chart import progression_chart_png
from tools.sprint_log.markdown_sink import SPRINT_LOG_FILE

WEEK = timedelta(days=7)
MAX_BOARD_CHARTS = 3
"""Boards whose record progression the digest draws: those with the most scored results during the week (ties in
the digest's board order); a quiet board gets none, so a busy week posts at most four photos."""
MESSAGE_BUDGET = 3600
"""Characters of one chat message the digest may fill, as Telegram counts them after HTML escaping (the limit is
4096; the rest is margin for a table laid out as cards)."""


def schedule_of(config: ToolConfig) -> DigestSchedule:
    """The digest schedule as the tool settings say now."""
    return DigestSchedule(config.get("digest.day"), config.get("digest.time"), config.get("digest.timezone"))


def sprint_log_link(config: ToolConfig) -> str:
    """Where members read the sprint log: the Google Doc's link when the sink is Docs, otherwise the log's name —
    never the server's file path (the digest is posted into the group)."""
    document_id = config.get("sprint_log.document_id")
    if config.get("sprint_log.sink") == "gdocs" and document_id:
        return f"https://docs.google.com/document/d/{document_id}/edit"
    return f"{SPRINT_LOG_FILE}, the Markdown log the bot keeps (/log adds to it)"


def digest_reply(ctx: AppContext, *, end: datetime) -> Reply:
    """The digest of the week ending at ``end`` (aware): the 7 days before it."""
    config = ctx.tool_config()
    schedule = schedule_of(config)
    week = week_of(end, schedule.zone)
    enabled = [name for name in config.get("challenges.enabled") if not retired_name(name)]  # today's work only
    scope = [(name, config.get(f"metric.primary.{name}")) for name in enabled]
    with ctx.sessions()() as session:
        data = gather_week(
            session,
            week=week,
            start=end - WEEK,
            end=end,
            challenges=scope,
            sprint_log=sprint_log_link(config),
        )
        falls = falls_between(session, end - WEEK, end)
    digest = render_digest(data)
    moved = fell_lines(falls)
    chart = activity_chart_png(data.runs, week=week)
    charted = busiest_boards(data.challenges)
    return Reply(
        text=digest.text + (f"\n\n{moved}" if moved else ""),
        tables=[Table(headers=t.headers, rows=t.rows, title=t.title) for t in digest.tables],
        files=[
            OutFile(name=f"digest-{week}.png", content=chart, mime="image/png"),
            *(board_chart(board, week) for board in charted),
        ],
        data={
            "ok": True,
            "week": week,
            "start": data.start.isoformat(),
            "end": data.end.isoformat(),
            "runs": len(data.runs),
            "records": [
                {
                    "challenge": c.challenge,
                    "run": r.record.run_id,
                    "member": r.record.member,
                    "value": r.record.value,
                    "beat_run": r.previous.run_id if r.previous else None,
                    "beat_member": r.previous.member if r.previous else None,
                    "improvement": r.improvement,
                }
                for c in data.challenges
                for r in c.records
            ],
            "charts": [board.challenge for board in charted],
            "published_fell": [f.line() for f in falls],
            "sprints": [{"title": sp.title, "tldr": sp.tldr, "ended": sp.ended} for sp in data.sprints],
            "notes": sum(e.kind == "note" for e in data.entries),
            "ideas": sum(e.kind == "idea" for e in data.entries),
            "verdicts": dict(Counter(e.verdict for e in data.entries if e.verdict)),
        },
    )


def busiest_boards(boards: list[ChallengeWeek], limit: int = MAX_BOARD_CHARTS) -> list[ChallengeWeek]:
    """The ``limit`` boards with the most scored results this week (none for a board without any), busiest first."""
    active = [b for b in boards if b.active > 0]
    return sorted(active, key=lambda b: -b.active)[:limit]  # a stable sort: ties keep the digest's order


def board_chart(board: ChallengeWeek, week: str) -> OutFile:
    """The board's record progression up to the week's end (tools/records_chart.py), as ``/records`` draws it."""
    png = progression_chart_png(board.history, challenge=board.challenge, metric=board.metric, board=board.challenge)
    stem = re.sub(r"[^A-Za-z0-9=_]+", "-", board.challenge).strip("-")
    return OutFile(name=f"digest-{week}-records-{stem}.png", content=png, mime="image/png")


def _escaped(text: str) -> int:
    return len(html.escape(text, quote=False))


def _table_size(table: Table) -> int:
    """A generous estimate of a table's size in the chat (padded grid or cards, escaped)."""
    cells = [table.title or "", *table.headers, *(cell for row in table.rows for cell in row)]
    widest = max((len(c) for c in cells), default=0)
    return sum(_escaped(c) + 8 for c in cells) + widest * (len(table.rows) + 2) // 2 + 32


def _pieces(text: str) -> list[str]:
    """``text`` cut at its blank lines (sections), and any section over the budget at its lines."""
    out: list[str] = []
    for section in text.split("\n\n"):
        if _escaped(section) <= MESSAGE_BUDGET:
            out.append(section)
            continue
        chunk: list[str] = []
        for line in section.split("\n"):
            line = line if _escaped(line) <= MESSAGE_BUDGET else line[: MESSAGE_BUDGET // 5] + " …"
            if chunk and _escaped("\n".join([*chunk, line])) > MESSAGE_BUDGET:
                out.append("\n".join(chunk))
                chunk = []
            chunk.append(line)
        if chunk:
            out.append("\n".join(chunk))
    return out


def digest_messages(reply: Reply) -> list[Reply]:
    """The digest as chat messages that each fit Telegram's limit: its sections in order, cut only between
    sections (or, for one very long section, between its lines), then its leaderboard tables; the chart goes
    with the first message. A digest that fits is one message, unchanged."""
    parts: list[Reply] = [Reply(text="", files=list(reply.files), data=reply.data)]
    used = 0
    for piece in _pieces(reply.text):
        size = _escaped(piece) + 2
        if parts[-1].text and used + size > MESSAGE_BUDGET:
            parts.append(Reply(text=f"(digest, continued)\n\n{piece}"))
            used = size + 24
            continue
        parts[-1].text = f"{parts[-1].text}\n\n{piece}" if parts[-1].text else piece
        used += size
    for table in reply.tables:
        size = _table_size(table) + 2
        if used + size > MESSAGE_BUDGET:
            parts.append(Reply(text="(digest, continued)"))
            used = 24
        parts[-1].tables.append(table)
        used += size
    return parts
