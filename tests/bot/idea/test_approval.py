"""Approval: nothing runs before it; it runs once (even with presses racing); the run is stored, linked and logged."""

from __future__ import annotations

import threading

import pytest
from sqlmodel import select

from bot.commands.base import Caller
from storage.ideas import get_idea
from storage.tables import ROLE_MEMBER, Run, SprintLogEntry
from tests.bot.idea.script import BRUTE_FORCE_SOLVE, FLIP_EACH_BIT_ONCE, IDEA, call, context, solve_card
from tests.fakes.anthropic_server import FakeAnthropic, tool_use_message

pytestmark = pytest.mark.timeout(90)


def _proposed(fake: FakeAnthropic, card: dict, **overrides: object):  # noqa: ANN202
    fake.script.append(tool_use_message(("propose_experiment", card)))
    ctx = context(fake, **overrides)
    reply, status = call(ctx, *IDEA.split())
    assert status == 0, reply.text
    return ctx


def _runs(ctx) -> list[Run]:  # noqa: ANN001
    """The members' runs (a judged solve() also stores the system's baseline run, role ``baseline``)."""
    with ctx.sessions()() as session:
        return list(session.exec(select(Run).where(Run.role == ROLE_MEMBER)).all())


@pytest.mark.slow
def test_nothing_runs_until_approved_then_exactly_once(anthropic_fake: FakeAnthropic) -> None:
    ctx = _proposed(anthropic_fake, FLIP_EACH_BIT_ONCE)
    assert _runs(ctx) == []
    reply, status = call(ctx, "--run", "1", caller=Caller(name="grace", user_id=11))
    assert status == 0, reply.text
    assert reply.data is not None and reply.data["ran_now"] and reply.data["run_id"] == 1
    assert "ran method km_min k=3 n=20 seed=7 on sparse_parity" in reply.text
    reply, status = call(ctx, "--run", "1", caller=Caller(name="ada", user_id=12))
    assert reply.text == "idea #1 already ran as run #1 (approved by grace) — not run again"
    assert [r.subject for r in _runs(ctx)] == ["km_min"]


