"""Read the group's challenge repository into a :class:`Snapshot`: every problem's record tables in the group's own
row order, each linked program re-scored, the retired tiers from the legacy pages; and what fell between two syncs.

Where the records are: each problem folder's ``README.md`` (current boards) and ``legacy.md`` (retired tiers: a board
whose table is on a legacy page and not on a README is retired, since the date the legacy page last changed). Which
board a table feeds is a rule on the folder and heading, with exceptions in ``boards.toml`` (see there), so a new
table, band or retirement in the group's repository needs no release of this product.

A record's status comes from re-scoring its program (:mod:`tools.published.rescore`), once per distinct program;
the published cost is kept as published whatever we find (a mismatch shows both).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from tools.published.joins import board_entries, board_label
from tools.published.rescore import Rescore
from tools.published.snapshot import (
    MISMATCH,
    MISSING,
    REJECTED,
    UNLINKED,
    UNSCORED,
    VERIFIED,
    Retirement,
    Snapshot,
    SyncedRecord,
    standing_records,
)
from tools.published.source import GitTree, SyncSourceError
from tools.published.tables import RecordTable, TableRow, read_tables
from tools.run_request import code_hash

PAGE = re.compile(r"(?P<problem>[^/]+)/(?P<kind>README|legacy)\.md")

Rescorer = Callable[[str, str], Rescore | None]
"""(challenge, program text) -> what our engine makes of it; None when the board is not one we score."""


@functools.cache
def _aliases() -> dict[tuple[str, str], str]:
    return {(b["problem"], b["heading"]): b["challenge"] for b in board_entries()}


def board_name(page: str, heading: str) -> str:
    """Our board for the table under ``heading`` on ``page`` (``boards.toml``, else the folder + heading rule)."""
    folder = page.split("/", 1)[0]
    alias = _aliases().get((folder, heading))
    if alias is not None:
        return alias
    problem = folder.replace("-", "_").lower()
    name = re.sub(r"record history", "", heading, flags=re.IGNORECASE).replace("×", "x").lower()
    slug = re.sub(r"[^a-z0-9]+", "_", name).strip("_")
    return f"{problem}_{slug}" if slug else problem


def _leaderboard_order(rows: tuple[TableRow, ...]) -> bool:
    """Whether a table lists its best row first (a ranking) rather than in the order records were accepted: its
    first row is its cheapest and its last is not."""
    costs = [r.cost for r in rows]
    return len(costs) > 1 and costs[0] == min(costs) and costs[-1] != min(costs)


@dataclass(frozen=True)
class _Board:
    challenge: str
    page: str
    rows: tuple[TableRow, ...]


def _boards(tree: GitTree, pages: list[str], bad: list[str]) -> tuple[list[_Board], list[_Board]]:
    """The current boards (READMEs) and the legacy ones, each in page order; a board's rows in acceptance order."""
    current: list[_Board] = []
    legacy: list[_Board] = []
    for page in pages:
        raw = tree.read(page)
        if raw is None:
            continue
        found = read_tables(page, raw.decode("utf-8", "replace"))
        bad.extend(str(b) for b in found.bad_rows)
        target = legacy if page.endswith("/legacy.md") else current
        for table in found.tables:
            _add(target, table)
    return current, legacy


def _add(boards: list[_Board], table: RecordTable) -> None:
    rows = tuple(reversed(table.rows)) if _leaderboard_order(table.rows) else table.rows
    challenge = board_name(table.page, table.heading)
    for i, board in enumerate(boards):
        if board.challenge == challenge:  # a second table for the same board continues it
            boards[i] = _Board(challenge, board.page, board.rows + rows)
            return
    boards.append(_Board(challenge, table.page, rows))


