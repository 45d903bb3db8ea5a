"""``records sync [SOURCE] [--snapshot PATH] [--links URL]``: read the group's challenge repository (default: the
public sutro-problems repository over HTTPS with git; a local checkout or another URL too), re-score every linked
program and store the result as the product's picture of the group's records; the reply says what fell since the
previous picture, which tiers are retired, which programs did not match their published cost and which table rows
could not be read.

Admins only (in the chat; the terminal user is one). From the chat the source must be a URL: a path names a folder
on the bot's machine. ``--snapshot PATH`` (terminal) also writes the snapshot file the product ships
(tools/published/snapshot.json); ``--links URL`` sets where its links point (a mirror's own address otherwise);
``--as-source URL@COMMIT`` (terminal) records the repository and commit the facts come from when SOURCE is a copy
assembled from the group's files (how the shipped snapshot is built: tests/data/published/PROVENANCE.md).
"""

from __future__ import annotations

from pathlib import Path

from bot.commands.base import Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.invocation import LOCAL_CALLER
from tools.published.follow import SpcOutcome, SyncOutcome, sync_published
from tools.published.snapshot import MISMATCH, REJECTED, STATUS_WORDS
from tools.published.source import DEFAULT_SOURCE, RecordedAs, is_url, recorded_as

USAGE = "records sync [SOURCE] [--snapshot PATH] [--links URL] [--as-source URL@COMMIT]"


def sync_records(ctx: AppContext, inv: Invocation) -> Reply:
    args = inv.args[1:]
    if len(args) > 1:
        raise UsageError(f"unexpected '{args[1]}'", hint=f"usage: {USAGE}")
    if not inv.caller.is_admin:
        raise UsageError("only admins can sync the group's records", hint="/records shows them as last synced")
    source = args[0] if args else DEFAULT_SOURCE
    local = inv.caller == LOCAL_CALLER
    if not local and not is_url(source):
        raise UsageError(f"'{source}' is not a URL", hint="from the chat, sync from a repository's https address")
    snapshot_path = inv.options.get("snapshot")
    if snapshot_path is not None and not local:
        raise UsageError("--snapshot writes a file on this machine", hint="use it from the terminal")
    recorded = _recorded(inv.options.get("as_source"), local=local)
    with ctx.sessions()() as session:
        outcome = sync_published(
            session,
            source,
            link_base=inv.options.get("links", ""),
            write_to=None if snapshot_path is None else Path(snapshot_path),
            recorded=recorded,
        )
    if isinstance(outcome, SpcOutcome):
        return spc_reply(outcome, snapshot_path)
    return sync_reply(outcome, snapshot_path)


def _recorded(text: str | None, *, local: bool) -> RecordedAs | None:
    """The ``--as-source URL@COMMIT`` option read (terminal only: it names where a local copy's facts come from)."""
    if text is None:
        return None
    if not local:
        raise UsageError("--as-source names where a local copy's records come from", hint="use it from the terminal")
    try:
        return recorded_as(text)
    except ValueError as error:
        raise UsageError(
            str(error), hint="e.g. --as-source https://github.com/cybertronai/sutro-problems@<40-hex commit>"
        ) from error


def spc_reply(outcome: SpcOutcome, snapshot_path: str | None = None) -> Reply:
    """The sparse-parity-challenge board as synced: its size, its best entry, the rows not understood."""
    board = outcome.board
    ranked = board.ranked()
    lines = [
        f"synced the sparse-parity-challenge board from {board.source} at {board.commit[:7]}: {len(ranked)} entries"
        + (f", best {ranked[0].method} by {ranked[0].author} (DMC {ranked[0].dmc:,.0f})" if ranked else "")
    ]
    if board.bad_rows:
        lines.append(f"{len(board.bad_rows)} table row(s) not understood (kept out, their neighbours read):")
        lines.extend(f"  {bad}" for bad in board.bad_rows)
    if snapshot_path is not None:
        lines.append(f"wrote the board to {snapshot_path}")
    return Reply(
        text="\n".join(lines),
        tables=[
            Table(
                headers=["rank", "method", "author", "DMC", "date"],
                rows=[
                    [str(i), e.method, e.author, f"{e.dmc:,.0f}", e.date.isoformat() if e.date else "—"]
                    for i, e in enumerate(ranked, 1)
                ],
                title="sparse-parity-challenge · solve() · DMC",
            )
        ],
        data={
            "ok": True,
            "board": "spc",
            "source": board.source,
            "commit": board.commit,
            "entries": [
                {"method": e.method, "author": e.author, "dmc": e.dmc, "date": e.date.isoformat() if e.date else None}
                for e in ranked
            ],
            "bad_rows": list(board.bad_rows),
        },
    )


def summary_line(outcome: SyncOutcome) -> str:
    """The first line: source, commit, date, and records per status in words (``… 82 records on 12 boards — 52
    verified; 26 published, not re-scored here; 4 unlinked``)."""
    snap = outcome.snapshot
    counts = "; ".join(f"{n} {STATUS_WORDS[status]}" for status, n in outcome.status_counts().items() if n)
    return (
        f"synced the group's records from {snap.source} at {snap.commit[:7]} ({snap.commit_date.isoformat()}): "
        f"{len(snap.records)} records on {len(snap.boards)} boards — {counts}"
    )


def sync_reply(outcome: SyncOutcome, snapshot_path: str | None = None) -> Reply:
    snap = outcome.snapshot
    lines = [summary_line(outcome)]
    if outcome.falls:
        lines.append(f"fell since the previous picture ({outcome.previous_commit[:7]}):")
        lines.extend(f"  {fall.line()}" for fall in outcome.falls)
    else:
        lines.append(f"no record fell since the previous picture ({outcome.previous_commit[:7]})")
    if outcome.credited_back:
        lines.append(
            f"{outcome.credited_back} stored run(s) of a published program now credited to its published authors"
        )
    if snap.retired:
        lines.append(
            "retired: " + ", ".join(f"{r.challenge} (since {r.since.isoformat()}, {r.page})" for r in snap.retired)
        )
    if snap.bad_rows:
        lines.append(f"{len(snap.bad_rows)} table row(s) not understood (kept out, their neighbours read):")
        lines.extend(f"  {bad}" for bad in snap.bad_rows)
    if snapshot_path is not None:
        lines.append(f"wrote the snapshot to {snapshot_path}")
    flagged = [r for r in snap.records if r.status in (MISMATCH, REJECTED)]
    tables = (
        [
            Table(
                headers=["board", "published", "ours", "status", "program", "why"],
                rows=[
                    [
                        r.challenge,
                        f"{r.cost:,}",
                        "—" if r.our_cost is None else f"{r.our_cost:,}",
                        r.status,
                        r.path,
                        r.note,
                    ]
                    for r in flagged
                ],
                title="published programs we do not verify",
            )
        ]
        if flagged
        else []
    )
    return Reply(
        text="\n".join(lines),
        tables=tables,
        data={
            "ok": True,
            "source": snap.source,
            "commit": snap.commit,
            "commit_date": snap.commit_date.isoformat(),
            "statuses": outcome.status_counts(),
            "credited_back": outcome.credited_back,
            "boards": list(snap.boards),
            "fell": [
                {
                    "challenge": f.challenge,
                    "before": f.before.cost,
                    "after": f.after.cost,
                    "by": f.after.author,
                    "date": f.after.date.isoformat(),
                }
                for f in outcome.falls
            ],
            "retired": [{"challenge": r.challenge, "since": r.since.isoformat()} for r in snap.retired],
            "bad_rows": list(snap.bad_rows),
        },
    )
