"""The judge's price is never below in-process tracing, for every operation on the allow-list.

Issue 29, point 2: the same program runs (a) through the real child stand-in (``engine.sandbox.remote.client``)
against a parent ``Session``, and (b) in-process with real numpy, traced twice: with ``engine.tracing.TrackedArray``
(the group's convention, oracle of ``dmc@1``) and with the element tracer (``engine.metrics.bytedmd.bytedmd``,
oracle of ``bytedmd@2``). The remote price must be at least the traced one on both metrics.

Programs are drawn from the allow-list itself (``allowlist.BINARY_OPERATORS``, ``UNARY_OPERATORS``, ``METHODS``,
``FUNCTIONS`` and ``randomness.DRAWS``), each name called with one of a few generic argument patterns (an array, two
arrays, an array and an int …) — the pattern the plain numpy run accepts is kept, so no hand list of supported calls
is needed. Besides, every program may copy into ``np.zeros`` (``t[...] = a``), take a value across to the child
(``int``/``float``/``bool``) and compute on ``.tolist()`` elements. Random draws come from the same seeded generator
on both sides (the parent's generator is replaced for the test), so data-dependent shapes agree.
"""

from __future__ import annotations

import operator
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.metrics.bytedmd import BYTEDMD, bytedmd
from engine.metrics.clock import clock_metrics
from engine.sandbox.remote import allowlist, client, randomness
from engine.sandbox.remote.allowlist import Refused
from engine.sandbox.remote.session import Session
from engine.tracing.event_log import EventLog
from engine.tracing.tracked_array import track
from tests.engine.sandbox.conftest import proxies_released
from tests.engine.sandbox.test_solve_bytedmd import _described, _SessionReader

X = np.array([[1, -1, 2], [0, 1, -1], [3, 1, 1], [-2, 0, 1]], dtype=np.int64)
Y = np.array([1, -1, 1, 2], dtype=np.int64)
SEED = 29

Args = Callable[[Any, Any, Any], tuple[Any, ...]]
PATTERNS: list[Args] = [
    lambda np_, a, b: (a,),
    lambda np_, a, b: (a, b),
    lambda np_, a, b: (a, 1),
    lambda np_, a, b: (a, 0),
    lambda np_, a, b: (a, -1),
    lambda np_, a, b: (a, 0.0),
    lambda np_, a, b: (a, 0, 1),
    lambda np_, a, b: (a, b, b),
    lambda np_, a, b: ([a, b],),
    lambda np_, a, b: ((2, 3),),
    lambda np_, a, b: ((2, 3), 2),
    lambda np_, a, b: (3,),
    lambda np_, a, b: (0, 4),
]
KEYWORDS: list[Callable[[Any], dict[str, Any]]] = [
    lambda np_: {},
    lambda np_: {"dtype": np_.float64},
    lambda np_: {"dtype": np_.int8},
    lambda np_: {"axis": 0},
    lambda np_: {"size": 3},
]
OPERATORS = {n: getattr(operator, n + "_" if n in ("and", "or") else n) for n in allowlist.BINARY_OPERATORS}
UNARY = {name: getattr(operator, name) for name in allowlist.UNARY_OPERATORS}
KINDS: dict[str, list[str]] = {
    "bin": sorted(OPERATORS),
    "un": sorted(UNARY),
    "meth": sorted(allowlist.METHODS),
    "np": sorted(allowlist.FUNCTIONS),
    "rng": list(randomness.DRAWS),
    "extra": ["copy_into_zeros", "int", "float", "bool", "tolist"],
}
ALL_OPERATIONS = {(kind, name) for kind, names in KINDS.items() for name in names}

_step = st.tuples(
    st.sampled_from(sorted(ALL_OPERATIONS)),
    st.integers(0, len(PATTERNS) - 1),
    st.integers(0, len(KEYWORDS) - 1),
    st.integers(0, 20),
    st.integers(0, 20),
).map(lambda t: (*t[0], *t[1:]))


