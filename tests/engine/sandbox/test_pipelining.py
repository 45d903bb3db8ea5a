"""Pipelined remote arrays: the child's predictions against numpy 2 itself, and the same programs run through the
real stand-in (engine/sandbox/remote/client.py) against a Session with pipelining on and off.

Oracles: numpy (every prediction is checked against what numpy returns on every dtype pair, the Python scalars and
hypothesis-drawn indexes), and the blocking path (a program pipelined must leave the same event log, buffer names,
metrics and answers as the same program waiting for every reply, which the sandbox issue's tests pin against the
in-process tracer). Plain numpy is a third oracle for the values the program reads back.
"""

from __future__ import annotations

import builtins
import itertools
import json
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.sandbox import judge as judge_module
from engine.sandbox import judge_solve
from engine.sandbox.remote import allowlist, client, predict
from engine.sandbox.remote.predict import Meta
from engine.sandbox.remote.session import MISPREDICTED, Refused, Session
from engine.sandbox.results import parse_strict
from engine.sandbox.tier import TierReport
from tests.engine.sandbox.conftest import proxies_released, submission

DTYPES = list(allowlist.DTYPES)
OPS = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide, "floordiv": np.floor_divide,
    "mod": np.remainder, "pow": np.power, "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
}  # fmt: skip
SCALARS = [True, False, 0, 1, -1, 7, 300, -300, 70_000, 2**40, -(2**40), 2**63, 1.5, -0.0, float("inf")]


