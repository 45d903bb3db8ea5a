"""/idea with the REAL anthropic SDK against a local fake Messages API (tests/fakes/anthropic_server.py).

No patched client: the SDK's transport, auth header, retries and timeouts are exercised over HTTP on 127.0.0.1.
"""

from __future__ import annotations

import time

import pytest
from sqlmodel import select

from storage.ideas import get_idea
from storage.tables import SprintLogEntry
from tests.bot.idea.script import (
    BRUTE_FORCE_SOLVE,
    FLIP_EACH_BIT_ONCE,
    IDEA,
    WRONG_SOLVE,
    call,
    context,
    solve_card,
)
from tests.fakes.anthropic_server import API_KEY, Failure, FakeAnthropic, Slow, text_message, tool_use_message

pytestmark = pytest.mark.timeout(60)


def test_two_step_tool_use_ends_in_a_valid_card(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [
        tool_use_message(("list_methods", {}), text="Let me see which methods flip bits."),
        tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)),
    ]
    ctx = context(fake)
    reply, status = call(ctx, *IDEA.split())
    assert status == 0, reply.text
    assert reply.text.startswith("idea #1: one membership query per bit")
    assert "runs: method km_min k=3 n=20 seed=7 on sparse_parity" in reply.text
    assert "contract check: ok: km_min with n=20, k=3, seed=7" in reply.text
    assert [b.data for b in reply.buttons] == ["idea:run:1", "idea:edit:1", "idea:discard:1"]
    # what went over the wire: our model, Bearer auth, the tools, and the tool result fed back
    first, second = fake.requests
    assert first.headers["authorization"] == f"Bearer {API_KEY}"
    assert first.body["model"] == "claude-test-model"
    assert first.body["messages"] == [{"role": "user", "content": IDEA}]
    assert "solve(x, y, n_bits, k_sparse)" in first.body["system"]
    assert {t["name"] for t in first.body["tools"]} >= {"check_code", "propose_experiment", "leaderboard"}
    [result] = fake.tool_results(1)
    assert not result["is_error"] and "km_min [solver]" in result["content"]
    assert second.body["messages"][1]["content"][1]["name"] == "list_methods"  # the assistant turn, echoed back
    with ctx.sessions()() as session:
        idea = get_idea(session, idea_id=1)
        assert (idea.status, idea.text, idea.tokens) == (
            "proposed",
            IDEA,
            300,
        )  # 2 replies × (100 in + 50 out)
        assert idea.spec["submission"]["method"] == "km_min"
        entries = session.exec(select(SprintLogEntry).where(SprintLogEntry.kind == "idea")).all()
    assert [e.title for e in entries] == ["idea #1: one membership query per bit"]
    assert IDEA in entries[0].body and "km_min" in entries[0].body


@pytest.mark.slow
def test_code_failing_the_contract_is_sent_back_and_fixed(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    forbidden = "import os\n\ndef solve(x, y, n_bits, k_sparse):\n    return sorted(os.sched_getaffinity(0))[:3]\n"
    fake.script += [
        tool_use_message(("check_code", {"form": "solve", "challenge": "sparse_parity", "code": forbidden})),
        tool_use_message(("propose_experiment", solve_card(WRONG_SOLVE))),
        tool_use_message(("propose_experiment", solve_card(BRUTE_FORCE_SOLVE))),
    ]
    ctx = context(fake)
    reply, status = call(ctx, "check", "every", "subset")
    assert status == 0, reply.text
    [told_import] = fake.tool_results(1)
    assert told_import["is_error"] and "imports os, which is not allowed" in told_import["content"]
    [told_wrong] = fake.tool_results(2)
    assert told_wrong["is_error"]
    assert "the contract check failed: the dry run ran but did not pass" in told_wrong["content"]
    assert "contract check: ok: dry run on one hidden instance (n=20, k=3): accuracy 100.0%" in reply.text
    assert "def solve(x, y, n_bits, k_sparse):" in reply.text  # the code is on the card
    assert reply.data is not None and reply.data["code"] == BRUTE_FORCE_SOLVE
    assert reply.data["turns"] == 3


def test_a_reply_without_a_tool_call_is_nudged_to_finish(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [text_message("Sounds fun!"), tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE))]
    reply, status = call(context(fake), "flip", "bits")
    assert status == 0, reply.text
    assert "propose_experiment" in fake.requests[1].body["messages"][-1]["content"]


