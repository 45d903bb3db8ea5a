"""The sprint TLDR's scheduled job on the bot's JobQueue: registered at start-up, it rewrites a TLDR that a new entry
made out of date, once, and leaves an up-to-date one alone. Real parts: the PTB Application against the fake Bot
API, the command layer, the database and the Markdown sink (the job is force-run with ``job.run(app)``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import build_context
from bot.commands import command_named
from bot.commands.base import Caller, Invocation
from bot.dispatch import execute
from bot.telegram_app.application import build_bot
from bot.telegram_app.tldr_job import JOB_NAME
from storage.sprints import get_sprint
from tests.bot.telegram_harness import TEST_COMMANDS, settings_for
from tests.fakes.bot_api import FakeBotApi

ALICE = Caller(name="alice", user_id=2)


def note(ctx: object, text: str) -> None:
    command = command_named("log")
    assert command is not None
    _, status = execute(ctx, command, Invocation(command="log", args=[text], caller=ALICE))  # type: ignore[arg-type]
    assert status == 0


@pytest.mark.e2e
@pytest.mark.timeout(60)
async def test_the_bot_rewrites_an_out_of_date_tldr_once_on_its_job_queue(fake: FakeBotApi, tmp_path: Path) -> None:
    settings = settings_for(fake, job_workers=1, data_dir=tmp_path / "data")
    ctx = build_context(settings)
    command = command_named("sprint")
    assert command is not None
    execute(ctx, command, Invocation(command="sprint", args=['start "Sprint 9"'], caller=ALICE))
    note(ctx, "first note")
    note(ctx, "second note")
    bot = build_bot(ctx, commands=TEST_COMMANDS)
    await bot.start(poll_timeout_s=1)
    try:
        assert bot.app.job_queue is not None
        [job] = bot.app.job_queue.get_jobs_by_name(JOB_NAME)
        await job.run(bot.app)
        with ctx.sessions()() as session:
            sprint = get_sprint(session, sprint_id=1)
            assert sprint is not None and sprint.tldr == "2 notes." and sprint.tldr_through is not None
            through = sprint.tldr_through
        await job.run(bot.app)  # nothing new: nothing rewritten
        with ctx.sessions()() as session:
            again = get_sprint(session, sprint_id=1)
            assert again is not None and again.tldr_through == through
        note(ctx, "third note")
        await job.run(bot.app)
        with ctx.sessions()() as session:
            last = get_sprint(session, sprint_id=1)
            assert last is not None and last.tldr == "3 notes." and (last.tldr_through or 0) > through
    finally:
        await bot.stop()
    text = (settings.data_dir / "sprint-log.md").read_text(encoding="utf-8")
    assert [ln for ln in text.splitlines() if ln.startswith("**TLDR:**")] == ["**TLDR:** 3 notes."]