class _Draws:
    """``np.random`` as the parent offers it: every name goes through :func:`randomness.draw` on one generator."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(SEED)

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: randomness.draw(self.rng, name, list(args), kwargs, 10_000)


def _step_once(np_: Any, random: Any, pool: list[Any], step: tuple[Any, ...]) -> Any:
    kind, name, pattern, keywords, i, j = step
    a, b = pool[i % len(pool)], pool[j % len(pool)]
    if kind == "bin":
        return OPERATORS[name](a, b) if pattern % 3 == 0 else OPERATORS[name](a, 2) if pattern % 3 == 1 else (
            OPERATORS[name](3, a))  # fmt: skip
    if kind == "un":
        return UNARY[name](a)
    args, kwargs = PATTERNS[pattern](np_, a, b), KEYWORDS[keywords](np_)
    if kind == "meth":
        return a.T if name == "T" else getattr(a, name)(*args[1:], **kwargs)
    if kind == "np":
        return getattr(np_, name)(*args, **kwargs)
    if kind == "rng":
        return getattr(random, name)(*args, **kwargs)
    if name == "copy_into_zeros":
        target = np_.zeros(a.shape, dtype=np_.float64 if keywords % 2 else np_.int64)
        target[...] = a
        return target
    if name == "tolist":
        values = a.ravel().tolist()
        return values[0] * values[-1] + values[-1]
    first = a.ravel()[0]
    crossed = {"int": int, "float": float, "bool": bool}[name](first)
    return a * crossed  # the crossed value used as a plain number


def run(np_: Any, random: Any, x: Any, y: Any, steps: list[tuple[Any, ...]]) -> None:
    """The program: each step's array results join the pool the later steps draw their operands from."""
    pool = [x, y]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in steps:
            out = _step_once(np_, random, pool, step)
            for value in out if isinstance(out, tuple) else (out,):
                if getattr(value, "ndim", 0) >= 1 and value.size <= 64:
                    pool.append(value)


class _AsJudged:
    """numpy as the judge offers it to a submission, for the in-process runs: ``empty``/``empty_like`` hand out zeros
    (``allowlist.ZEROED``), so the plain, traced and judged runs see the same values. With numpy's own uninitialised
    memory a program's validity was chance: hypothesis found ``empty_like`` then ``pow`` passing the validity run and
    raising in the traced one (negative integer powers of whatever the memory held), on 2026-11-29."""

    def __getattr__(self, name: str) -> Any:
        return getattr(np, allowlist.ZEROED.get(name, name))


NP_AS_JUDGED = _AsJudged()


