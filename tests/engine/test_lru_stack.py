"""LRU stacks against a plain list-scan oracle (hypothesis) and the hand-worked cases.

ByteDMD depths have two implementations: the array-operation pass (``bytedmd_depths_offline``, always present) and
the compiled pass (``engine/metrics/bytedmd_kernel.pyx``, present when the install had a C compiler). Each is checked
against the list oracle, and the two against each other on random traces and on the reference outputs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.metrics import lru_stack
from engine.metrics.lru_stack import _count_at_least, bytedmd_depths, bytedmd_depths_offline, observe_depths

compiled = pytest.mark.skipif(
    not lru_stack.COMPILED, reason="the compiled depth pass is not built in this install (or SUTRO_PURE_PYTHON is set)"
)


def list_bytedmd(ops, keep):
    """Oracle: the reference discipline with a Python list (top = end), written from docs/metrics.md#bytedmd."""
    last = {}
    for t, (kind, keys) in enumerate(ops):
        for key in keys:
            if kind == "read" or key not in last:
                last[key] = t
    for key in keep:
        last[key] = len(ops)
    stack, out = [], []
    for t, (kind, keys) in enumerate(ops):
        if kind == "store":
            stack.append(keys[0])
        else:
            depth = {k: len(stack) - stack.index(k) for k in keys}
            out.extend(depth[k] for k in keys)
            for k in dict.fromkeys(keys):
                stack.remove(k)
                stack.append(k)
        stack = [k for k in stack if last[k] > t]
    return out


def flatten(ops):
    kind, key, op = [], [], []
    for t, (k, keys) in enumerate(ops):
        for x in keys:
            kind.append(k == "store")
            key.append(x)
            op.append(t)
    return kind, key, op


@st.composite
def programs(draw):
    n_inputs = draw(st.integers(1, 6))
    ops = [("store", [i]) for i in range(n_inputs)]
    live = list(range(n_inputs))
    for _ in range(draw(st.integers(0, 25))):
        operands = draw(st.lists(st.sampled_from(live), min_size=1, max_size=3))
        ops.append(("read", operands))
        ops.append(("store", [len(live)]))
        live.append(len(live))
    keep = draw(st.lists(st.sampled_from(live), max_size=3))
    return ops, keep


@given(programs())
@settings(max_examples=200, deadline=None)
@pytest.mark.slow
def test_bytedmd_depths_match_list_oracle(case):
    ops, keep = case
    kind, key, op = flatten(ops)
    assert bytedmd_depths(kind, key, op, keep).tolist() == list_bytedmd(ops, keep)
    assert bytedmd_depths_offline(kind, key, op, keep).tolist() == list_bytedmd(ops, keep)


def list_observe(events):
    stack, out = [], []  # index 0 = top
    for is_write, key in events:
        if is_write:
            if key in stack:
                stack.remove(key)
            stack.insert(0, key)
        else:
            out.append(stack.index(key) + 1 if key in stack else len(stack) + 1)
    return out


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), max_size=60))
@settings(max_examples=200, deadline=None)
def test_observe_depths_match_list_oracle(events):
    w = [e[0] for e in events]
    k = [e[1] for e in events]
    assert observe_depths(w, k).tolist() == list_observe(events)


def test_write_a_write_b_read_a_write_c_read_a():
    # docs/metrics.md#lru-stack-distance: the published splay-tree tracker answers 2 for the last read; the LRU answer
    # is 3
    a, b, c = 0, 1, 2
    depths = observe_depths([True, True, False, True, False], [a, b, a, c, a])
    assert depths.tolist() == [2, 3]


def test_cold_read_costs_live_plus_one():
    assert observe_depths([True, True, False], [0, 1, 9]).tolist() == [3]


@st.composite
def long_programs(draw):
    """Programs long enough to cross the dominance counter's leaf size and several tree levels."""
    n_inputs = draw(st.integers(1, 40))
    ops = [("store", [i]) for i in range(n_inputs)]
    live = list(range(n_inputs))
    for _ in range(draw(st.integers(20, 160))):
        operands = draw(st.lists(st.sampled_from(live), min_size=1, max_size=3))
        ops.append(("read", operands))
        ops.append(("store", [len(live)]))
        live.append(len(live))
    keep = draw(st.lists(st.sampled_from(live), max_size=5))
    return ops, keep


