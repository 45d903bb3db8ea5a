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
