"""``sutro idea`` on the terminal (the click CLI built from the registry) and revising a card."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.bot.idea.script import FLIP_EACH_BIT_ONCE, IDEA, call, context
from tests.fakes.anthropic_server import API_KEY, FakeAnthropic, tool_use_message

pytestmark = pytest.mark.timeout(60)


@pytest.mark.slow  # 1.1 CPU s in the quick subset: the approved run computes its reference solver (tests/cpu_time.py)
def test_cli_prints_the_card_and_how_to_approve(anthropic_fake: FakeAnthropic, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUTRO_ANTHROPIC_API_KEY", API_KEY)
    monkeypatch.setenv("SUTRO_ANTHROPIC_BASE_URL", anthropic_fake.base_url)
    anthropic_fake.script.append(tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)))
    result = CliRunner().invoke(main, ["idea", IDEA])
    assert result.exit_code == 0, result.output
    assert "idea #1: one membership query per bit" in result.output
    assert "to run it: sutro idea --run 1" in result.output
    result = CliRunner().invoke(main, ["idea", "--run", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["idea_id"], data["run_id"], data["ran_now"], data["ok"]) == (1, 1, True, True)


def test_cli_without_a_key_says_what_to_set(anthropic_fake: FakeAnthropic) -> None:
    result = CliRunner().invoke(main, ["idea", IDEA])
    assert result.exit_code == 2
    said = " ".join(result.output.split())  # rich wraps long lines on the terminal
    assert said.startswith("/idea needs ANTHROPIC_API_KEY (SUTRO_ANTHROPIC_API_KEY); everything else works without it")
    assert "Traceback" not in result.output


def test_revise_sends_the_earlier_card_to_the_model(anthropic_fake: FakeAnthropic) -> None:
    revised = {
        **FLIP_EACH_BIT_ONCE,
        "title": "two seeds",
        "params": {"n": 20, "k": 3, "seed": 8},
        "seeds": [8],
    }
    anthropic_fake.script += [
        tool_use_message(("propose_experiment", FLIP_EACH_BIT_ONCE)),
        tool_use_message(("propose_experiment", revised)),
    ]
    ctx = context(anthropic_fake)
    assert call(ctx, *IDEA.split())[1] == 0
    reply, status = call(ctx, "--revise", "1", "use", "seed", "8")
    assert status == 0, reply.text
    assert reply.text.startswith("idea #2: two seeds")
    prompt = anthropic_fake.requests[1].body["messages"][0]["content"]
    assert prompt.startswith(f"Earlier idea #1: {IDEA}")
    assert "'method': 'km_min'" in prompt and prompt.endswith("Revise that experiment as follows: use seed 8")
