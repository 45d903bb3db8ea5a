"""Issue 29 (``What to build`` 3) through ``sutro submit``: the judge prices a request's numpy work before running it,
so one huge call cannot carry the judge past its CPU allowance.

Each attack repeats the largest call of its kind the budgets allow (a float16 power, an argsort, an int64 matrix
product, an outer product, a ``.tolist()``) until the judge stops it. Oracle: an invariant. The numpy work
charged to the submission (``spent``, the judge's own account, recorded by wrapping
:func:`engine.sandbox.judge.cpu_allowance`) never passes ``Limits.parent_cpu_s`` (1.5 s). On the landed code the
allowance was checked after each request, so a run was stopped only once the charged work had passed it — by up to
one call's cost (a 2 Mi-element float16 power: about 0.14 s here) — and the refusal said "exceeded"; now the
refusal names the call and its estimate, and the charged work stays below the allowance (measured in one run:
bench/bench_judge_work.py). On a machine loaded enough, the wall-clock limit (10 s) can end a run first: the
invariant holds then too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.sandbox import judge as judge_module
from engine.sandbox.limits import DEFAULT_LIMITS, Limits
from engine.sandbox.tier import TierReport
from tests.bot.test_submit_command import one_json, sandboxed, submit

__all__ = ["sandboxed"]  # the fixture, imported for the tests below

_HEAD = "import numpy as np\n\ndef solve(x, y, n_bits, k_sparse):\n"
_LOOP = "    while True:\n        b = {}\n        del b\n"  # the operand and one result: within 4 Mi elements held
ATTACKS = {
    "float16 power": "    a = np.ones(2_000_000, dtype=np.float16) + 0.5\n" + _LOOP.format("a ** a"),
    "argsort": "    a = np.random.random(2_000_000)\n" + _LOOP.format("np.argsort(a)"),
    "int64 matmul": "    a = np.ones((368, 368), dtype=np.int64)\n" + _LOOP.format("a @ a"),
    "outer": "    v = np.random.random(2000)\n" + _LOOP.format("np.outer(v, v)"),
    "tolist": "    a = np.ones((256, 256))\n" + _LOOP.format("a.tolist()"),  # 65,536 handles made by the judge
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_one_huge_call_cannot_pass_the_judges_cpu_allowance(
    name: str, sandboxed: TierReport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[float]] = []
    real = judge_module.cpu_allowance

    def recording(
        limits: Limits, spent: list[float], judge_start: float, clock: list[float]
    ) -> Callable[[], tuple[float, str]]:
        seen.append(spent)
        return real(limits, spent, judge_start, clock)

    monkeypatch.setattr(judge_module, "cpu_allowance", recording)
    path = tmp_path / "attack.py"
    path.write_text(_HEAD + ATTACKS[name])
    code, out = submit(str(path), "--json")
    payload = one_json(out)
    assert code == 1 and payload["ok"] is False and payload["failure_kind"] == "limit", payload
    assert seen, "the judge built no allowance"
    spent = seen[-1][0]
    assert spent <= DEFAULT_LIMITS.parent_cpu_s, (name, spent, payload["failure"])
    if payload["failure"].startswith("judge CPU time limit"):  # on a machine loaded enough the wall clock ends it
        assert payload["failure"].startswith("judge CPU time limit (1.5 s of numpy work run for your code): ")
        assert "would need about" in payload["failure"] and "\n" not in payload["failure"]