@pytest.mark.slow
def test_overload_and_rate_limit_are_retried_then_succeed(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [
        Failure(529, "Overloaded"),
        Failure(429, "slow down"),
        tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)),
    ]
    reply, status = call(context(fake, anthropic_max_retries=2), *IDEA.split())
    assert status == 0, reply.text
    assert [r.status for r in fake.requests] == [529, 429, 200]
    assert [r.headers.get("x-stainless-retry-count") for r in fake.requests] == ["0", "1", "2"]


def test_overload_after_the_last_retry_is_one_clear_line(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [Failure(529, "Overloaded")] * 3
    ctx = context(fake, anthropic_max_retries=2)
    reply, status = call(ctx, *IDEA.split())
    assert status == 1
    assert reply.text == (
        "idea #1: the assistant is overloaded (HTTP 529) after 3 tries — try /idea again in a few minutes"
    )
    assert len(fake.requests) == 3
    with ctx.sessions()() as session:
        assert get_idea(session, idea_id=1).status == "failed"


@pytest.mark.slow
def test_a_request_that_times_out_is_one_clear_line(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [Slow(3.0, tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)))]
    started = time.monotonic()
    reply, status = call(context(fake, anthropic_timeout_s=0.5, anthropic_max_retries=0), *IDEA.split())
    assert status == 1
    assert reply.text == "idea #1: the assistant did not answer within 0.5 s (1 tries) — try /idea again later"
    assert time.monotonic() - started < 2.5  # gave up at the timeout, did not wait for the slow reply


def test_budget_exhausted_mid_draft_and_for_the_next_idea(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [tool_use_message(("list_methods", {}), tokens=(120, 30))]
    ctx = context(fake, anthropic_monthly_budget_tokens=150)
    reply, status = call(ctx, *IDEA.split())
    assert status == 1
    assert "budget for" in reply.text and "is used up (150 of 150 tokens)" in reply.text
    assert "everything else works as usual" in reply.text
    reply, status = call(ctx, "another", "idea")
    assert status == 1 and "is used up" in reply.text
    assert len(fake.requests) == 1  # the second idea never reached the API


def test_money_budget_priced_per_million_tokens(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    # 100,000 input tokens at $3/MTok + 20,000 output tokens at $15/MTok = $0.30 + $0.30 = $0.60 ≥ $0.50
    fake.script += [tool_use_message(("list_methods", {}), tokens=(100_000, 20_000))]
    ctx = context(
        fake,
        anthropic_monthly_budget_usd=0.5,
        anthropic_usd_per_mtok_input=3.0,
        anthropic_usd_per_mtok_output=15.0,
    )
    reply, status = call(ctx, *IDEA.split())
    assert status == 1 and "is used up ($0.60 of $0.50)" in reply.text
    assert len(fake.requests) == 1


def test_no_key_configured(anthropic_fake: FakeAnthropic) -> None:
    reply, status = call(context(anthropic_fake, anthropic_api_key=None), *IDEA.split())
    assert status == 2
    assert reply.text.startswith(
        "/idea needs ANTHROPIC_API_KEY (SUTRO_ANTHROPIC_API_KEY); everything else works without it"
    )
    assert anthropic_fake.requests == []


def test_wrong_key_is_reported_not_retried(anthropic_fake: FakeAnthropic) -> None:
    reply, status = call(context(anthropic_fake, anthropic_api_key="sk-wrong"), *IDEA.split())
    assert status == 1 and "refused the key" in reply.text
    assert len(anthropic_fake.requests) == 1


def test_per_member_rate_limit(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE))]
    ctx = context(fake, idea_rate_per_hour=1)
    assert call(ctx, *IDEA.split())[1] == 0
    reply, status = call(ctx, "a", "second", "idea")
    assert status == 2 and reply.text.startswith("you asked for 1 ideas in the last hour (limit 1)")
    assert len(fake.requests) == 1


def test_the_model_never_finishing_is_bounded(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [tool_use_message(("list_challenges", {}))] * 2
    reply, status = call(context(fake, idea_max_turns=2), *IDEA.split())
    assert status == 1 and "no experiment that passes the contract check in 2 replies" in reply.text
    assert len(fake.requests) == 2


def test_an_admins_config_change_of_the_model_applies_to_the_next_idea(anthropic_fake: FakeAnthropic) -> None:
    fake = anthropic_fake
    fake.script += [tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE))]
    ctx = context(fake)
    ctx.tool_config().set("assistant.model", "claude-admin-choice", by="admin")
    reply, status = call(ctx, *IDEA.split())
    assert status == 0, reply.text
    assert fake.requests[0].body["model"] == "claude-admin-choice"
