"""A new judge epoch re-judges every entry of the submission boards, within the admins' budget, and resumes after an
interruption (bot/core/epoch_rotation.py, docs/verdicts.md#judge-epochs-noise-that-holds-still).

Oracles: a board of four members' entries (more than the three leaders an earlier version re-judged); the budget
of two leaves exactly two waiting; an interruption after an entry's new run is stored but before it is marked
leaves it waiting, and the resume finds its stored run instead of judging it twice (one run added for the one entry
never judged); at the end no entry of the earlier epoch is left on the board.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

import bot.core.epoch_rotation as rotation_module
from bot.commands import command_named
from bot.commands.base import Caller, Invocation
from bot.commands.epoch import rotation_reply
from bot.context import AppContext
from bot.core.epoch_rotation import pending_entries, resume_rotation, rotate_epoch
from bot.core.judging import Submission, judge
from bot.dispatch import execute
from bot.invocation import UsageError
from bot.settings import Settings
from engine.sandbox.tier import probe_tier
from storage.runs import get_run
from storage.scores import scored_runs
from storage.tables import RUN_SUPERSEDED, EpochRejudge, Run
from tests.engine.sandbox.conftest import submission

MEMBERS = ("ann", "bob", "cy", "dee")
ADMIN = Caller(name="root", user_id=1, is_admin=True)
MEMBER = Caller(name="ann", user_id=2)


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir) -> AppContext:  # type: ignore[no-untyped-def]
    return AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]


def _command(ctx: AppContext, *args: str, caller: Caller) -> tuple[str, int]:
    command = command_named("epoch")
    assert command is not None
    reply, status = execute(ctx, command, Invocation(command="epoch", args=list(args), options={}, caller=caller))
    return reply.text, status


def _count(ctx: AppContext, table: type) -> int:
    with ctx.sessions()() as session:
        return len(session.exec(select(table)).all())


@pytest.mark.slow
def test_every_board_entry_is_rejudged_within_the_budget_and_an_interrupted_rotation_resumes(
    ctx: AppContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not probe_tier().runs_submissions:
        pytest.skip("this machine cannot run submissions")
    base = submission("gf2_solve")
    entries = [  # four members, four different programs (a trailing constant changes the code, not the cost)
        judge(ctx, Submission(code=f"{base}\n_VARIANT = {i}\n", label=f"gf2 {m}"), member=m)
        for i, m in enumerate(MEMBERS)
    ]
    old_runs = {e.stored.id for e in entries}
    assert len(old_runs) == 4 and all(e.result.ok for e in entries)
    ctx.tool_config().set("epoch.rejudge_budget", "2", by="root")

    seen: list[str] = []
    rotation = rotate_epoch(ctx, by="root", progress=lambda message, fraction: seen.append(message))
    assert (rotation.epoch.number, rotation.previous) == (2, 1)
    assert (rotation.total, len(rotation.rejudged), rotation.pending, rotation.this_call) == (4, 2, 2, 2)
    assert [m.split(":")[0] for m in seen] == ["re-judging entry 1/4 on epoch 2", "re-judging entry 2/4 on epoch 2"]
    text = rotation_reply(rotation).text
    assert "re-judged 2 of 4 board entries" in text and "2 still to re-judge" in text and "epoch resume" in text
    assert pending_entries(ctx) == (2, 4)
    status_text, _ = _command(ctx, caller=MEMBER)
    assert "2 of 4 board entries still to re-judge" in status_text

    # an interruption: the third entry's new run is stored, then the process "dies" before the entry is marked
    real_judge = rotation_module.judge

    def dies_after_judging(*args, **kwargs):  # type: ignore[no-untyped-def]
        real_judge(*args, **kwargs)
        raise RuntimeError("killed")

    monkeypatch.setattr(rotation_module, "judge", dies_after_judging)
    ctx.tool_config().set("epoch.rejudge_budget", "10", by="root")
    with pytest.raises(RuntimeError):
        resume_rotation(ctx)
    monkeypatch.setattr(rotation_module, "judge", real_judge)
    assert pending_entries(ctx) == (2, 4)  # the interrupted entry still waits
    runs_before = _count(ctx, Run)

    seen.clear()
    resumed = resume_rotation(ctx, progress=lambda message, fraction: seen.append(message))
    assert (len(resumed.rejudged), resumed.pending, resumed.this_call) == (4, 0, 2)
    assert [m.split(":")[0] for m in seen] == ["re-judging entry 3/4 on epoch 2", "re-judging entry 4/4 on epoch 2"]
    assert _count(ctx, Run) == runs_before + 1  # the interrupted entry found its stored run; only the 4th ran
    assert {r.old_run for r in resumed.rejudged} == old_runs
    assert {r.member for r in resumed.rejudged} == set(MEMBERS)
    with ctx.sessions()() as session:
        for run_id in old_runs:
            assert get_run(session, run_id=run_id).status == RUN_SUPERSEDED  # off the board, kept
        board = [s for s in scored_runs(session, challenge="sparse_parity", metric="dmc@1") if s.kind == "solve"]
    assert len(board) == 4 and all(s.params["epoch"] == 2 for s in board)  # no entry of epoch 1 left on a board
    assert {s.run_id for s in board} == {r.new_run for r in resumed.rejudged}
    assert sorted(r.new_rank for r in resumed.rejudged) == [1, 2, 3, 4]
    assert "resumed" in rotation_reply(resumed).text
    with pytest.raises(UsageError, match="nothing to resume"):
        resume_rotation(ctx)


def test_resume_is_for_admins_and_says_when_there_is_nothing_to_resume(ctx: AppContext) -> None:
    text, status = _command(ctx, "resume", caller=MEMBER)
    assert status == 2 and text.splitlines() == [text] and "only an admin" in text
    text, status = _command(ctx, "resume", caller=ADMIN)
    assert status == 2 and text.splitlines() == [text] and "no judge epoch was started yet" in text
    _command(ctx, caller=MEMBER)  # the first epoch starts by itself, with nothing to re-judge
    text, status = _command(ctx, "resume", caller=ADMIN)
    assert status == 2 and text.splitlines() == [text] and "nothing to resume" in text
    assert _count(ctx, EpochRejudge) == 0
    text, status = _command(ctx, "rotate", caller=ADMIN)  # no entries on any board: an empty plan
    assert status == 0 and text.startswith("judge epoch 2 started (was 1); re-judged 0 of 0 board entries")
    text, status = _command(ctx, "sideways", caller=ADMIN)
    assert status == 2 and "usage: epoch [rotate|resume]" in text
