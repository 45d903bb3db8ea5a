"""``explore`` with a key: Claude proposes candidates as generate() code, run in the sandbox and judged like any.

The fake Messages API is scripted with four proposals after the built-in operators have done what they can on the
4×4 baseline (1,316 → 853): a good one (the group's published 667 record, which beats 853: kept), a bad one (the
published outer-product program, 800: passes, dearer than 667, discarded), a broken one (the baseline with one add
turned into a sub: the board's rule refuses it) and a hostile one (reads the process environment: stopped before
its IR exists). Oracles: the published costs 1,316 / 800 / 667 and the scorer's own refusal lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.fakes.anthropic_server import API_KEY, FakeAnthropic, tool_use_message
from tests.reference_data import REFERENCE

pytestmark = pytest.mark.timeout(120)
PUBLISHED = Path(__file__).resolve().parents[2] / "data" / "published" / "matmul"


def _generate(ir: str) -> str:
    return f"def generate():\n    return {ir!r}\n"


HOSTILE = """def generate():
    with open("/proc/self/environ") as f:
        return f.read()
"""


@pytest.mark.slow  # 1.0 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_claude_s_good_candidate_is_kept_and_the_others_are_refused_with_their_reasons(
    anthropic_fake: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUTRO_ANTHROPIC_API_KEY", API_KEY)
    monkeypatch.setenv("SUTRO_ANTHROPIC_BASE_URL", anthropic_fake.base_url)
    monkeypatch.setenv("SUTRO_ANTHROPIC_MAX_RETRIES", "0")
    baseline = (REFERENCE / "ir" / "matmul__baseline_4x4.ir").read_text()
    broken = baseline.replace("add ", "sub ", 1)
    proposals = [
        ("tile the products so each A value stays in a low cell", _generate((PUBLISHED / "best_667.ir").read_text())),
        (
            "an outer product keeps one B row hot",
            _generate((REFERENCE / "ir" / "matmul__outer_product_4x4.ir").read_text()),
        ),
        ("subtracting is as good as adding here", _generate(broken)),
        ("read the judge's environment for hints", HOSTILE),
    ]
    anthropic_fake.script += [
        tool_use_message(("propose_candidate", {"hypothesis": h, "code": c})) for h, c in proposals
    ]
    result = CliRunner().invoke(main, ["explore", "matmul_4x4", "--json"])
    assert "Traceback" not in result.output, result.output
    data = json.loads(result.output)
    assert data["start_cost"] == 1316  # the published naive 4×4
    claude = [s for s in data["steps"] if s["operator"] == "claude"]
    assert [s["outcome"] for s in claude] == ["kept", "discarded", "invalid", "invalid"]
    good, bad, wrong, hostile = claude
    assert good["cost"] == 667 and bad["cost"] == 800  # the group's published figures
    assert wrong["reason"].startswith("wrong answer on test instance 1/1")
    # the sandbox's own line (the child's environment is not readable: docs/sandbox.md)
    assert hostile["cost"] is None and hostile["reason"].startswith("the sandbox stopped it: line 2: PermissionError")
    assert data["best_cost"] == 667 and data["run_id"] is not None
    # what Claude was shown: the board, the best so far and the journal, never a secret
    first = anthropic_fake.requests[0].body
    assert first["tool_choice"] == {"type": "tool", "name": "propose_candidate"}
    prompt = first["messages"][0]["content"]
    assert prompt.startswith("Board: matmul_4x4") and "Journal so far" in prompt and API_KEY not in prompt
    # the fifth request found no scripted reply: the loop ended with the API's refusal in one line
    assert data["status"] == "finished" and "HTTP 400" in data["stop_reason"]


@pytest.mark.slow
def test_on_a_method_board_claude_proposes_parameters_checked_like_a_members_run(
    anthropic_fake: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`explore gf2` with a key: the built-in search halves and doubles m (its only knob) until nothing more helps,
    then Claude proposes settings. Scripted: m=25 (fewer rows still pin the secret), a knob gf2 does not have, m=0
    (out of range), a different instance (n=8: an easier problem would look cheaper), then nothing (HTTP 400).
    Oracles: the verdict of /run gf2 m=25 against /run gf2 at the loop's best over the same seeds (the same rule the
    loop applies), and the engine's own refusal lines for a member's /run."""
    from bot.core.verdict import Outcome, judge

    monkeypatch.setenv("SUTRO_ANTHROPIC_API_KEY", API_KEY)
    monkeypatch.setenv("SUTRO_ANTHROPIC_BASE_URL", anthropic_fake.base_url)
    monkeypatch.setenv("SUTRO_ANTHROPIC_MAX_RETRIES", "0")
    proposals = [
        ("fewer training rows still pin a 3-sparse secret", {"m": 25}),
        ("a smaller step size", {"lr": 0.01}),
        ("no rows at all", {"m": 0}),
        ("a smaller instance is cheaper", {"n": 8}),
    ]
    anthropic_fake.script += [
        tool_use_message(("propose_parameters", {"hypothesis": h, "params": p})) for h, p in proposals
    ]
    result = CliRunner().invoke(main, ["explore", "gf2", "--json"])
    assert "Traceback" not in result.output, result.output
    data = json.loads(result.output)
    assert data.get("board") == "sparse_parity" and data["params"] == {"n": 20, "k": 3}, data
    steps = data["steps"]
    claude = [s for s in steps if s["operator"] == "claude"]
    assert [s["hypothesis"] for s in claude] == [h for h, _ in proposals]
    fewer, lr, zero, smaller = claude
    assert lr["outcome"] == "invalid" and lr["reason"].startswith("refused: unknown parameter 'lr'")
    assert zero["outcome"] == "invalid" and "m=0 is out of range" in zero["reason"]
    assert smaller["outcome"] == "invalid" and "holds n fixed" in smaller["reason"] and smaller["cost"] is None
    # the good one was run like /run gf2 m=25 over the default seeds and judged against the best before it
    best_before = [s for s in steps[: steps.index(fewer)] if s["outcome"] == "kept"]
    best_m = "100" if best_before else "200"  # the built-in search's only kept move halves m once (200 → 100)
    assert [s["hypothesis"] for s in best_before] == ["halving m (200 → 100) lowers the cost and keeps the accuracy"]
    seeds = {}
    for m in ("25", best_m):
        shown = json.loads(CliRunner().invoke(main, ["run", "gf2", f"m={m}", "--json"]).output)
        assert shown["reused"] is True  # the loop stored it; /run answers from the store
        seeds[m] = shown["seed_metrics"]["dmc@1"]
    verdict = judge(seeds["25"], seeds[best_m])
    assert verdict.outcome is Outcome.WIN and fewer["outcome"] == "kept"  # beyond the seeds' noise: kept
    # the built-in search then moved from the new best: m=12 is below gf2's n+1 rows, refused when it runs (one step)
    after = steps[steps.index(fewer) + 1]
    assert after["operator"] == "m×0.5" and after["outcome"] == "invalid"
    assert "n+1 = 21 training rows" in after["reason"]
    assert data["best_cost"] == fewer["cost"] and data["run_id"] is not None
    assert fewer["cost"] == round(sum(seeds["25"]) / len(seeds["25"]))
    # what Claude was shown: the knob with its range and value, never the seeds to change or a secret
    prompt = anthropic_fake.requests[0].body["messages"][0]["content"]
    assert "m: int in [1, 100000], training samples; now 100" in prompt and API_KEY not in prompt
    assert anthropic_fake.requests[0].body["tool_choice"] == {"type": "tool", "name": "propose_parameters"}
    assert data["status"] == "finished" and "HTTP 400" in data["stop_reason"]
