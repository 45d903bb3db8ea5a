"""The approve-and-run-once use case, called directly (no command, no assistant): a stored proposed idea is claimed
once, run through the stored path, linked and logged; a second approval gets the idea's state; a discard of a
proposed idea is final. Oracles: the database rows read back and the sprint-log entries, counted."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from bot.app import build_context
from bot.context import AppContext
from bot.core.idea_approval import (
    IdeaDiscarded,
    IdeaNotRun,
    IdeaRan,
    IdeaState,
    discard_idea,
    release_stopped_run,
    run_approved_idea,
)
from bot.settings import Settings
from engine.progress import no_progress
from storage.ideas import create_idea, propose
from storage.tables import Run, SprintLogEntry
from storage.timestamps import utcnow
from tools.assistant.spec import spec_from


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> Iterator[AppContext]:
    context = build_context(Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]
    yield context
    context.close()


def _proposed(ctx: AppContext, method: str, params: dict[str, int]) -> int:
    spec = spec_from(
        {
            "title": f"try {method}",
            "hypothesis": "h",
            "change": "c",
            "baseline": "sgd",
            "form": "method",
            "challenge": "sparse_parity",
            "method": method,
            "params": params,
            "seeds": [params.get("seed", 0)],
        }
    )
    with ctx.sessions()() as session:
        idea_id = create_idea(session, member="ada", text="an idea").id
        assert idea_id is not None
        propose(session, idea_id=idea_id, spec=spec.to_dict(), code=None, tokens=0)
    return idea_id


def _count(ctx: AppContext, table: type) -> int:
    with ctx.sessions()() as session:
        return len(session.exec(select(table)).all())


def test_a_refused_submission_is_not_run_and_a_second_approval_gets_the_state(ctx: AppContext) -> None:
    idea_id = _proposed(ctx, "no_such_method", {"n": 20, "k": 3})
    first = run_approved_idea(ctx, idea_id, approver="grace", progress=no_progress)
    assert isinstance(first, IdeaNotRun) and first.outcome.startswith("not run: ")
    assert "no_such_method" in first.outcome
    second = run_approved_idea(ctx, idea_id, approver="ada", progress=no_progress)
    assert second == IdeaState(idea_id, "ran", approved_by="grace", run_id=None, outcome=first.outcome)
    assert _count(ctx, Run) == 0
    assert _count(ctx, SprintLogEntry) == 1  # the outcome, logged once
    assert release_stopped_run(ctx, idea_id, submitted_at=utcnow()) is False  # nothing running to release


@pytest.mark.slow
def test_an_approved_method_runs_once_and_is_linked(ctx: AppContext) -> None:
    idea_id = _proposed(ctx, "km_min", {"n": 20, "k": 3, "seed": 7})
    ran = run_approved_idea(ctx, idea_id, approver="grace", progress=no_progress)
    assert isinstance(ran, IdeaRan)
    assert ran.label == "idea #1: try km_min" and ran.approver == "grace"
    assert ran.outcome.startswith(f"run #{ran.recorded.stored.id} passed")
    again = run_approved_idea(ctx, idea_id, approver="ada", progress=no_progress)
    assert isinstance(again, IdeaState) and again.run_id == ran.recorded.stored.id and again.approved_by == "grace"
    with ctx.sessions()() as session:
        subjects = [run.subject for run in session.exec(select(Run)).all()]
    assert subjects.count("km_min") == 1


def test_discard_is_final_and_a_second_discard_gets_the_state(ctx: AppContext) -> None:
    idea_id = _proposed(ctx, "km_min", {"n": 20, "k": 3})
    assert discard_idea(ctx, idea_id) == IdeaDiscarded(idea_id)
    assert discard_idea(ctx, idea_id) == IdeaState(idea_id, "discarded")
    assert run_approved_idea(ctx, idea_id, approver="grace", progress=no_progress) == IdeaState(idea_id, "discarded")
    assert _count(ctx, Run) == 0
