"""The admins' run policy (``challenges.enabled``, ``methods.enabled``) is applied to the next request from
the terminal and the chat alike: a refused request is one line naming what is enabled, and nothing is stored."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bot.app import build_context
from bot.cli import main
from bot.commands import command_named
from bot.commands.base import Caller, Invocation
from bot.dispatch import execute
from tests.reference_data import REFERENCE


def sutro(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def stored_runs() -> int:
    code, out = sutro("runs", "--json")
    assert code == 0, out
    return len(json.loads(out)["runs"])


@pytest.mark.slow
def test_a_method_the_admins_did_not_enable_is_refused_and_not_stored() -> None:
    assert sutro("config", "set", "methods.enabled", "gf2,km")[0] == 0
    code, out = sutro("run", "sgd", "n=20", "--json")
    error = json.loads(out)["error"]
    assert code == 2 and error.startswith("method sgd is not enabled here — enabled: gf2, km;")
    assert "/config set methods.enabled" in error
    assert stored_runs() == 0
    code, out = sutro("run", "gf2", "n=20", "--json")
    assert code == 0 and json.loads(out)["accuracy"] == 1.0
    assert stored_runs() == 2  # gf2 and its sgd baseline, the system's own run
    code, out = sutro("run", "--json")
    assert code == 2 and "methods: gf2, km" in json.loads(out)["error"]


def test_a_challenge_the_admins_did_not_enable_refuses_scores_and_is_marked() -> None:
    program = str(REFERENCE / "ir" / "matmul__baseline_4x4.ir")
    assert sutro("config", "set", "challenges.enabled", "sparse_parity,matmul_16x16")[0] == 0
    code, out = sutro("score", program, "--json")
    error = json.loads(out)["error"]
    assert code == 2 and error.startswith("challenge matmul_4x4 is not enabled here — enabled: sparse_parity,")
    assert stored_runs() == 0
    listed = {c["name"]: c["enabled"] for c in json.loads(sutro("challenges", "--json")[1])["challenges"]}
    assert listed["matmul_4x4"] is False and listed["matmul_16x16"] is True
    assert sum(listed.values()) == 2
    assert sutro("config", "reset", "challenges.enabled")[0] == 0
    code, out = sutro("score", program, "--json")
    assert code == 0 and json.loads(out)["cost"] == 1316  # reference/expected.tsv


def test_the_policy_is_read_fresh_for_every_request() -> None:
    """A change from another process (the terminal) applies to the chat's next request without a restart."""
    ctx = build_context()
    member = Caller(name="ann", user_id=1, chat_id=-100)
    run = command_named("run")
    assert ctx.run_policy().methods[:2] == ("sgd", "local_update")
    assert sutro("config", "set", "methods.enabled", "none")[0] == 0
    reply, status = execute(ctx, run, Invocation(command="run", args=["gf2"], caller=member))
    assert status == 2 and reply.text.startswith("method gf2 is not enabled here — enabled: none;")


@pytest.mark.slow
def test_a_disabled_sgd_is_still_the_baseline_stored_as_the_systems() -> None:
    assert sutro("config", "set", "methods.enabled", "local_update")[0] == 0
    code, out = sutro("run", "local_update", "n=20", "seed=1", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["method"] == "local_update" and payload["vs_sgd"], out
    code, out = sutro("runs", "--json")
    owners = {r["subject"]: r["member"] for r in json.loads(out)["runs"]}
    assert owners["sgd"] == "(system)" and owners["local_update"] != "(system)"  # members may not run sgd; the
    # system may, for the baseline, and it is its own run
