"""Reading stored runs for the ``runs`` and ``show`` commands: one page of the newest runs (a member's, or
everyone's), and one run by id."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from storage.database import SessionFactory
from storage.runs import count_runs, get_run, recent_runs
from storage.tables import Run


@dataclass(frozen=True)
class RunsPage:
    """Page ``number`` of ``pages`` (1-based) of the ``total`` stored runs, newest first; ``runs`` holds its rows."""

    number: int
    pages: int
    total: int
    runs: list[Run]


def runs_page(sessions: SessionFactory, *, wanted: int, rows: int, member: str | None = None) -> RunsPage:
    """Page ``wanted`` of ``rows`` runs each (the last page when ``wanted`` is past it), ``member``'s runs only when
    named."""
    with sessions() as session:
        total = count_runs(session, member=member)
        pages = max(1, -(-total // rows))
        number = min(wanted, pages)
        runs = recent_runs(session, limit=rows, offset=(number - 1) * rows, member=member)
    return RunsPage(number=number, pages=pages, total=total, runs=runs)


def stored_run(session: Session, run_id: int) -> Run:
    """Run ``run_id``; storage's UnknownRun (one line, with a hint) when there is none."""
    return get_run(session, run_id=run_id)