@pytest.mark.slow
def test_racing_approvals_run_it_once(anthropic_fake: FakeAnthropic) -> None:
    ctx = _proposed(anthropic_fake, FLIP_EACH_BIT_ONCE)
    replies: list[dict] = []
    start = threading.Barrier(4)

    def press(who: str) -> None:
        start.wait()
        replies.append(call(ctx, "--run", "1", caller=Caller(name=who))[0].data or {})

    threads = [threading.Thread(target=press, args=(f"m{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(bool(r.get("ran_now")) for r in replies) == [False, False, False, True]
    assert len(_runs(ctx)) == 1


@pytest.mark.slow
def test_an_approved_solve_goes_through_the_sandboxed_judge(anthropic_fake: FakeAnthropic) -> None:
    ctx = _proposed(anthropic_fake, solve_card(BRUTE_FORCE_SOLVE))
    reply, status = call(ctx, "--run", "1")
    assert status == 0, reply.text
    [run] = _runs(ctx)
    assert (run.kind, run.challenge, run.subject, run.ok) == (
        "solve",
        "sparse_parity",
        "idea #1: brute-force subsets",
        True,
    )
    assert run.code == BRUTE_FORCE_SOLVE and run.accuracy == 1.0
    assert run.result["provenance"]["sandbox_tier"] in {
        "A",
        "B",
        "C",
    }  # judged in the sandbox, like a stranger's code
    with ctx.sessions()() as session:
        idea = get_idea(session, idea_id=1)
        entries = session.exec(select(SprintLogEntry).where(SprintLogEntry.kind == "idea")).all()
    assert (idea.status, idea.run_id) == ("ran", run.id)
    assert idea.outcome is not None and idea.outcome.startswith(f"run #{run.id} passed, accuracy 100.0%")
    assert BRUTE_FORCE_SOLVE.splitlines()[3] in entries[0].body  # the code went to the sprint log with the idea


@pytest.mark.slow
def test_discard_then_run_does_nothing(anthropic_fake: FakeAnthropic) -> None:
    ctx = _proposed(anthropic_fake, FLIP_EACH_BIT_ONCE)
    assert call(ctx, "--discard", "1")[0].text == "idea #1 discarded by local; nothing ran"
    assert call(ctx, "--run", "1")[0].text == "idea #1 was discarded — not run again"
    assert _runs(ctx) == []


@pytest.mark.slow  # drafts, dry-runs in the sandbox and runs the approved experiment
def test_yes_approves_at_once_on_the_terminal(anthropic_fake: FakeAnthropic) -> None:
    anthropic_fake.script.append(tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)))
    reply, status = call(context(anthropic_fake), *IDEA.split(), "--yes")
    assert status == 0, reply.text
    assert "approved with --yes" in reply.text and reply.data is not None and reply.data["ran_now"]


def test_unknown_and_malformed_idea_ids(anthropic_fake: FakeAnthropic) -> None:
    ctx = context(anthropic_fake)
    reply, status = call(ctx, "--run", "42")
    assert (status, reply.text) == (2, "no idea #42 — the number is on the idea's card")
    assert call(ctx, "--run", "abc")[0].text.startswith("--run needs an idea number, not 'abc'")
    assert anthropic_fake.requests == []


def test_a_spec_that_cannot_run_any_more_is_closed_with_the_reason(anthropic_fake: FakeAnthropic) -> None:
    from storage.ideas import create_idea, propose

    ctx = context(anthropic_fake)
    stale = {**FLIP_EACH_BIT_ONCE, "method": "km_max"}  # e.g. a method renamed after the card was made
    spec = {k: stale[k] for k in ("title", "hypothesis", "change", "baseline", "seeds")}
    spec["submission"] = {"form": "method", "challenge": "sparse_parity", "method": "km_max", "params": {}}
    with ctx.sessions()() as session:
        idea_id = create_idea(session, member="ada", text="x").id
        assert idea_id is not None
        propose(session, idea_id=idea_id, spec=spec, code=None, tokens=0)
    reply, status = call(ctx, "--run", str(idea_id))
    assert status == 1 and reply.text.startswith(f"idea #{idea_id}: not run: unknown method 'km_max'")
    with ctx.sessions()() as session:
        idea = get_idea(session, idea_id=idea_id)
    assert idea.status == "ran" and idea.run_id is None and idea.outcome == reply.text.split(": ", 1)[1]
    assert _runs(ctx) == []


def _status(ctx, idea_id: int = 1) -> str:  # noqa: ANN001
    with ctx.sessions()() as session:
        return get_idea(session, idea_id=idea_id).status


@pytest.mark.slow  # 1.2 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_stopped_run_goes_back_to_proposed_and_can_be_approved_again(anthropic_fake: FakeAnthropic) -> None:
    """A run killed mid-way (cancel, job time limit, dead worker) must not leave the idea "running" for ever."""
    from datetime import timedelta

    from bot.commands.base import Invocation
    from bot.commands.ideas.approval import release_stopped
    from storage.ideas import claim_for_run
    from storage.timestamps import utcnow

    ctx = _proposed(anthropic_fake, FLIP_EACH_BIT_ONCE)
    submitted = utcnow()
    with ctx.sessions()() as session:  # what the killed job's worker got as far as doing
        assert claim_for_run(session, idea_id=1, approver="grace")
    assert call(ctx, "--run", "1")[0].text.endswith("is already running (approved by grace) — not run again")
    stopped = Invocation(command="idea", options={"run": "1"}, caller=Caller(name="grace"))
    # a stopped job submitted after the claim (a second press) does not release someone else's run
    assert release_stopped(ctx, stopped, submitted + timedelta(minutes=1)) == ""
    assert _status(ctx) == "running"
    assert (
        release_stopped(ctx, stopped, submitted) == "idea #1 was not run to the end; it can be approved again (Run it)"
    )
    assert _status(ctx) == "proposed"
    reply, status = call(ctx, "--run", "1", caller=Caller(name="ada"))
    assert status == 0 and reply.data is not None and reply.data["ran_now"]
    assert [r.subject for r in _runs(ctx)] == ["km_min"]


@pytest.mark.slow
def test_a_claim_older_than_the_job_time_limit_is_taken_over(anthropic_fake: FakeAnthropic) -> None:
    """The bot killed mid-run leaves a claim no job can still be working on once limits.job_wall_s has passed."""
    from datetime import timedelta

    from storage.ideas import claim_for_run
    from storage.tables import Idea
    from storage.timestamps import utcnow

    ctx = _proposed(anthropic_fake, FLIP_EACH_BIT_ONCE)
    with ctx.sessions()() as session:
        assert claim_for_run(session, idea_id=1, approver="grace")

    def claimed_ago(seconds: float) -> None:
        with ctx.sessions()() as session:
            idea = session.get(Idea, 1)
            assert idea is not None
            idea.approved_at = utcnow() - timedelta(seconds=seconds)
            session.add(idea)
            session.commit()

    claimed_ago(600)  # limits.job_wall_s (600 s by default) + 60 s margin not yet passed
    assert "is already running" in call(ctx, "--run", "1")[0].text
    claimed_ago(661)
    reply, status = call(ctx, "--run", "1", caller=Caller(name="ada"))
    assert status == 0 and reply.data is not None and reply.data["ran_now"], reply.text
    assert "approved by ada" in reply.text


def test_a_stopped_draft_is_marked_failed(anthropic_fake: FakeAnthropic) -> None:
    from bot.commands.base import Invocation
    from bot.commands.ideas.approval import release_stopped
    from storage.ideas import create_idea
    from storage.timestamps import utcnow

    ctx = context(anthropic_fake)
    submitted = utcnow()
    with ctx.sessions()() as session:  # the drafting job was killed before the assistant answered
        create_idea(session, member="ada", text="x")
    drafting = Invocation(command="idea", args=["x"], caller=Caller(name="ada"))
    assert (
        release_stopped(ctx, drafting, submitted) == "idea #1 was stopped before its card was ready; send /idea again"
    )
    assert _status(ctx) == "failed"
    assert release_stopped(ctx, drafting, submitted) == ""  # nothing left to undo