def _sample(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Values a numpy error could depend on: zeros, negatives (where the dtype has them), large magnitudes."""
    base = np.array([0, 1, -1, 2, 100, -7], dtype=np.float64)
    values = np.resize(base, int(np.prod(shape))).reshape(shape)
    if dtype == "bool":
        return values.astype(bool)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return values.astype(dtype)


def _numpy(fn: Callable[[], Any]) -> Any:
    """``fn()`` on real numpy, warnings silenced; the exception instead of a result when it raises."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 — any exception is what the prediction must rule out
            return exc


def _agrees(predicted: predict.Prediction, got: Any) -> bool:
    if predicted is None:
        return True  # not pipelined: the blocking path keeps numpy's own behaviour
    # a numpy scalar is held by the parent as a 0-d array (engine/sandbox/remote/session.py)
    return isinstance(got, np.ndarray | np.generic) and (got.shape, got.dtype.name) == predicted


@pytest.mark.slow  # 0.7 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_binary_predictions_match_numpy_on_every_dtype_pair_and_python_scalar() -> None:
    predicted_count = 0
    for name, ufunc in OPS.items():
        for da, db in itertools.product(DTYPES, DTYPES):
            for sa, sb in (((2, 3), (3,)), ((3,), (3,)), ((2, 1), (1, 3)), ((2,), (3,)), ((), ()), ((), (3,))):
                a, b = _sample(da, sa), _sample(db, sb)
                p = predict.binary(name, Meta(sa, da), Meta(sb, db))
                got = _numpy(lambda a=a, b=b, ufunc=ufunc: ufunc(a, b))
                assert _agrees(p, got), (name, da, db, sa, sb, p, got)
                predicted_count += p is not None
        for dtype, scalar, shape in itertools.product(DTYPES, SCALARS, ((2, 3), ())):
            a = _sample(dtype, shape)
            for left, right in ((Meta(shape, dtype), scalar), (scalar, Meta(shape, dtype))):
                p = predict.binary(name, left, right)
                args = [a if isinstance(v, Meta) else v for v in (left, right)]
                got = _numpy(lambda args=args, ufunc=ufunc: ufunc(*args))
                assert _agrees(p, got), (name, dtype, left, right, p, got)
    # the cases solve() code uses are predicted (the rule is not vacuous)
    assert predict.binary("eq", Meta((200,), "int64"), Meta((200,), "int64")) == ((200,), "bool")
    assert predict.binary("sub", 1, Meta((200, 20), "int64")) == ((200, 20), "int64")
    assert predict.binary("floordiv", Meta((200, 20), "int64"), 2) == ((200, 20), "int64")
    assert predicted_count > 2000


def test_unary_reduction_and_method_predictions_match_numpy() -> None:
    for dtype in DTYPES:
        for shape in ((2, 3), (4,), (0, 3), (2, 0), (1, 2, 3), (), (0,)):
            a, meta = _sample(dtype, shape), Meta(shape, dtype)
            for name, fn in (("neg", np.negative), ("pos", np.positive), ("abs", np.absolute), ("invert", np.invert)):
                assert _agrees(predict.unary(name, meta), _numpy(lambda fn=fn, a=a: fn(a))), (name, dtype)
            for name in ("sum", "prod", "any", "all", "max", "min", "argmax", "argmin", "mean"):
                for axis in (-4, -2, -1, 0, 1, 2, 3, None, 1.0, True):
                    got = _numpy(lambda name=name, a=a, axis=axis: getattr(a, name)(axis=axis))
                    assert _agrees(predict.method(name, meta, (), {"axis": axis}), got), (name, dtype, shape, axis)
                    assert _agrees(predict.method(name, meta, (axis,), {}), got)
                    function = "amax" if name == "max" else "amin" if name == "min" else name
                    got = _numpy(lambda function=function, a=a, axis=axis: getattr(np, function)(a, axis=axis))
                    assert _agrees(predict.function(function, (meta,), {"axis": axis}), got), (function, dtype)
                got = _numpy(lambda name=name, a=a: getattr(a, name)())
                assert _agrees(predict.method(name, meta, (), {}), got), (name, dtype, shape)
            for name, args in (
                ("reshape", (-1,)), ("reshape", (-1, 1)), ("reshape", ((3, -1),)), ("reshape", (2, 2)),
                ("reshape", (-1, -1)), ("reshape", ((0, -1),)), ("reshape", (6,)), ("T", ()), ("transpose", ()),
                ("ravel", ()), ("flatten", ()), ("copy", ()), ("astype", ("int64",)), ("astype", ("bool",)),
                ("astype", ("float",)), ("astype", ("float16",)), ("squeeze", ()),
            ):  # fmt: skip
                got = _numpy(lambda name=name, args=args, a=a: a.T if name == "T" else getattr(a, name)(*args))
                assert _agrees(predict.method(name, meta, args, {}), got), (name, args, dtype, shape)
    assert predict.method("sum", Meta((200, 3), "int64"), (), {"axis": 1}) == ((200,), "int64")
    assert predict.function("prod", (Meta((200, 3), "int64"),), {"axis": 1}) == ((200,), "int64")


_index_part = st.one_of(
    st.integers(-6, 6),
    st.builds(slice, st.none() | st.integers(-7, 7), st.none() | st.integers(-7, 7), st.none() | st.integers(-3, 3)),
    st.none(),
    st.just(Ellipsis),
    st.lists(st.integers(-6, 6), max_size=4),
    st.lists(st.booleans(), min_size=1, max_size=3),
    st.floats(-2, 2),
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=0, max_size=3),
    st.one_of(_index_part, st.lists(_index_part, max_size=4).map(tuple)),
)
@pytest.mark.slow  # 0.7 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_index_predictions_match_numpy(shape_list: list[int], index: Any) -> None:
    shape = tuple(shape_list)
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    got = _numpy(lambda: a[index])
    assert _agrees(predict.getitem(Meta(shape, "int64"), index), got), (shape, index, got)


def test_the_brute_force_index_is_predicted() -> None:
    assert predict.getitem(Meta((200, 20), "int64"), (slice(None), [17, 18, 19])) == ((200, 3), "int64")


# ---- the stand-in over a loopback channel ------------------------------------------------------------------------
class Loopback(client.Channel):
    """The child's channel wired straight to a Session in this process: the same JSON lines both ways, parsed
    strictly as the watchdog does; a refusal is raised in the program."""

    def __init__(self, session: Session, *, pipeline: bool) -> None:
        super().__init__(-1, None, next_id=session.next_id, pipeline=pipeline)
        self.session = session
        self.replies: deque[str] = deque()
        self.posted = 0

    def write(self, data: bytes) -> None:
        for line in data.splitlines():
            request = parse_strict(line, 1 << 20)
            self.posted += "n" in request
            reply = self.session.handle(request)
            if reply is not None:
                self.replies.append(json.dumps(reply, allow_nan=False))

    def readline(self) -> str:
        return self.replies.popleft() if self.replies else ""


@contextmanager
def stand_in(session: Session, *, pipeline: bool) -> Iterator[tuple[Any, Loopback, list[client.RemoteArray]]]:
    """The child's ``numpy`` and its input handles, talking to ``session``."""
    channel = Loopback(session, pipeline=pipeline)
    client.attach(channel)
    try:
        with proxies_released():
            module = client.numpy_module(sorted(allowlist.FUNCTIONS), sorted(allowlist.DTYPES))
            inputs = [client.RemoteArray(i, tuple(session.describe(i)["a"][1]), session.describe(i)["a"][2])
                      for i in session.input_ids]  # fmt: skip
            yield module, channel, inputs
    finally:
        client.attach(None)


