"""Issue 29 (``What to build`` 3) through ``sutro submit``: the judge's own process runs a judgement under an
address-space limit of its own (``Limits.judge_memory_bytes``, engine/sandbox/judge_memory.py).

The budgets refuse every request whose result would pass 4 Mi elements before it runs, so an honest judge never
gets near the limit; the limit is the layer behind them. The attack therefore takes the budget away (the element
check made a no-op: a request the budgets misjudge) and asks for a 3.2 GB array. On the landed code nothing else
stood in the way: the judge's process mapped (and numpy wrote) all of it. Now the allocation fails, the judgement
ends in one line naming the limit, the soft limit is back to what it was, and the same process then judges the
honest brute force as before. Oracle: the limit's own figure (the allocation is 8x over it) and the honest run's
accuracy.
"""

from __future__ import annotations

import resource
from pathlib import Path

import pytest

from engine.sandbox.judge_memory import address_space_bytes, judge_address_space
from engine.sandbox.limits import DEFAULT_LIMITS, MIB
from engine.sandbox.remote import budget
from engine.sandbox.tier import TierReport
from tests.bot.test_submit_command import one_json, sandboxed, submit

__all__ = ["sandboxed"]  # the fixture, imported for the tests below

HONEST = Path(__file__).parents[1] / "engine/sandbox/submissions/brute_force_solve.py"
HOG = """import numpy as np

def solve(x, y, n_bits, k_sparse):
    hog = np.ones((20_000, 20_000))
    return [int(hog.sum())]
"""


@pytest.mark.slow
def test_a_request_the_budgets_misjudge_cannot_take_the_judges_memory(
    sandboxed: TierReport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = resource.getrlimit(resource.RLIMIT_AS)
    monkeypatch.setattr(budget, "check_size", lambda n, max_elements: None)
    path = tmp_path / "hog.py"
    path.write_text(HOG)
    code, out = submit(str(path), "--json")
    payload = one_json(out)
    assert code == 1 and payload["failure_kind"] == "limit", payload
    assert payload["failure"] == "judge memory limit (384 MiB for your code's requests) exceeded"
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    monkeypatch.undo()
    code, out = submit(str(HONEST), "--json")
    honest = one_json(out)
    assert code == 0 and honest["ok"] is True and honest["accuracy"] == 1.0, honest


def test_the_limit_is_the_size_at_start_plus_the_allowance_and_is_restored() -> None:
    before = resource.getrlimit(resource.RLIMIT_AS)
    size = address_space_bytes()
    with judge_address_space(DEFAULT_LIMITS.judge_memory_bytes) as limit:
        assert resource.getrlimit(resource.RLIMIT_AS)[0] == limit
        assert size <= limit - DEFAULT_LIMITS.judge_memory_bytes <= size + 64 * MIB
        with pytest.raises(MemoryError):
            bytearray(DEFAULT_LIMITS.judge_memory_bytes + 64 * MIB)
        with judge_address_space(DEFAULT_LIMITS.judge_memory_bytes) as both:  # a second judgement at once
            assert both == limit + DEFAULT_LIMITS.judge_memory_bytes
        assert resource.getrlimit(resource.RLIMIT_AS)[0] == limit
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    with judge_address_space(0) as none:
        assert none == 0 and resource.getrlimit(resource.RLIMIT_AS) == before
