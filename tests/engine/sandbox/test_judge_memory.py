"""Nothing of the judge's own memory reaches a submission (issue 29, point 1).

The attack: ``np.empty`` in a solve() made the parent allocate uninitialised memory and hand it to the child, which
read freed instance data (2 of 3 secret columns), pointers and reply text from it. The oracle here is the
definition: every array the parent creates for a request holds only values the request defines, so an
``empty``-like constructor answers zeros. Canaries are planted in the parent first (small blocks filled and freed,
which numpy's allocator and malloc hand out again), and every constructor the allow-list offers is scanned for
them, at every allowed dtype and a range of sizes.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from engine.sandbox.judge import judge_solve
from engine.sandbox.limits import Limits
from engine.sandbox.remote import allowlist as al
from engine.sandbox.remote.session import Session
from engine.sandbox.tier import probe_tier

CANARY = 0x5A17_C0DE_5A17_C0DE
SIZES = (1, 2, 3, 4, 5, 8, 16, 20, 32, 64, 100, 128, 200, 1000)


def _plant_canaries() -> None:
    for n in SIZES:
        for _ in range(8):
            planted = np.full(n, CANARY, dtype=np.uint64)
            del planted


def _session(x: np.ndarray, y: np.ndarray) -> Session:
    return Session([x, y], max_elements=100_000, max_ops=100_000, element_trace=False)


def _values(session: Session, reply: dict) -> list:  # type: ignore[type-arg]
    hid = reply["r"]["a"][0]
    flat = session.handle({"op": "meth", "t": hid, "a": ["ravel"]})
    assert flat is not None
    out = session.handle({"op": "meth", "t": flat["r"]["a"][0], "a": ["tolist"]})
    assert out is not None  # each element a 0-d array held by the parent: what a crossing (int(), float()) reads
    return [session.held(element["a"][0]).item() for element in out["r"]["l"]]


@pytest.mark.parametrize("dtype", sorted(al.DTYPES))
def test_every_constructor_returns_defined_contents(dtype: str) -> None:
    rng = np.random.default_rng(7)
    x = rng.choice(np.array([-1, 1]), size=(200, 20))
    y = np.prod(x[:, [3, 7, 11]], axis=1)
    session = _session(x, y)
    for n in SIZES:
        _plant_canaries()
        for name in ("empty", "zeros"):
            values = _values(session, session.handle({"op": "np", "a": [name, n], "k": {"dtype": {"d": dtype}}}))
            assert values == [0] * n, f"np.{name}({n}, dtype={dtype}) handed out the judge's memory"
        _plant_canaries()
        for name in ("empty_like", "zeros_like"):
            values = _values(session, session.handle({"op": "np", "a": [name, {"h": 1}], "k": {"dtype": {"d": dtype}}}))
            assert values == [0] * len(y), f"np.{name}(y, dtype={dtype}) handed out the judge's memory"


def test_the_zeroed_constructors_are_allowed_ones() -> None:
    assert set(al.ZEROED) <= set(al.FUNCTIONS) and set(al.ZEROED.values()) <= set(al.FUNCTIONS)
    assert all(al.FUNCTIONS[name] == al.CREATE for name in al.ZEROED)


def test_the_judges_whole_cpu_for_a_submission_is_capped() -> None:
    """As many cheap requests as a run allows (each one a round trip the parent answers): the judge's thread stops
    at ``judge_cpu_s`` for all of it, not at the child's wall clock or the operation limit (which allowed ~5 s of
    the judge's CPU per instance, three instances)."""
    if not probe_tier().runs_submissions:
        pytest.skip("submitted code is not run here")
    limits = Limits(judge_cpu_s=0.3, wall_s=30, cpu_s=20)
    code = "def solve(x, y, n_bits, k_sparse):\n    row = x[0]\n    while True:\n        int(row[0])\n"
    cpu = time.thread_time()
    result = judge_solve(code, limits=limits)
    cpu = time.thread_time() - cpu
    assert result.failure == "judge CPU time limit (0.3 s for all of your code's requests) exceeded"
    assert not result.ok and cpu < 0.3 + 0.2  # one request past the limit, and the child's start and stop


@pytest.mark.slow  # 1.5 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_the_element_trace_holds_a_bounded_number_of_tracked_values() -> None:
    """Each step leaves 500,000 tracked values alive (one element of x broadcast; ~44 MiB in the judge each); the
    CPU and access bounds would let a handful through, the bound on values held stops the shadow before the step
    that would pass 2**20 (bytedmd@2 not computed, the run judged as usual), and then it holds none."""
    rng = np.random.default_rng(3)
    x = rng.choice(np.array([-1, 1]), size=(200, 20))
    session = Session([x, np.prod(x[:, [1, 2, 3]], axis=1)], max_elements=4 * 2**20, max_ops=100)
    corner = session.handle({"op": "get", "t": 0, "a": [{"t": [{"s": [0, 1, None]}, {"s": [0, 1, None]}]}]})
    zeros = session.handle({"op": "np", "a": ["zeros", {"t": [2000, 250]}], "k": {}})
    assert corner is not None and zeros is not None
    for step in range(3):
        session.handle({"op": "bin", "a": ["add", {"h": corner["r"]["a"][0]}, {"h": zeros["r"]["a"][0]}]})
        assert session.shadow.active is (step < 2)
        assert session.shadow._held <= session.shadow.max_held
    assert session.shadow.stopped is not None and "2**20" not in session.shadow.stopped
    assert "1,048,576 tracked values" in session.shadow.stopped
    assert session.shadow._held == 0 and "bytedmd@2" not in session.metrics()
