"""The attacks of issue 29, each through ``sutro submit`` (the command layer the chat uses too), on this machine's
sandbox tier. Each one succeeded on the code before the fix; here each ends in the verdict it should.

The attack programs are in ``tests/bot/attacks/``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from bot.cli import main
from engine.sandbox.tier import TierReport, probe_tier

ATTACKS = Path(__file__).resolve().parent / "attacks"
CANARY = 0x5A17_C0DE_5A17_C0DE


def submit(*args: str, stdin: bytes | None = None) -> tuple[int, dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, ["submit", *args, "--json"], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return result.exit_code, json.loads(lines[0])


@pytest.fixture
def sandboxed() -> TierReport:
    tier = probe_tier()
    if not tier.runs_submissions:
        pytest.skip(f"{tier.description}: submitted code is not run here")
    return tier


@pytest.mark.slow
def test_np_empty_hands_out_none_of_the_judges_memory(sandboxed: TierReport) -> None:
    # canaries in the judge's process (the CLI judges in this process): small blocks filled and freed, which the
    # allocator hands out again; the attack raises with a count of every non-zero value np.empty gave it
    for n in (1, 2, 3, 4, 5, 8, 16, 20, 32, 64, 100, 128):
        for _ in range(8):
            planted = np.full(n, CANARY, dtype=np.uint64)
            del planted
    code, payload = submit(str(ATTACKS / "empty_reads_the_judge.py"))
    assert payload["failure"] is None and code == 0
    assert payload["ok"] is True and payload["accuracy"] == 1.0  # it went on to the honest brute force


def _database_bytes(data_dir: Path) -> int:
    return sum(p.stat().st_size for p in data_dir.rglob("*.db*"))


def test_a_39_mib_submission_is_refused_in_one_line_and_nothing_is_stored(tmp_path: Path) -> None:
    data_dir = tmp_path / "sutro-data"
    padding = b"# IR padding\n" * (39 * 2**20 // 13)  # 39 MiB of IR text, as in the issue
    code, payload = submit("-", stdin=padding)
    assert code == 2 and "\n" not in payload["error"]
    assert payload["error"].startswith(f"the submission is {len(padding):,} bytes, over the limit of 8,192 KiB")
    assert "limits.code_kib" in payload["error"]
    before = _database_bytes(data_dir)
    code, payload = submit("-", stdin=padding)
    assert code == 2 and _database_bytes(data_dir) == before  # nothing stored, the second time either
    assert not list(data_dir.rglob("*.md")) or all("padding" not in p.read_text() for p in data_dir.rglob("*.md"))


@pytest.mark.slow
def test_pow_shift_and_multiply_chains_cost_the_judge_no_more_than_honest_work(sandboxed: TierReport) -> None:
    # the element shadow computes at numpy's fixed width: the powers and shifts wrap as numpy's arrays do, and the
    # run goes on to the honest brute force (the judge's CPU for that is ~2 s; before, 58 s went into the power)
    cpu = time.thread_time()
    code, payload = submit(str(ATTACKS / "pow_then_brute_force.py"))
    cpu = time.thread_time() - cpu
    assert payload["failure"] is None and payload["ok"] is True and code == 0
    assert "bytedmd@2" in payload["metrics"]
    assert cpu < 10.0
