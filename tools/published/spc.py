"""The sparse-parity-challenge board (cybertronai/sparse-parity-challenge: the numpy ``solve()`` track) as the group
publishes it, and where a ``run solve=… --compat spc`` result would rank on it — pure.

The board is the Markdown table of the repository's ``README.md`` between ``<!-- LEADERBOARD_START -->`` and
``<!-- LEADERBOARD_END -->`` (any table with a ``DMC`` column otherwise), ranked by DMC, lower is better. Columns
are found by name (``Method``, ``Author``, ``DMC``, ``Date`` when there is one); a row that cannot be read is
reported in one line (page, line, why) and its neighbours are kept. ``records sync`` reads it the same way as the
challenge repository and stores it beside the records (its snapshot kind is :data:`KIND`); before any sync the
board shipped with the product (``spc_board.json`` beside this module, written by the same command) is used.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from datetime import date
from importlib import resources
from typing import Any

from tools.published.tables import BadRow

KIND = "spc"
FORMAT = 1
BOARD_FILE = "spc_board.json"
_HANDLE = re.compile(r"@[A-Za-z0-9][A-Za-z0-9_-]*")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)\)")
_NUMBER = re.compile(r"^\d{1,3}(,\d{3})+(\.\d+)?$|^\d+(\.\d+)?$")


@dataclass(frozen=True)
class SpcEntry:
    """One row of the board: method, author (GitHub handle), DMC (the board's data-movement cost of the solve()
    call, mean over its seeds) and the date where the board gives one."""

    method: str
    author: str
    dmc: float
    date: date | None = None


@dataclass(frozen=True)
class SpcBoard:
    source: str
    commit: str
    entries: tuple[SpcEntry, ...]
    bad_rows: tuple[str, ...] = ()

    def ranked(self) -> list[SpcEntry]:
        """Lowest DMC first; equal DMC keeps the board's order."""
        return sorted(self.entries, key=lambda e: e.dmc)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _plain(text: str) -> str:
    return _LINK.sub(lambda m: m.group(1), text).replace("`", "").strip()


def read_spc_board(page: str, text: str) -> tuple[list[SpcEntry], list[BadRow]]:
    """The board's rows (as published) and the rows that could not be read."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if "LEADERBOARD_START" in line), -1) + 1
    entries: list[SpcEntry] = []
    bad: list[BadRow] = []
    header: list[str] | None = None
    for n in range(start, len(lines)):
        line = lines[n]
        if "LEADERBOARD_END" in line:
            break
        if not line.strip().startswith("|"):
            if header is not None:
                break
            continue
        cells = _cells(line)
        if header is None:
            lowered = [c.lower() for c in cells]
            if "dmc" in lowered:
                header = lowered
            continue
        if all(re.fullmatch(r":?-+:?", c.replace(" ", "")) for c in cells):
            continue
        if len(cells) != len(header):
            bad.append(BadRow(page, n + 1, f"{len(cells)} cells where the header has {len(header)}"))
            continue
        row = dict(zip(header, cells, strict=True))
        raw = _plain(row["dmc"]).replace(" ", "")
        if not _NUMBER.match(raw):
            bad.append(BadRow(page, n + 1, f"DMC '{raw}' is not a number"))
            continue
        when: date | None = None
        if "date" in row:
            try:
                when = date.fromisoformat(_plain(row["date"]))
            except ValueError:
                bad.append(BadRow(page, n + 1, f"date '{_plain(row['date'])}' is not YYYY-MM-DD"))
                continue
        handles = _HANDLE.findall(_plain(row.get("author", "")))
        entries.append(
            SpcEntry(
                method=_plain(row.get("method", "")),
                author=", ".join(handles) or _plain(row.get("author", "")) or "unknown",
                dmc=float(raw.replace(",", "")),
                date=when,
            )
        )
    return entries, bad


def to_json(board: SpcBoard) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "kind": KIND,
        "source": board.source,
        "commit": board.commit,
        "entries": [
            {"method": e.method, "author": e.author, "dmc": e.dmc, "date": e.date.isoformat() if e.date else None}
            for e in board.entries
        ],
        "bad_rows": list(board.bad_rows),
    }


def from_json(data: dict[str, Any]) -> SpcBoard:
    if data.get("format") != FORMAT or data.get("kind") != KIND:
        raise ValueError("not a sparse-parity-challenge board document")
    return SpcBoard(
        source=str(data["source"]),
        commit=str(data["commit"]),
        entries=tuple(
            SpcEntry(
                method=str(e["method"]),
                author=str(e["author"]),
                dmc=float(e["dmc"]),
                date=None if e["date"] is None else date.fromisoformat(e["date"]),
            )
            for e in data["entries"]
        ),
        bad_rows=tuple(str(b) for b in data["bad_rows"]),
    )


@functools.cache
def shipped_spc_board() -> SpcBoard:
    text = resources.files(__package__).joinpath(BOARD_FILE).read_text(encoding="utf-8")
    return from_json(json.loads(text))


@dataclass(frozen=True)
class SpcStanding:
    """Where a DMC would rank: its rank (1 = best; an equal DMC ranks after the published one), out of the board's
    entries plus this one, the entry just ahead of it (None when it would be first) and the board's best."""

    rank: int
    of: int
    ahead: SpcEntry | None
    best: SpcEntry | None

    def line(self) -> str:
        where = f"would rank {self.rank} of {self.of} on the sparse-parity-challenge board"
        if self.ahead is None:
            if self.best is None:
                return f"{where} (the board is empty)"
            return f"{where}, ahead of {self.best.method} by {self.best.author} (DMC {self.best.dmc:,.0f})"
        return f"{where}, behind {self.ahead.method} by {self.ahead.author} (DMC {self.ahead.dmc:,.0f})"


def standing_on(board: SpcBoard, dmc: float) -> SpcStanding:
    """Where ``dmc`` would rank on ``board`` (lower is better)."""
    ranked = board.ranked()
    ahead = [e for e in ranked if e.dmc <= dmc]
    return SpcStanding(
        rank=len(ahead) + 1, of=len(ranked) + 1, ahead=ahead[-1] if ahead else None, best=ranked[0] if ranked else None
    )