def _valid(program: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The steps plain numpy runs without an exception, and whose results the tracers can hold."""
    kept: list[tuple[Any, ...]] = []
    for kind, name, pattern, keywords, i, j in program:
        for tried in range(len(PATTERNS) * 2):  # the drawn argument pattern first, then the others
            step = (kind, name, (pattern + tried) % len(PATTERNS), keywords if tried < len(PATTERNS) else 0, i, j)
            try:
                run(NP_AS_JUDGED, _Draws(), X.copy(), Y.copy(), [*kept, step])
            except Exception:  # noqa: BLE001 — any failure: try the next pattern
                continue
            kept.append(step)
            break
    return kept


def _traced_dmc(steps: list[tuple[Any, ...]]) -> float:
    log = EventLog()
    run(NP_AS_JUDGED, _Draws(), track(X.copy(), log), track(Y.copy(), log), steps)
    return clock_metrics(*log.arrays())["dmc@1"]


def _traced_bytedmd(steps: list[tuple[Any, ...]]) -> int | None:
    """In-process bytedmd@2; None where numpy cannot run the program on tracked elements (object arrays)."""
    try:
        return bytedmd(lambda x, y: run(NP_AS_JUDGED, _Draws(), x, y, steps), (X.copy(), Y.copy()))
    except Exception:  # noqa: BLE001 — e.g. np.exp of an object array: no in-process figure to compare with
        return None


def _remote(steps: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch) -> dict[str, float] | None:
    """The judge's metrics for the program; None when the judge refuses one of its requests (a budget or a
    stricter argument check, e.g. an array as ``np.ones``'s shape): refused work has no price to compare."""
    monkeypatch.setattr(randomness, "new_generator", lambda: np.random.default_rng(SEED))
    session = Session([X.copy(), Y.copy()], max_elements=100_000, max_ops=100_000)
    fd_in, fd_out = os.pipe()
    real_numpy = sys.modules["numpy"]
    with proxies_released():
        try:
            remote = client.connect(
                fd_out, _SessionReader(session, fd_in), sorted(allowlist.FUNCTIONS), sorted(allowlist.DTYPES)
            )
            sys.modules["numpy"] = real_numpy
            x, y = (client.RemoteArray(h, tuple(shape), dtype) for h, shape, dtype in _described(session))
            try:
                run(remote, remote.random, x, y, steps)
            except Refused:
                return None
            finally:
                del x, y
        finally:
            sys.modules["numpy"] = real_numpy
            client.flush()
            os.close(fd_out)
    return session.metrics()


DMC_BELOW_TRACED: frozenset[tuple[str, str]] = frozenset()
"""Operations whose ``dmc@1`` the judge charges below the tracer: none. ``a.reshape(b)`` with an array ``b`` as the
new shape (the tracer records numpy reading ``b`` through its conversion to a shape) and ``permutation(a, axis)``
(numpy copies and shuffles ``a`` through the subclass's indexing, each step an event) were the last two; like
``a.std()``/``a.var()`` and stacking one 2-D array before them, the judge now charges numpy's steps
(engine/sandbox/remote/replay.py; test_the_former_dmc_gaps_are_closed)."""

COVERED: dict[str, set[tuple[str, str]]] = {"dmc@1": set(), BYTEDMD: set()}
PROGRAMS = {"dmc@1": 0, BYTEDMD: 0}
REFUSED = [0]
SWEPT: set[tuple[str, str]] = set()  # operations whose deterministic programs ran in this process


def _compare(steps: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Assert the property on one valid program, and count what was compared."""
    remote = _remote(steps, monkeypatch)
    if remote is None:
        REFUSED[0] += 1
        return
    if not DMC_BELOW_TRACED & {(s[0], s[1]) for s in steps}:
        traced_dmc = _traced_dmc(steps)
        assert remote["dmc@1"] >= traced_dmc - 1e-9 * max(1.0, traced_dmc), (steps, remote, traced_dmc)
        COVERED["dmc@1"] |= {(s[0], s[1]) for s in steps}
        PROGRAMS["dmc@1"] += 1
    traced_bytedmd = _traced_bytedmd(steps)
    if traced_bytedmd is not None:
        assert BYTEDMD in remote, steps
        assert remote[BYTEDMD] >= traced_bytedmd, (steps, remote[BYTEDMD], traced_bytedmd)
        COVERED[BYTEDMD] |= {(s[0], s[1]) for s in steps}
        PROGRAMS[BYTEDMD] += 1


@pytest.mark.slow
@pytest.mark.parametrize("kind_name", sorted(ALL_OPERATIONS), ids=lambda kn: ".".join(kn))
def test_every_operation_alone_and_after_another(kind_name: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each allow-listed operation on the inputs, on an input and a fresh result, and with a second argument
    pattern and keyword: the property on each valid program."""
    kind, name = kind_name
    SWEPT.add(kind_name)
    for program in (
        [(kind, name, 0, 0, 0, 1)],
        [("bin", "add", 0, 0, 0, 0), (kind, name, 0, 0, 2, 1)],
        [(kind, name, 1, 0, 1, 0)],
        [(kind, name, 0, 1, 0, 1)],
        [(kind, name, 0, 3, 1, 0), ("meth", "sum", 0, 0, 2, 0)],
    ):
        steps = _valid(program)
        if steps:
            _compare(steps, monkeypatch)


@pytest.mark.slow
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(program=st.lists(_step, min_size=1, max_size=6))
# found by hypothesis on 2026-11-29: permutation(a, 1, axis=0) — the draw drops the keyword it does not pass to numpy,
# and the judge's replay of the shuffle passed it on (numpy: axis given twice; the judge answered TypeError)
@example(program=[("bin", "add", 0, 0, 0, 0), ("rng", "permutation", 2, 3, 0, 0)])
def test_the_judge_never_charges_less_than_in_process_tracing(
    program: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = _valid(program)
    if not steps:
        return
    _compare(steps, monkeypatch)


@pytest.mark.parametrize("step", [("meth", "reshape", 1, 0, 0, 1), ("rng", "permutation", 3, 0, 1, 0)])
def test_the_former_dmc_gaps_are_closed(step: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """The two programs that were below the tracer on ``dmc@1`` (until 2026-11-29: the judge charged one read of
    the shape array, and of the permuted array, where the tracer records numpy's conversion and shuffle steps) now
    cost at least what the tracer charges, on both metrics."""
    steps = _valid([step])
    assert steps
    remote = _remote(steps, monkeypatch)
    assert remote is not None and remote["dmc@1"] >= _traced_dmc(steps) > 0
    traced = _traced_bytedmd(steps)
    assert traced is None or remote[BYTEDMD] >= traced


@pytest.mark.slow
def test_the_property_covered_the_allow_list() -> None:
    """Runs after the property (file order): how many programs and operations were compared, printed for the
    report, and the comparison was not vacuous."""
    for metric in ("dmc@1", BYTEDMD):
        missing = sorted(ALL_OPERATIONS - COVERED[metric])
        counted = f"{PROGRAMS[metric]} programs ({REFUSED[0]} more refused by the judge)"
        print(
            f"{metric}: {counted}, {len(COVERED[metric])} of {len(ALL_OPERATIONS)} operations; not covered: {missing}"
        )
    if SWEPT != ALL_OPERATIONS:
        pytest.skip("the per-operation programs ran in other processes (pytest-xdist): run this file alone to count")
    assert COVERED["dmc@1"] == ALL_OPERATIONS - DMC_BELOW_TRACED