@pytest.mark.slow
@given(long_programs())
@settings(max_examples=60, deadline=None)
def test_bytedmd_depths_of_long_programs_match_list_oracle(case):
    ops, keep = case
    kind, key, op = flatten(ops)
    assert bytedmd_depths(kind, key, op, keep).tolist() == list_bytedmd(ops, keep)
    assert bytedmd_depths_offline(kind, key, op, keep).tolist() == list_bytedmd(ops, keep)


def random_trace(rng, n_inputs, n_ops, max_operands):
    """A random element trace as the tracer writes it: inputs stored, then read batches each followed by a store of
    its result; operands drawn with a bias to recent values (as loops make them), repeats allowed."""
    kind, key, op = [], [], []
    t = 0
    for i in range(n_inputs):
        kind.append(True), key.append(i), op.append(t)
        t += 1
    n_keys = n_inputs
    for _ in range(n_ops):
        width = int(rng.integers(1, max_operands + 1))
        back = np.minimum(rng.geometric(0.05, size=width), n_keys)
        for k in (n_keys - back).tolist():
            kind.append(False), key.append(k), op.append(t)
        t += 1
        kind.append(True), key.append(n_keys), op.append(t)
        t += 1
        n_keys += 1
    keep = rng.choice(n_keys, size=min(n_keys, int(rng.integers(0, 20))), replace=False)
    return np.array(kind), np.array(key, dtype=np.int64), np.array(op, dtype=np.int64), keep


@pytest.mark.slow  # 0.6 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
@compiled
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(0, 3000), st.integers(1, 4))
@settings(max_examples=80, deadline=None)
def test_compiled_and_array_depths_are_identical_on_random_traces(seed, n_inputs, n_ops, max_operands):
    kind, key, op, keep = random_trace(np.random.default_rng(seed), n_inputs, n_ops, max_operands)
    want = bytedmd_depths_offline(kind, key, op, keep)
    got = bytedmd_depths(kind, key, op, keep)
    assert got.dtype == np.int64 and got.tolist() == want.tolist()


@compiled
def test_compiled_depths_with_sparse_keys_are_those_of_the_dense_renumbering():
    # keys far apart (≥ 2**40) take the renumbering branch; depths depend only on the order of accesses
    kind, key, op, keep = random_trace(np.random.default_rng(7), 50, 400, 3)
    sparse = key * 2**40 + 3
    want = bytedmd_depths_offline(kind, key, op, keep).tolist()
    assert bytedmd_depths(kind, sparse, op, keep * 2**40 + 3).tolist() == want


@pytest.mark.parametrize("depths", [bytedmd_depths, bytedmd_depths_offline])
def test_a_read_before_its_store_is_refused_by_both_passes(depths):
    with pytest.raises(ValueError, match="before it is stored"):
        depths([True, False], [0, 1], [0, 1])


@pytest.mark.parametrize("depths", [bytedmd_depths, bytedmd_depths_offline])
def test_empty_and_store_only_traces_have_no_depths(depths):
    assert depths([], [], []).tolist() == []
    assert depths([True, True], [0, 1], [0, 1], [1]).tolist() == []


@given(st.lists(st.integers(0, 40), max_size=300), st.data())
@settings(max_examples=150, deadline=None)
def test_dominance_counts_match_brute_force(values, data):
    v = np.array(values, dtype=np.int64)
    queries = data.draw(st.lists(st.tuples(st.integers(0, len(values)), st.integers(0, 42)), min_size=1, max_size=40))
    prefix = np.array([q[0] for q in queries], dtype=np.int64)
    threshold = np.array([q[1] for q in queries], dtype=np.int64)
    want = [int((v[:c] >= t).sum()) for c, t in queries]
    assert _count_at_least(v, prefix, threshold).tolist() == want