def _log(session: Session) -> tuple[Any, ...]:
    return session.is_write, session.buffers, session.sizes, session.labels, session.metrics()


def _run_submission(name: str, x: np.ndarray, y: np.ndarray, *, pipeline: bool) -> tuple[Any, tuple, int]:
    session = Session([x, y], max_elements=10**6, max_ops=50_000)
    with stand_in(session, pipeline=pipeline) as (module, channel, (hx, hy)):
        real_import = builtins.__import__

        def importer(name: str, *args: Any, **kwargs: Any) -> Any:
            return module if name == "numpy" else real_import(name, *args, **kwargs)

        ns: dict[str, Any] = {"__builtins__": {**vars(builtins), "__import__": importer}}
        exec(compile(submission(name), name, "exec"), ns)
        answer = ns["solve"](hx, hy, x.shape[1], 3)
        posted = channel.posted
        del hx, hy
    return answer, _log(session), posted


@pytest.mark.slow  # 0.7 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
@pytest.mark.parametrize("name", ["brute_force_solve", "gf2_solve"])
def test_submissions_meter_the_same_pipelined_and_blocking(name: str) -> None:
    rng = np.random.default_rng(21)
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(60, 12))
    y = np.prod(x[:, [8, 9, 11]], axis=1)
    blocking = _run_submission(name, x, y, pipeline=False)
    pipelined = _run_submission(name, x, y, pipeline=True)
    assert blocking[0] == pipelined[0] == [8, 9, 11]
    assert blocking[1] == pipelined[1]
    assert blocking[2] == 0 and pipelined[2] > 0
    if name == "brute_force_solve":  # x[:, combo], np.prod(…, axis=1), == y and .all() pipelined; bool() waits
        combinations = len(list(itertools.combinations(range(12), 3)))
        tried = combinations - sum(1 for c in itertools.combinations(range(12), 3) if c > (8, 9, 11))
        assert pipelined[2] == 4 * tried


_SCALAR = st.sampled_from([2, -1, 0.5, True, 3, 1.5])
_step = st.one_of(
    st.tuples(st.just("bin"), st.sampled_from(sorted(OPS)), st.integers(0, 20), st.integers(0, 20)),
    st.tuples(st.just("scalar"), st.sampled_from(sorted(OPS)), st.integers(0, 20), _SCALAR, st.booleans()),
    st.tuples(st.just("un"), st.sampled_from(["neg", "pos", "abs", "invert"]), st.integers(0, 20)),
    st.tuples(st.just("get"), st.integers(0, 20), st.one_of(_index_part, st.lists(_index_part, max_size=3).map(tuple))),
    st.tuples(st.just("reduce"), st.sampled_from(["sum", "prod", "any", "all", "max", "argmin", "mean"]),
              st.integers(0, 20), st.integers(-2, 1), st.booleans()),
    st.tuples(st.just("view"), st.sampled_from(["T", "ravel", "flatten", "copy", "reshape", "astype"]),
              st.integers(0, 20)),
    st.tuples(st.just("read"), st.sampled_from(["tolist", "all", "sum", "int"]), st.integers(0, 20)),
)  # fmt: skip


def _apply(step: tuple, pool: list[Any], np_: Any, seen: list[Any]) -> Any:
    """One step on ``pool`` (numpy arrays or remote handles, with their module ``np_``); reads go to ``seen``."""
    kind = step[0]
    if kind == "bin":
        return OPS_PY[step[1]](pool[step[2] % len(pool)], pool[step[3] % len(pool)])
    if kind == "scalar":
        a, k = pool[step[2] % len(pool)], step[3]
        return OPS_PY[step[1]](k, a) if step[4] else OPS_PY[step[1]](a, k)
    if kind == "un":
        a = pool[step[2] % len(pool)]
        return {"neg": lambda: -a, "pos": lambda: +a, "abs": lambda: abs(a), "invert": lambda: ~a}[step[1]]()
    if kind == "get":
        return pool[step[1] % len(pool)][step[2]]
    if kind == "reduce":
        a = pool[step[2] % len(pool)]
        return getattr(a, step[1])(axis=step[3]) if step[4] else getattr(np_, step[1])(a, step[3])
    if kind == "view":
        a = pool[step[2] % len(pool)]
        if step[1] == "T":
            return a.T
        if step[1] == "reshape":
            return a.reshape(-1, 1)
        if step[1] == "astype":
            return a.astype(np_.float64)
        return getattr(a, step[1])()
    a = pool[step[2] % len(pool)]
    seen.append(_plain({"tolist": a.tolist, "all": a.all, "sum": a.sum, "int": lambda: int(a.ravel()[0])}[step[1]]()))
    return None


