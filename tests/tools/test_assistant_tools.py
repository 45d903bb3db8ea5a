"""The assistant's tools and contract check, called directly (no model): what the model would be told."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import build_context
from bot.core.recording import record_once
from bot.settings import Settings
from engine.methods import run_method
from tools.assistant.contract import check_submission
from tools.assistant.prompt import PROPOSE_TOOL, TOOLS, system_prompt
from tools.assistant.spec import Submission
from tools.assistant.toolbox import TOOLS as REGISTRY
from tools.assistant.toolbox import Toolbox
from tools.run_request import NormalisedRequest

pytestmark = pytest.mark.timeout(60)

GENERATE_1X1 = 'def generate():\n    return "1,2\\nmul 3,1,2\\n3"\n'


@pytest.fixture
def box(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> Toolbox:
    ctx = build_context(Settings(data_dir=migrated_data_dir(tmp_path)))
    request = NormalisedRequest(challenge="sparse_parity", kind="method", subject="km", params={"seed": 3})
    record_once(ctx, request, lambda: run_method("km", {"seed": 3}), member="ada")
    return Toolbox(ctx.sessions())


def test_the_prompt_describes_exactly_the_registered_tools() -> None:
    assert {t["name"] for t in TOOLS} == set(REGISTRY) | {PROPOSE_TOOL}
    prompt = system_prompt()
    for contract in (
        "solve(x, y, n_bits, k_sparse)",
        "sorted list of ints",
        "`generate()`",
        "import numpy as np",
    ):
        assert contract in prompt
    assert "- km_min [solver]" in prompt and "- matmul_4x4 (ir, primary metric dally@1)" in prompt


@pytest.mark.slow  # 2.1 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_read_only_tools_answer_from_storage(box: Toolbox) -> None:
    ok, text = box.call("leaderboard", {"challenge": "sparse_parity"})
    board = json.loads(text)
    assert ok and board["metric"] == "dmc@1"
    (only,) = board["boards"]  # km asks membership queries: the oracle solvers' board of the standard instance
    assert only["board"] == "sparse_parity n=20 k=3 · oracle solver · dmc@1" and only["rows"][0][1:3] == ["ada", "km"]
    ok, text = box.call("read_run", {"run_id": 1})
    assert ok and json.loads(text)["summary"].startswith("#1 sparse_parity / km by ada")
    ok, text = box.call("records", {"challenge": "sparse_parity"})
    assert ok and "ada" in text


@pytest.mark.slow
def test_bad_tool_input_is_answered_not_raised(box: Toolbox) -> None:
    ok, text = box.call("leaderboard", {"challenge": "sparse_parit"})
    assert not ok and "did you mean 'sparse_parity'" in text
    assert box.call("read_run", {"run_id": 99}) == (
        False,
        "no run #99 — run ids go from 1 to 1; see recent ones with: runs",
    )
    ok, text = box.call("rm_rf", {})
    assert not ok and text.startswith("unknown tool 'rm_rf'")
    ok, text = box.call("check_code", {"form": "solve", "challenge": "sparse_parity"})
    assert not ok and "needs 'code'" in text


@pytest.mark.slow
def test_generate_is_dry_run_and_priced() -> None:
    # hand calculation (Dally spiral, docs/metrics.md#dally-ir-cost): reads of addresses 1 and 2 cost 1 and 2, the
    # output read of 3
    # costs 2 -> 5
    check = check_submission(Submission("generate", "matmul_1x1", code=GENERATE_1X1))
    assert check == check.__class__(True, "ok: the IR is correct on matmul_1x1's tests, dally@1 = 5")
    wrong = check_submission(Submission("generate", "matmul_4x4", code=GENERATE_1X1))
    assert not wrong.ok and "this challenge has 32 inputs" in wrong.message


def test_contract_mismatches_are_one_line() -> None:
    solve = "import numpy as np\ndef solve(x, y, n_bits, k_sparse):\n    return [0]\n"
    assert check_submission(Submission("generate", "matmul_1x1", code=solve)).message == (
        "the code is a solve submission but the form says generate"
    )
    assert (
        "solve() is judged on sparse_parity" in check_submission(Submission("solve", "matmul_1x1", code=solve)).message
    )
    assert check_submission(Submission("method", "sparse_parity", "km", {"lr": 3})).message.startswith(
        "unknown parameter 'lr'"
    )
    assert check_submission(Submission("method", "nope", "km")).message.startswith("unknown challenge 'nope'")