def read_snapshot(tree: GitTree, *, source: str, rescore: Rescorer, link_base: str = "") -> Snapshot:
    """Everything the repository at ``tree`` publishes; raises :class:`SyncSourceError` when it has no record
    tables at all (nothing is then stored)."""
    files = tree.files()
    pages = sorted((p for p in files if PAGE.fullmatch(p)), key=lambda p: (p.endswith("/legacy.md"), p))
    bad: list[str] = []
    current, legacy = _boards(tree, pages, bad)
    if not current and not legacy:
        looked = ", ".join(pages) if pages else "no problem folder has a README.md"
        raise SyncSourceError(f"{source} at {tree.commit[:7]} has no record tables (looked in: {looked})")
    current_names = {b.challenge for b in current}
    retired_boards = [b for b in legacy if b.challenge not in current_names]
    retired = tuple(
        Retirement(challenge=b.challenge, since=tree.last_change(b.page), page=b.page) for b in retired_boards
    )
    present = set(files)
    scored: dict[tuple[str, str], Rescore | None] = {}
    records: list[SyncedRecord] = []
    for board in [*current, *retired_boards]:
        for position, row in enumerate(board.rows):
            records.append(_record(tree, board, position, row, present, rescore, scored))
    return Snapshot(
        source=source,
        commit=tree.commit,
        commit_date=tree.commit_date,
        records=tuple(records),
        retired=retired,
        bad_rows=tuple(bad),
        boards=tuple(b.challenge for b in [*current, *retired_boards]),
        link_base=link_base,
    )


def _record(
    tree: GitTree,
    board: _Board,
    position: int,
    row: TableRow,
    present: set[str],
    rescore: Rescorer,
    scored: dict[tuple[str, str], Rescore | None],
) -> SyncedRecord:
    base = SyncedRecord(
        challenge=board.challenge,
        position=position,
        date=row.date,
        cost=row.cost,
        authors=row.authors,
        description=row.description,
        page=board.page,
        path="",
        content_hash=None,
        status=UNLINKED,
        note="the row links no program",
    )
    if row.program is None:
        return base
    path = posixpath.normpath(posixpath.join(posixpath.dirname(board.page), row.program))
    raw = tree.read(path) if path in present else None
    if raw is None:
        return replace(base, path=path, status=MISSING, note=f"{path} is not in the tree at the synced commit")
    text = raw.decode("utf-8", "replace")
    digest = code_hash(text, python=False)
    key = (board.challenge, digest)
    if key not in scored:
        scored[key] = rescore(board.challenge, text)
    found = scored[key]
    if found is None:
        return replace(
            base, path=path, content_hash=digest, status=UNSCORED, note="a board this product does not score"
        )
    if found.cost is not None and found.cost != row.cost:
        status, note = MISMATCH, f"published {row.cost:,}, ours {found.cost:,}"
        if not found.ok:
            note += f"; {found.note}"
    elif not found.ok:
        status, note = REJECTED, found.note
    else:
        status, note = VERIFIED, ""
    return replace(
        base, path=path, content_hash=digest, status=status, our_cost=found.cost, rules=found.rules, note=note
    )


@dataclass(frozen=True)
class Fall:
    """A board whose record fell between two syncs: the record before and the one now (group's order)."""

    challenge: str
    before: SyncedRecord
    after: SyncedRecord

    def line(self) -> str:
        """One line, e.g. ``matmul_16x16: 63,350 → 63,290, @jurajselep, 2026-09-18`` (a joined board by its
        challenge and instance: ``mask_sparse_parity band=40: …``)."""
        a = self.after
        return f"{board_label(self.challenge)}: {self.before.cost:,} → {a.cost:,}, {a.author}, {a.date.isoformat()}"


def current_record(snapshot: Snapshot, challenge: str) -> SyncedRecord | None:
    """The standing record of a board: the last row that was cheaper than every row above it."""
    standing = standing_records(snapshot.of(challenge))
    return standing[-1] if standing else None


def fallen(before: Snapshot | None, after: Snapshot) -> list[Fall]:
    """Boards whose record is lower in ``after`` than in ``before`` (none without an earlier sync; retired boards
    are frozen and never listed)."""
    if before is None:
        return []
    falls = []
    for challenge in after.boards:
        if after.retirement(challenge) is not None:
            continue
        old, new = current_record(before, challenge), current_record(after, challenge)
        if old is not None and new is not None and new.cost < old.cost:
            falls.append(Fall(challenge, old, new))
    return falls
