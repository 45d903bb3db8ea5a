"""The group's records as one sync read them: a typed document, its JSON form, and the record of each board — pure.

The same document is stored per sync (``storage.published``) and shipped with the product (``snapshot.json`` beside
this module, written by ``sutro records sync … --write-snapshot``), so a fresh install and a synced one read their
records the same way.

Statuses of a record (our re-scoring of the linked program against the published cost):

- ``verified``: our Dally cost equals the published one and the program passes the board's rules;
- ``mismatch``: our cost differs (both are shown; the published figure is never replaced by ours);
- ``rejected``: the program fails the board's rules as we judge them (the reason is kept);
- ``missing``: the row links a program that is not in the repository at the synced commit;
- ``unlinked``: the row links no program;
- ``unscored``: the board is not one this product scores (yet) — the row is kept as published.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

VERIFIED = "verified"
MISMATCH = "mismatch"
REJECTED = "rejected"
MISSING = "missing"
UNLINKED = "unlinked"
UNSCORED = "unscored"
STATUSES = (VERIFIED, MISMATCH, REJECTED, MISSING, UNLINKED, UNSCORED)

STATUS_WORDS = {
    VERIFIED: "verified",
    MISMATCH: "mismatch",
    REJECTED: "rejected",
    MISSING: "published, not re-scored here",
    UNLINKED: "unlinked",
    UNSCORED: "unscored",
}
"""How each status reads to a person. A ``missing`` row is no fault of the group's: its program was not in the
repository we synced from (the shipped snapshot's copy lacks some large programs), so it is shown as published and
not re-scored, never as an alarm; the machine-readable status (JSON) stays ``missing``."""

FORMAT = 1
"""Version of the JSON document; a reader refuses another one rather than guess."""


@dataclass(frozen=True)
class SyncedRecord:
    """One row of a published record table, with what our re-scoring found.

    position: the row's place in its table (0 = first); the group's order, which the record history follows.
    path: the program's path in the repository ("" when the row links none); content_hash: SHA-256 of the program's
    normalised text (:func:`tools.run_request.code_hash`), None when we hold no program; our_cost: our Dally cost
    of it (None when not scored); rules: the correctness rules it was judged under (``matmul-rules@2``; "" when not
    judged); note: why it was not verified, in one line.
    """

    challenge: str
    position: int
    date: date
    cost: int
    authors: tuple[str, ...]
    description: str
    page: str
    path: str
    content_hash: str | None
    status: str
    our_cost: int | None = None
    rules: str = ""
    note: str = ""

    @property
    def author(self) -> str:
        """The authors as one label ("@a, @b"; "unknown" when the row names none)."""
        return ", ".join(self.authors) or "unknown"


@dataclass(frozen=True)
class Retirement:
    """A tier the group retired to its legacy page: still scoreable, its board frozen, not offered as current."""

    challenge: str
    since: date
    page: str


@dataclass(frozen=True)
class Snapshot:
    """Everything one sync found: source (URL or path), commit (full hash), the commit's date, the records of every
    board in the group's order, the retired tiers and the table rows that could not be read (one line each)."""

    source: str
    commit: str
    commit_date: date
    records: tuple[SyncedRecord, ...]
    retired: tuple[Retirement, ...] = ()
    bad_rows: tuple[str, ...] = ()
    boards: tuple[str, ...] = field(default=())
    """The boards found, in the order the repository lists them (current first, then retired)."""
    link_base: str = ""
    """Where links to the rows' programs point (a folder URL); "" derives it from ``source`` and ``commit``."""

    def of(self, challenge: str) -> list[SyncedRecord]:
        """The rows of ``challenge`` in the group's order."""
        return sorted((r for r in self.records if r.challenge == challenge), key=lambda r: r.position)

    def retirement(self, challenge: str) -> Retirement | None:
        return next((r for r in self.retired if r.challenge == challenge), None)

    def url(self, record: SyncedRecord) -> str:
        """A link to the row's program (or its page) at the synced commit."""
        target = record.path or record.page
        if self.link_base:
            return f"{self.link_base.rstrip('/')}/{target}"
        base = self.source.removesuffix(".git").rstrip("/")
        if base.startswith("https://github.com/"):
            return f"{base}/blob/{self.commit[:7]}/{target}"
        return f"{base}@{self.commit[:7]}:{target}"

    def by_hash(self, challenge: str, content_hash: str) -> SyncedRecord | None:
        """The published row of ``challenge`` whose program has this content hash (the first in the group's
        order)."""
        return next((r for r in self.of(challenge) if r.content_hash == content_hash), None)


def standing_records(rows: list[SyncedRecord]) -> list[SyncedRecord]:
    """The rows that were records when accepted, in the group's order: each strictly cheaper than every row above
    it (an equal cost does not take the record)."""
    best: int | None = None
    out = []
    for row in rows:
        if best is None or row.cost < best:
            out.append(row)
            best = row.cost
    return out


def to_json(snapshot: Snapshot) -> dict[str, Any]:
    data = asdict(snapshot)
    data["format"] = FORMAT
    data["commit_date"] = snapshot.commit_date.isoformat()
    for row, record in zip(data["records"], snapshot.records, strict=True):
        row["date"] = record.date.isoformat()
        row["authors"] = list(record.authors)
    for row, retired in zip(data["retired"], snapshot.retired, strict=True):
        row["since"] = retired.since.isoformat()
    data["bad_rows"] = list(snapshot.bad_rows)
    data["boards"] = list(snapshot.boards)
    return data


def from_json(data: dict[str, Any]) -> Snapshot:
    """The document back (raises ValueError on another format or a malformed document)."""
    if data.get("format") != FORMAT:
        raise ValueError(f"published snapshot format {data.get('format')!r}, expected {FORMAT}")
    try:
        records = tuple(
            SyncedRecord(
                challenge=str(r["challenge"]),
                position=int(r["position"]),
                date=date.fromisoformat(r["date"]),
                cost=int(r["cost"]),
                authors=tuple(str(a) for a in r["authors"]),
                description=str(r["description"]),
                page=str(r["page"]),
                path=str(r["path"]),
                content_hash=None if r["content_hash"] is None else str(r["content_hash"]),
                status=str(r["status"]),
                our_cost=None if r["our_cost"] is None else int(r["our_cost"]),
                rules=str(r.get("rules", "")),
                note=str(r.get("note", "")),
            )
            for r in data["records"]
        )
        retired = tuple(
            Retirement(challenge=str(r["challenge"]), since=date.fromisoformat(r["since"]), page=str(r["page"]))
            for r in data["retired"]
        )
        return Snapshot(
            source=str(data["source"]),
            commit=str(data["commit"]),
            commit_date=date.fromisoformat(data["commit_date"]),
            records=records,
            retired=retired,
            bad_rows=tuple(str(b) for b in data["bad_rows"]),
            boards=tuple(str(b) for b in data.get("boards", ())),
            link_base=str(data.get("link_base", "")),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"malformed published snapshot: {error}") from error


def dumps(snapshot: Snapshot) -> str:
    """The shipped file's text: stable key order, one record per line block, a final newline."""
    return json.dumps(to_json(snapshot), indent=1, ensure_ascii=False) + "\n"
