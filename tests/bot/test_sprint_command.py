"""``/sprint`` and the sprint log around it: start and end (who may), entries under the sprint's section with its
TLDR replaced in place (once per change, by the scheduled job's function, never inside a run), the log's time zone,
per-member logs, and the assistant's TLDR checked against the stored figures — through the real dispatcher, a
SQLite file and the Markdown sink.

No assertion depends on today's date: times are read back from the stored entries and compared with the same
instant written in the configured zone (a fixed-offset zone, so the expected clock is plain arithmetic).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.commands.ideas.tldr_summary import assistant_writer
from bot.context import AppContext
from bot.core.recording import record_once
from bot.core.sprint_tldr import SprintFacts, deterministic_tldr, grounded, numbers_in, refresh_due_tldrs
from bot.dispatch import execute
from bot.settings import Settings
from engine.result import RunResult
from storage.outbox import entries
from storage.sprints import running_sprint
from tests.fakes.anthropic_server import API_KEY, FakeAnthropic, text_message
from tools.run_request import NormalisedRequest

ADMIN = Caller(name="ada", user_id=1, is_admin=True)
ALICE = Caller(name="alice", user_id=2)
BOB = Caller(name="bob", user_id=3)


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> Iterator[AppContext]:
    context = AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]
    yield context
    context.close()


def call(ctx: AppContext, name: str, text: str = "", *, caller: Caller = ALICE) -> tuple[Reply, int]:
    """As the chat sends a free-text command: one argument, exactly as typed."""
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=[text] if text else [], caller=caller))


def log_text(ctx: AppContext) -> str:
    return (ctx.settings.data_dir / "sprint-log.md").read_text(encoding="utf-8")


def score(ctx: AppContext, subject: str, dally: float, member: str) -> int:
    """A stored matmul_4x4 result through the real record path (stored, compared, logged, TLDR refreshed)."""
    result = RunResult(
        challenge="matmul_4x4", subject=subject, kind="ir", ok=True, metrics={"dally@1": dally}, params={"n": 4}
    )
    request = NormalisedRequest("matmul_4x4", "ir", subject, {"n": 4}, f"{subject} {dally}", ("dally@1",))
    return record_once(ctx, request, lambda: result, member=member).stored.id


def test_ending_without_a_sprint_and_bad_actions_are_one_line(ctx: AppContext) -> None:
    reply, status = call(ctx, "sprint", "end")
    assert status == 2 and reply.text == 'no sprint is running — start one: sprint start "Technical Sprint 2" [goal]'
    reply, status = call(ctx, "sprint", "stop")
    assert status == 2 and reply.text.count("\n") == 0 and "unknown sprint action 'stop'" in reply.text
    reply, status = call(ctx, "sprint", 'start "unclosed title')
    assert status == 2 and "quote is not closed" in reply.text
    reply, status = call(ctx, "sprint", "start " + "x" * 300)
    assert status == 2 and "at most 200 characters" in reply.text


def test_a_sprint_runs_alone_and_only_its_starter_or_an_admin_ends_it(ctx: AppContext) -> None:
    reply, status = call(ctx, "sprint", 'start "Technical Sprint 2" find a cheaper update')
    assert status == 0 and reply.data == {
        "ok": True,
        "sprint": 1,
        "title": "Technical Sprint 2",
        "goal": "find a cheaper update",
        "running": True,
    }
    reply, status = call(ctx, "sprint", "start “Another”", caller=BOB)
    assert status == 2 and reply.text.startswith("sprint “Technical Sprint 2” is running (started by alice")
    reply, status = call(ctx, "sprint", "end", caller=BOB)
    assert status == 2 and reply.text == (
        "only admins or alice, who started it, can end sprint “Technical Sprint 2” — ask one of them"
    )
    reply, status = call(ctx, "sprint", "", caller=BOB)
    assert status == 0 and "running since" in reply.text and "goal: find a cheaper update" in reply.text
    reply, status = call(ctx, "sprint", "end", caller=ADMIN)
    assert status == 0 and reply.text.startswith("sprint “Technical Sprint 2” ended")
    with ctx.sessions()() as session:
        assert running_sprint(session) is None
    reply, status = call(ctx, "sprint", 'start "Technical Sprint 3"', caller=BOB)
    assert status == 0
    reply, status = call(ctx, "sprint", "end", caller=BOB)  # the starter
    assert status == 0


def test_entries_go_under_the_sprint_with_its_tldr_replaced_in_place(ctx: AppContext) -> None:
    call(ctx, "log", "before the sprint")
    call(ctx, "sprint", 'start "Technical Sprint 2" cut the Dally cost')
    call(ctx, "log", "Finished reading the slides; make a plan.")
    score(ctx, "naive", 200, "alice")
    score(ctx, "tiled", 150, "bob")
    # a member's run writes no TLDR: the section still opens with the goal (the scheduled job would rewrite it)
    assert [ln for ln in log_text(ctx).splitlines() if ln.startswith("**TLDR:**")] == [
        "**TLDR:** goal: cut the Dally cost"
    ]
    reply, status = call(ctx, "sprint", "end")
    assert status == 0
    call(ctx, "log", "after the sprint")
    text = log_text(ctx)
    lines = text.splitlines()
    sections = [ln for ln in lines if ln.startswith("## ")]
    assert len(sections) == 3 and sections[1].startswith("## Technical Sprint 2 · ")
    assert sections[0].startswith("## Week ") and sections[2] == sections[0]  # before and after: the week
    # one TLDR line, replaced after each result and at the end: 2 submissions (dally@1 200 then 150; 150 is the
    # best, 25 % under 200: a WIN by the 1 % rule; the first beats the built-in baseline 1,316 too), 1 note
    tldrs = [ln for ln in lines if ln.startswith("**TLDR:**")]
    expected = [
        "2 submissions, 1 note.",
        "Best: matmul_4x4 · program · dally@1: 150 (tiled, #2, bob).",
        "Verdicts: 2 WIN.",
    ]
    assert tldrs == [f"**TLDR:** {' '.join(expected)}"]  # one line in the log, short sentences
    assert reply.text == "sprint “Technical Sprint 2” ended\nTLDR: " + "\n".join(expected)  # lines in the reply
    inside = text[text.index(sections[1]) : text.rindex(sections[2])]
    assert (
        "Finished reading the slides" in inside
        and "tiled vs baseline program, matmul_4x4: WIN vs baseline program: dally@1" in inside
    )
    assert "before the sprint" not in inside and "after the sprint" not in inside
    with ctx.sessions()() as session:
        saved = {e.title: e.sprint_id for e in entries(session, limit=50)}
    assert saved["Finished reading the slides; make a plan."] == 1 and saved["after the sprint"] is None


def test_notes_are_one_line_in_the_configured_time_zone_and_a_bad_zone_is_one_line(ctx: AppContext) -> None:
    command = command_named("config")
    assert command is not None
    reply, status = execute(
        ctx,
        command,
        Invocation(command="config", args=["set", "sprint_log.timezone", "Mars/Olympus"], caller=ADMIN),
    )
    assert status == 2 and reply.text.count("\n") == 0 and "IANA timezone" in reply.text
    reply, status = execute(
        ctx,
        command,
        Invocation(command="config", args=["set", "sprint_log.timezone", "Asia/Kolkata"], caller=ADMIN),
    )
    assert status == 0, reply.text
    call(ctx, "log", "Finished reading the slides; make a plan.")
    with ctx.sessions()() as session:
        [entry] = entries(session, limit=1)
    local = entry.created_at + timedelta(hours=5, minutes=30)  # Kolkata: UTC+5:30 all year
    line = f"{local.hour}:{local.minute:02d} Finished reading the slides; make a plan. — alice"
    assert re.search(rf"^{re.escape(line)} <!-- sutro#\w+ -->$", log_text(ctx), re.M)


def test_per_member_logs_give_each_member_a_file_of_their_own(ctx: AppContext) -> None:
    command = command_named("config")
    assert command is not None
    execute(
        ctx,
        command,
        Invocation(command="config", args=["set", "sprint_log.per_member", "true"], caller=ADMIN),
    )
    call(ctx, "log", "alice's plan")
    call(ctx, "log", "bob's plan", caller=BOB)
    folder = ctx.settings.data_dir
    alice, bob = (folder / "sprint-log-alice.md").read_text(), (folder / "sprint-log-bob.md").read_text()
    assert "alice's plan" in alice and "bob's plan" not in alice and "bob's plan" in bob
    assert " — alice" not in alice  # the file is hers: lines do not repeat her name
    assert re.search(r"^## alice · Week \d{4}-W\d\d$", alice, re.M)


FACTS = SprintFacts(
    title="Technical Sprint 2",
    goal="",
    counts={"submission": 2},
    best=["matmul_4x4 · program · dally@1: 150 (tiled, #2, bob)"],
    verdicts={"WIN": 2},
)


def test_an_assistant_summary_may_only_use_the_stored_figures() -> None:
    assert numbers_in("dally@1 fell to 1,316 (−4.9 %) in run #2") == {"1316", "4.9", "2"}
    ok = "Two submissions this sprint. The best is tiled by bob at 150 on dally@1 (run #2), a WIN."
    assert grounded(ok, FACTS)
    assert not grounded("Two submissions. The best is tiled at 140 on dally@1.", FACTS)  # 140: invented
    assert not grounded("Two submissions. The best is tiled at 150 on dally.", FACTS)  # metric without version
    assert not grounded("Tiled won at 150 on dally@1.", FACTS)  # one sentence: 2–4 asked


@pytest.fixture
def anthropic_fake(anthropic_sdk: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeAnthropic]:
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "SUTRO_ANTHROPIC_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path / "anthropic-config"))
    fake = FakeAnthropic().start()
    yield fake
    fake.stop()


@pytest.mark.slow  # 0.6 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_with_claude_the_job_writes_its_summary_once_per_change_and_never_inside_a_run(
    anthropic_fake: FakeAnthropic, tmp_path: Path
) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        anthropic_api_key=API_KEY,
        anthropic_base_url=anthropic_fake.base_url,
        anthropic_max_retries=0,
    )
    ctx = AppContext(settings=settings)
    try:
        good = "Two submissions this sprint. The best is tiled by bob at 150 on dally@1 (run #2)."
        invented = "Three submissions this sprint. The best is tiled by bob at 120 on dally@1."
        anthropic_fake.script.extend([text_message(good), text_message(invented)])
        call(ctx, "sprint", 'start "Technical Sprint 2"')
        assert refresh_due_tldrs(ctx, assistant_writer(ctx)) == [1]  # the start entry: "nothing logged yet."
        assert anthropic_fake.requests == [] and "**TLDR:** nothing logged yet." in log_text(ctx)  # nothing to ask
        score(ctx, "naive", 200, "alice")
        score(ctx, "tiled", 150, "bob")
        assert anthropic_fake.requests == []  # two runs recorded: no request made inside them
        assert refresh_due_tldrs(ctx, assistant_writer(ctx)) == [1]  # two changes, one TLDR
        assert refresh_due_tldrs(ctx, assistant_writer(ctx)) == []  # no change since: nothing asked, nothing written
        assert len(anthropic_fake.requests) == 1
        assert "dally@1: 150 (tiled, #2, bob)" in anthropic_fake.requests[-1].body["messages"][0]["content"]
        assert log_text(ctx).count("**TLDR:**") == 1 and f"**TLDR:** {good}" in log_text(ctx)
        call(ctx, "log", "one more note")
        assert refresh_due_tldrs(ctx, assistant_writer(ctx)) == [1] and len(anthropic_fake.requests) == 2
        plain = deterministic_tldr(
            SprintFacts("Technical Sprint 2", "", {"submission": 2, "note": 1}, FACTS.best, {"WIN": 2})
        )
        assert f"**TLDR:** {' '.join(plain.splitlines())}" in log_text(ctx)  # 120 is in no stored result: refused
        reply, _ = call(ctx, "sprint", "end")  # the final TLDR: the plain lines, at once, no request
        assert reply.text.endswith(f"TLDR: {plain}") and len(anthropic_fake.requests) == 2
    finally:
        ctx.close()


def test_the_tldr_names_the_busiest_boards_in_a_few_short_lines() -> None:
    """16 boards, as a busy sprint had: the three with most results are named, the rest counted (the run-on of
    every board was ~1,300 characters)."""
    best = [f"matmul_{i}x{i} · program · dally@1: {100 + i} (tiled, #{i}, bob)" for i in range(1, 4)]
    facts = SprintFacts("S", "", {"run": 30, "submission": 2}, best, {"WIN": 2, "LOSS": 1}, more_boards=13)
    lines = deterministic_tldr(facts).splitlines()
    assert lines == [
        "30 runs, 2 submissions.",
        *[f"Best: {b}." for b in best],
        "+13 more boards: see the leaderboard.",
        "Verdicts: 2 WIN, 1 LOSS.",
    ]
    assert max(len(line) for line in lines) < 80 and len("\n".join(lines)) < 400
    assert "other boards with results: 13" in facts.lines()


def test_a_run_links_to_the_asking_message_only_where_telegram_has_message_links() -> None:
    # Telegram's link to a message of a supergroup: t.me/c/<chat id without -100>/<message>, with the forum topic
    # between them in a topic; basic groups and private chats have no such link
    assert Caller("a", chat_id=-1001234567890, message_id=42).message_link == "https://t.me/c/1234567890/42"
    topic = Caller("a", chat_id=-1001234567890, thread_id=813, message_id=42)
    assert topic.message_link == "https://t.me/c/1234567890/813/42"
    assert Caller("a", chat_id=555, message_id=42).message_link == ""
    assert Caller("a", chat_id=-1001234567890).message_link == ""


def test_a_spent_assistant_budget_gives_the_plain_tldr_without_a_request(
    anthropic_fake: FakeAnthropic, tmp_path: Path
) -> None:
    from storage.ideas import add_usage, month_key
    from storage.timestamps import utcnow

    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        anthropic_api_key=API_KEY,
        anthropic_base_url=anthropic_fake.base_url,
        anthropic_monthly_budget_tokens=1000,
    )
    ctx = AppContext(settings=settings)
    try:
        with ctx.sessions()() as session:
            add_usage(session, month=month_key(utcnow()), input_tokens=900, output_tokens=100)  # 1,000: all of it
        call(ctx, "sprint", 'start "Technical Sprint 2"')
        assert refresh_due_tldrs(ctx, assistant_writer(ctx)) == [1]  # written, by the plain rule
        reply, _ = call(ctx, "sprint", "")
        assert reply.text.endswith("TLDR: nothing logged yet.") and anthropic_fake.requests == []
    finally:
        ctx.close()