def _plain(value: Any) -> Any:
    """A value read back as the child reads it: a 0-d handle (the parent keeps scalars) through ``int``/``float``/
    ``bool`` by its dtype, lists element by element; numpy scalars and plain values as they are."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, client.RemoteArray):
        name = value.dtype.name
        return bool(value) if name == "bool" else float(value) if name.startswith("float") else int(value)
    return value


OPS_PY: dict[str, Callable[[Any, Any], Any]] = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "truediv": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b, "mod": lambda a, b: a % b, "pow": lambda a, b: a**b,
    "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b, "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}  # fmt: skip
XI = np.array([[3, -1, 0], [2, 5, -4], [1, 1, 7], [-2, 0, 6]], dtype=np.int64)
YF = np.array([1.5, -1.0, 2.0, 0.25])


def _valid(program: list[tuple]) -> list[tuple]:
    """The steps that succeed on plain numpy (a failing step would end the blocking program there)."""
    pool: list[Any] = [XI.copy(), YF.copy()]
    kept = []
    for step in program:
        out = _numpy(lambda step=step: _apply(step, pool, np, []))
        empty_read = step[0] == "read" and step[1] == "int" and pool[step[2] % len(pool)].size == 0
        if isinstance(out, Exception) or empty_read:
            continue
        kept.append(step)
        if isinstance(out, np.ndarray) and out.ndim:
            pool.append(out)
    return kept


def _remote(program: list[tuple], *, pipeline: bool) -> tuple[list[Any], tuple, int]:
    session = Session([XI.copy(), YF.copy()], max_elements=10**6, max_ops=10_000)
    seen: list[Any] = []
    with np.errstate(all="ignore"), warnings.catch_warnings(), stand_in(session, pipeline=pipeline) as (m, ch, pool):
        warnings.simplefilter("ignore")
        for step in program:
            out = _apply(step, pool, m, seen)
            if isinstance(out, client.RemoteArray) and out.ndim:
                pool.append(out)
            del out
        seen.extend(_plain(a.tolist()) for a in pool)
        posted = ch.posted
        del pool
    return seen, _log(session), posted


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(_step, max_size=16))
def test_random_programs_meter_the_same_pipelined_and_blocking(program: list[tuple]) -> None:
    steps = _valid(program)
    blocking, pipelined = _remote(steps, pipeline=False), _remote(steps, pipeline=True)
    assert pipelined[0] == blocking[0], steps
    assert pipelined[1] == blocking[1], steps
    # plain numpy reads back the same values
    pool: list[Any] = [XI.copy(), YF.copy()]
    seen: list[Any] = []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in steps:
            out = _apply(step, pool, np, seen)
            if isinstance(out, np.ndarray) and out.ndim:
                pool.append(out)
    expected = [v.item() if isinstance(v, np.generic) else v for v in seen] + [a.tolist() for a in pool]
    assert json.dumps(pipelined[0]) == json.dumps(expected)


# ---- the parent's checks -----------------------------------------------------------------------------------------
def _session() -> Session:
    return Session([XI.copy(), YF.copy()], max_elements=1000, max_ops=1000)


def test_a_pipelined_request_is_answered_with_nothing_and_metered_as_a_waiting_one() -> None:
    waiting, pipelined = _session(), _session()
    reply = waiting.handle({"op": "meth", "t": 0, "a": ["sum"], "k": {"axis": 1}})
    assert reply == {"r": {"a": [2, [4], "int64"]}}
    assert pipelined.handle({"op": "meth", "t": 0, "a": ["sum"], "k": {"axis": 1}, "n": 2, "p": [[4], "int64"]}) is None
    assert _log(pipelined) == _log(waiting) and pipelined.next_id == 3


@pytest.mark.parametrize("n", [3, 1, 0, -1])
def test_a_forged_or_skipped_handle_id_is_refused(n: int) -> None:
    s = _session()  # the next id is 2
    with pytest.raises(Refused, match="out of turn"):
        s.handle({"op": "meth", "t": 0, "a": ["copy"], "n": n, "p": [[4, 3], "int64"]})


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "meth", "t": 0, "a": ["copy"], "p": [[4, 3], "int32"]},  # wrong dtype
        {"op": "meth", "t": 0, "a": ["copy"], "p": [[12], "int64"]},  # wrong shape
        {"op": "meth", "t": 0, "a": ["sum"], "p": [[], "float64"]},  # a 0-d result of another dtype
        {"op": "meth", "t": 0, "a": ["nonzero"], "p": [[4, 3], "int64"]},  # a tuple of arrays
        {"op": "ibin", "t": 0, "a": ["add", 1], "p": [[4, 3], "int64"]},  # no new array
    ],
)
def test_a_result_that_is_not_the_prediction_ends_the_run(request_: dict) -> None:
    s = _session()
    with pytest.raises(Refused) as refused:
        s.handle({**request_, "n": 2})
    assert str(refused.value) == MISPREDICTED and "bug in the sandbox" in MISPREDICTED


def test_a_failed_pipelined_operation_surfaces_at_the_next_waiting_request() -> None:
    s = _session()
    events = len(s.sizes)
    assert s.handle({"op": "get", "t": 0, "a": [{"l": [9]}], "n": 2, "p": [[1, 3], "int64"]}) is None
    assert s.sizes[events:] == [12] and s.is_write[events:] == [False]  # metered as a failed request: x in full
    # pipelined work after it is skipped (not run, not metered), its id poisoned too
    assert s.handle({"op": "bin", "a": ["add", {"h": 1}, 1.0], "n": 3, "p": [[4], "float64"]}) is None
    assert s.handle({"op": "bin", "a": ["add", {"h": 2}, 1], "n": 4, "p": [[1, 3], "int64"]}) is None
    assert len(s.sizes) == events + 1 and s.next_id == 5
    # the next waiting request gets the category, not its own answer
    assert s.handle({"op": "meth", "t": 1, "a": ["tolist"]}) == {"err": "index out of range", "type": "IndexError"}
    assert len(s.sizes) == events + 1
    # then requests run again; naming a poisoned handle raises the failure again, unmetered
    elements = s.handle({"op": "meth", "t": 1, "a": ["tolist"]})["r"]["l"]  # read y (4), write 4 elements of 1
    assert [s.held(e["a"][0]) for e in elements] == YF.tolist()
    assert s.handle({"op": "meth", "t": 3, "a": ["tolist"]}) == {"err": "index out of range", "type": "IndexError"}
    poisoned = {"err": "index out of range", "type": "IndexError"}
    assert s.handle({"op": "bin", "a": ["add", {"h": 1}, {"h": 4}]}) == poisoned
    assert s.sizes[-5:] == [4, 1, 1, 1, 1] and len(s.sizes) == events + 6
    # a released poisoned id is forgotten like any other handle
    s.handle({"op": "meth", "t": 1, "a": ["copy"], "rel": [2, 3, 4]})
    with pytest.raises(Refused, match="unknown array handle"):
        s.handle({"op": "meth", "t": 3, "a": ["tolist"]})


def test_the_stand_in_raises_a_deferred_error_with_its_category() -> None:
    session = _session()
    with stand_in(session, pipeline=True) as (_, channel, (x, y)):
        channel.post({"op": "get", "t": 0, "a": [{"l": [9]}]}, (1, 3), "int64")  # what a patched child could send
        channel.flush()
        z = x[:, [0]]  # pipelined, skipped
        with pytest.raises(IndexError, match="^index out of range$"):
            y.tolist()
        with pytest.raises(IndexError, match="^index out of range$"):
            z.tolist()
        assert x[1, 2] == -4
        del x, y, z


# ---- a submission that changes the stand-in (end to end, in the sandbox) -----------------------------------------
_PATCH = "    stand_in = type(x).__getitem__.__globals__  # the stand-in module's globals, as any code can reach them\n"


def _brute_force_with(patch: str) -> str:
    return submission("brute_force_solve").replace("    for combo in", _PATCH + patch + "    for combo in")


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> dict:
    """One hidden instance for every judged run of a test."""
    instance = judge_module.hidden_instance(20, 3, 200, 1000)
    monkeypatch.setattr(judge_module, "hidden_instance", lambda *a: instance)
    return instance


@pytest.mark.slow
def test_a_submission_that_turns_pipelining_off_scores_the_same(tier: TierReport, fixed: dict) -> None:
    if not tier.runs_submissions:
        return
    honest = judge_solve(submission("brute_force_solve"), instances=1)
    blocking = judge_solve(_brute_force_with("    stand_in['_channel'].pipeline = False\n"), instances=1)
    assert honest.ok and blocking.ok
    assert blocking.metrics == honest.metrics and blocking.counts == honest.counts


@pytest.mark.parametrize(
    ("patch", "failure"),
    [
        # a stand-in that predicts a smaller result than numpy gives
        ("    stand_in['predict'].getitem = lambda a, i: ((1,), a.dtype)\n", MISPREDICTED),
        # handle ids of its own choosing: to overwrite or alias arrays the parent holds
        ("    stand_in['_channel'].next_id = 0\n", "your code named an array handle out of turn (forged)"),
        ("    stand_in['_channel'].next_id += 3\n", "your code named an array handle out of turn (forged)"),
    ],
    ids=["lying-prediction", "reused-id", "skipped-id"],
)
def test_a_submission_that_patches_the_stand_in_is_refused(
    tier: TierReport, fixed: dict, patch: str, failure: str
) -> None:
    if not tier.runs_submissions:
        return
    result = judge_solve(_brute_force_with(patch), instances=1)
    assert not result.ok and result.failure == failure and result.metrics == {}


def test_a_failed_pipelined_request_raises_its_category_at_the_next_read(tier: TierReport, fixed: dict) -> None:
    if not tier.runs_submissions:
        return
    code = (
        "def solve(x, y, n_bits, k_sparse):\n" + _PATCH + "    stand_in['_channel'].post("
        "{'op': 'get', 't': 0, 'a': [{'l': [999]}]}, (1, 20), 'int64')\n"
        "    z = x[:, [1, 2]]\n"  # pipelined after the failure: skipped
        "    y.tolist()\n"
        "    return []\n"
    )
    result = judge_solve(code, instances=1)
    assert result.failure == "line 5: IndexError: index out of range"


def test_the_child_predicts_without_numpy(tier: TierReport, fixed: dict) -> None:
    """The stand-in and its predictions are pure Python: no part of real numpy is loaded in a solve() child."""
    if not tier.runs_submissions:
        return
    code = (
        "import sys\ndef solve(x, y, n_bits, k_sparse):\n    z = x[:, [1, 2]].sum(axis=1) == y\n"
        "    loaded = sorted(m for m in sys.modules if m == 'numpy' or m.startswith('numpy.'))\n"
        "    assert loaded == ['numpy'] and sys.modules['numpy'].__version__ == 'remote', loaded\n"
        "    return [] if z.any() else [0]\n"
    )
    result = judge_solve(code, instances=1, check_imports=False)
    assert result.failure is not None and "mean accuracy" in result.failure  # solve() ran to its answer


@pytest.mark.parametrize("pipeline", [True, False])
def test_a_refused_queued_request_is_the_verdict_even_if_the_code_raises_after_it(
    tier: TierReport, fixed: dict, pipeline: bool
) -> None:
    """``a + b`` of 40,000² elements is predicted (and queued) but over the parent's array budget; the code then
    raises. Waiting for every reply, the refusal comes first; pipelined it must too (queued requests are written
    before the error message)."""
    if not tier.runs_submissions:
        return
    switch = "" if pipeline else "    stand_in['_channel'].pipeline = False\n"
    code = (
        "import numpy as np\ndef solve(x, y, n_bits, k_sparse):\n" + _PATCH + switch
        + "    a = np.ones((40000, 1))\n    b = np.ones((1, 40000))\n    c = a + b\n    raise ValueError('after')\n"
    )  # fmt: skip
    result = judge_solve(code, instances=1)
    assert result.failure is not None and "array memory limit" in result.failure, result.failure


def test_a_handle_s_shape_and_dtype_cannot_be_reassigned() -> None:
    """The predictions are made from them: numpy's in-place ``a.shape = …`` would make the child's view and the
    parent's array disagree, so it raises rather than being refused later as a misprediction."""
    with stand_in(_session(), pipeline=True) as (np_, _, (x, y)):
        with pytest.raises(AttributeError):
            x.shape = (12,)
        with pytest.raises(AttributeError):
            x.dtype = np_.float64
        assert x.reshape(12).shape == (12,) and x.shape == (4, 3)
        del x, y
