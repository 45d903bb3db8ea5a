"""The judge's side cannot be made to hold what a hostile child sends (issue 29, point 1, the message bounds).

The attack: a solve() that answers with a huge list, so that its one result message (~23 MB of JSON) would be read,
buffered and parsed by the parent. The parent stops reading at the result cap (``Limits.output_bytes``, 64 KiB for
solve()), so what it allocates while judging stays near that cap, whatever the child sends. The oracle is Python's
own allocation tracer (tracemalloc) over the whole judgement, against the size of the message the child tried to
send (computed here from the same list).
"""

from __future__ import annotations

import json
import tracemalloc

import pytest

from engine.sandbox.judge import judge_solve
from engine.sandbox.limits import Limits
from engine.sandbox.tier import probe_tier

N = 3_000_000
HOSTILE = f"def solve(x, y, n_bits, k_sparse):\n    return list(range({N}))\n"


@pytest.mark.slow  # 0.6 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_huge_result_message_is_cut_off_at_the_cap() -> None:
    if not probe_tier().runs_submissions:
        pytest.skip("submitted code is not run here")
    limits = Limits(wall_s=30, cpu_s=20)
    sent = len(json.dumps({"type": "result", "answer": list(range(N))}))
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = judge_solve(HOSTILE, limits=limits)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert result.failure == f"result limit ({limits.output_bytes:,} bytes) exceeded"
    assert not result.ok
    assert sent > 20 * 1024 * 1024  # the child really tried to send over 20 MB
    assert peak < 4 * 1024 * 1024, f"the parent allocated {peak:,} bytes for a {sent:,}-byte message"
