"""Read the group's published record histories (records.toml beside this module, with its source) — pure.

Published entries take part in record histories and in "vs record" next to stored runs: each becomes a
:class:`storage.scores.ScoredRun` with ``run_id`` 0, its author as the member, ``published`` as its source link, on
the board of its IR challenge (track ``program``, the engine's Dally metric: the published costs are Dally IR costs,
and our engine reproduces them — tests/bot/test_published_records.py re-scores the programs we hold).
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from datetime import UTC, date, datetime
from importlib import resources

from engine.scoring.ir import METRIC as DALLY
from storage.scores import ScoredRun

PUBLISHED_MEMBER_SUFFIX = " (published)"


@dataclass(frozen=True)
class PublishedRecord:
    """One row of a published record table: Dally cost (v3 instruction set, 8-bit) of a program on a challenge."""

    challenge: str
    date: date
    cost: int
    author: str
    description: str
    link: str
    ir: str | None = None
    """File name of our copy of the program in the reference set, where we hold one."""


@dataclass(frozen=True)
class PublishedRecords:
    source: str
    records: tuple[PublishedRecord, ...]

    def of(self, challenge: str) -> list[PublishedRecord]:
        """The published rows of ``challenge``, in the published table's order."""
        return [r for r in self.records if r.challenge == challenge]

    def url(self, record: PublishedRecord) -> str:
        return f"{self.source.replace('/tree/', '/blob/')}/{record.link}"


@functools.cache
def published_records() -> PublishedRecords:
    """The shipped histories (read once per process)."""
    text = resources.files(__package__).joinpath("records.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    rows = tuple(
        PublishedRecord(
            challenge=r["challenge"],
            date=r["date"],
            cost=int(r["cost"]),
            author=r["author"],
            description=r["description"],
            link=r["link"],
            ir=r.get("ir"),
        )
        for r in data["record"]
    )
    return PublishedRecords(source=data["source"], records=rows)


def published_scores(challenge: str, metric: str) -> list[ScoredRun]:
    """The published entries of ``challenge`` as scored entries, oldest first (a stable sort: same-day rows keep the
    table's order); none unless ``metric`` is the engine's current Dally metric."""
    if metric != DALLY:
        return []
    book = published_records()
    rows = sorted(book.of(challenge), key=lambda r: r.date)
    return [
        ScoredRun(
            run_id=0,
            member=r.author + PUBLISHED_MEMBER_SUFFIX,
            subject=r.description,
            metric=metric,
            value=float(r.cost),
            created_at=datetime(r.date.year, r.date.month, r.date.day, tzinfo=UTC),
            kind="published",
            source=book.url(r),
        )
        for r in rows
    ]
