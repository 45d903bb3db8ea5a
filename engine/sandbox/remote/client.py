"""The child side of remote arrays: opaque handles and the ``numpy`` stand-in that submitted solve() code
imports.

Runs inside the sandbox, without numpy. The child never holds the data: a ``RemoteArray`` is an id plus shape/dtype
metadata; every operator, index, method, ``np.<function>`` call or conversion (int/float/bool/tolist, iteration) is
a request to the parent over the channel, which executes it, meters it and answers with a new handle (a scalar
result is a 0-d handle: the parent keeps it) or, for ``int``/``float``/``bool``/an index only, a plain Python value,
metered as a read (docs/metrics.md#what-a-solve-pays-for). Monkeypatching this module only changes what the child
itself sees — metering and correctness live in the parent.

Pipelining: an operation whose result :mod:`engine.sandbox.remote.predict` can prove from metadata alone (an array,
0-d included, numpy raising nothing) is sent with the id the parent will give its result (``"n"``:
the parent's next id, which the child follows from every handle it is told of) and the predicted shape and dtype
(``"p"``), and the child goes on at once with a handle of that id; the parent answers nothing. Everything else
— and every value that crosses to the child (``int``, ``float``, ``bool``, an index) — waits for its reply.

Errors of a pipelined operation are deferred. The prediction rules out numpy's exceptions, so this happens only
where the parent refuses or numpy fails anyway; then the failed operation is metered as any failed operation is,
its handle is poisoned, the pipelined operations after it are not run (nothing metered), and the next request that
waits for a reply — or any later one naming a poisoned handle — raises that operation's category
(``IndexError: index out of range`` …, never numpy's text) instead of running. So an exception can surface a few
lines after the operation that caused it, never later than the next value the code reads back.
"""

from __future__ import annotations

import json
import math
import os
import sys
import types
from typing import Any

from engine.sandbox.remote import predict
from engine.sandbox.remote.predict import Meta
from engine.sandbox.remote.protocol import DType, encode

_ERRORS = {"IndexError": IndexError, "TypeError": TypeError, "ValueError": ValueError}


class Channel:
    """Requests out on ``fd_out`` (one JSON line each), replies in on ``reader`` (one JSON line each).

    next_id: the id the parent gives the next array it registers (every id it registers comes back in the reply
    that made it, or was chosen here for a pipelined request). pipeline: whether provable operations are sent
    without waiting (False: every request waits for its reply, as before pipelining).
    """

    def __init__(self, fd_out: int, reader: Any, *, next_id: int = 0, pipeline: bool = True) -> None:
        self.fd_out = fd_out
        self.reader = reader
        self.released: list[int] = []
        self.proxies: dict[int, int] = {}  # handle id -> live proxy objects (a += b keeps a's id alive twice)
        self.next_id = next_id
        self.pipeline = pipeline
        self.unsent = bytearray()  # pipelined requests not written yet (one write per batch: fewer wake-ups)

    def send(self, message: dict[str, Any], *, wait: bool = True) -> None:
        """Queue ``message``; everything queued is written when a reply will be waited for (``wait``), or once
        :data:`BATCH_BYTES` are queued."""
        if self.released:
            message["rel"], self.released = self.released, []
        self.unsent += _ENCODER.encode(message).encode()
        self.unsent += b"\n"
        if wait or len(self.unsent) >= BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write every queued request (before waiting for a reply, and before the child's final message)."""
        if self.unsent:
            data = bytes(self.unsent)
            self.unsent.clear()
            self.write(data)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd_out, view) :]

    def readline(self) -> Any:
        return self.reader.readline()

    def call(self, message: dict[str, Any]) -> Any:
        self.send(message)
        line = self.readline()
        if not line:
            raise SystemExit(0)  # the parent has gone: nothing more to do
        reply = json.loads(line)
        if "err" in reply:
            raise _ERRORS.get(reply.get("type"), ValueError)(reply["err"])
        return _decode(reply["r"])

    def post(self, message: dict[str, Any], shape: tuple[int, ...], dtype: str) -> RemoteArray:
        """Send a pipelined request whose result will be an array of ``shape``/``dtype``; no reply is read."""
        hid = self.next_id
        self.next_id += 1
        message["n"], message["p"] = hid, [list(shape), dtype]
        self.send(message, wait=False)
        return RemoteArray(hid, shape, dtype)


BATCH_BYTES = 16384
_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))  # one for every request
_channel: Channel | None = None


def flush() -> None:
    """Write the pipelined requests still queued (the bootstrap calls it before the final message)."""
    if _channel is not None:
        _channel.flush()


def _handle_id(value: Any) -> int | None:
    return value._id if isinstance(value, RemoteArray) else None


def _enc(value: Any) -> Any:
    if type(value) is RemoteArray:  # the common argument, without the general encoder's checks
        return {"h": value._id}
    return encode(value, _handle_id)


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        ((tag, inner),) = value.items()
        if tag == "a":
            if _channel is not None and inner[0] >= _channel.next_id:
                _channel.next_id = inner[0] + 1
            return RemoteArray(inner[0], tuple(inner[1]), inner[2])
        if tag == "t":
            return tuple(_decode(v) for v in inner)
        if tag == "l":
            return [_decode(v) for v in inner]
        if tag == "f":
            return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[inner]
    return value


def _request(op: str, args: tuple[Any, ...], target: RemoteArray | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The message for one operation: ``op``, its encoded arguments and keywords, and the handle it acts on."""
    msg: dict[str, Any] = {"op": op, "a": [_enc(a) for a in args]}
    if kwargs:
        msg["k"] = {k: _enc(v) for k, v in kwargs.items()}
    if target is not None:
        msg["t"] = target._id
    return msg


def _call(op: str, *args: Any, target: RemoteArray | None = None, **kwargs: Any) -> Any:
    assert _channel is not None, "remote arrays are not connected"
    return _channel.call(_request(op, args, target, kwargs))


def _meta(value: Any) -> Any:
    """What :mod:`predict` is told of an operand: a Meta for a handle, a Python scalar as itself, else None."""
    if isinstance(value, RemoteArray):
        return value._described
    if type(value) in (bool, int, float):
        return value
    if type(value) in (tuple, list) and all(type(v) is int for v in value):
        return value  # a shape
    if isinstance(value, DType):
        return value.name
    return None


def _pipelined(predicted: predict.Prediction, op: str, *args: Any, target: Any = None, **kwargs: Any) -> Any:
    """``_call``, without waiting for the reply when the result was predicted and pipelining is on."""
    channel = _channel
    if predicted is None or channel is None or not channel.pipeline:
        return _call(op, *args, target=target, **kwargs)
    return channel.post(_request(op, args, target, kwargs), *predicted)


def _binary(name: str, reflected: bool = False) -> Any:
    def op(self: RemoteArray, other: Any) -> Any:
        a, b = (other, self) if reflected else (self, other)
        return _pipelined(predict.binary(name, _meta(a), _meta(b)), "bin", name, a, b)

    return op


def _inplace(name: str) -> Any:
    def op(self: RemoteArray, other: Any) -> RemoteArray:
        _call("ibin", name, other, target=self)
        return self

    return op


def _method(name: str) -> Any:
    def method(self: RemoteArray, *args: Any, **kwargs: Any) -> Any:
        meta = (tuple(_meta(a) for a in args), {k: _meta(v) for k, v in kwargs.items()})
        predicted = predict.method(name, self._described, *meta)
        return _pipelined(predicted, "meth", name, *args, target=self, **kwargs)

    method.__name__ = name
    return method


class RemoteArray:
    """An array held by the parent. Shape, ndim, size, dtype and len are local metadata; data is not. Shape and
    dtype are read-only (numpy's in-place ``a.shape = …`` is not offered: use ``reshape``), since the pipelined
    requests' predictions are made from them."""

    __slots__ = ("_id", "_described", "_dtype", "_channel", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, id_: int, shape: tuple[int, ...], dtype: str) -> None:
        self._id = id_
        self._described = Meta(tuple(shape), dtype)
        self._dtype = DType(dtype)
        self._channel = _channel
        if _channel is not None:
            _channel.proxies[id_] = _channel.proxies.get(id_, 0) + 1

    def __del__(self) -> None:
        channel = self._channel
        if channel is None:
            return
        left = channel.proxies.get(self._id, 1) - 1
        if left > 0:
            channel.proxies[self._id] = left
            return
        channel.proxies.pop(self._id, None)
        channel.released.append(self._id)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._described.shape

    @property
    def dtype(self) -> DType:
        return self._dtype

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))
    T = property(lambda self: _pipelined(predict.method("T", self._described, (), {}), "meth", "T",
                                         target=self))  # fmt: skip

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def __getitem__(self, index: Any) -> Any:
        return _pipelined(predict.getitem(self._described, index), "get", index, target=self)

    def __setitem__(self, index: Any, value: Any) -> None:
        _call("set", index, value, target=self)

    def __int__(self) -> int:
        value: int = _call("int", target=self)
        return value

    def __float__(self) -> float:
        value: float = _call("float", target=self)
        return value

    def __bool__(self) -> bool:
        value: bool = _call("bool", target=self)
        return value

    def __index__(self) -> int:
        value: int = _call("index", target=self)
        return value

    def __repr__(self) -> str:
        return f"RemoteArray(shape={self.shape}, dtype={self.dtype.name})"

    __hash__ = None  # type: ignore[assignment]


for _name in (
    "add",
    "sub",
    "mul",
    "truediv",
    "floordiv",
    "mod",
    "pow",
    "matmul",
    "and",
    "or",
    "xor",
    "lshift",
    "rshift",
):
    setattr(RemoteArray, f"__{_name}__", _binary(_name))
    setattr(RemoteArray, f"__r{_name}__", _binary(_name, reflected=True))
    if _name != "matmul":
        setattr(RemoteArray, f"__i{_name}__", _inplace(_name))
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(RemoteArray, f"__{_name}__", _binary(_name))
for _name in ("neg", "pos", "abs", "invert"):
    setattr(
        RemoteArray,
        f"__{_name}__",
        lambda self, _n=_name: _pipelined(predict.unary(_n, self._described), "un", _n, self),
    )
for _name in (
    "reshape",
    "transpose",
    "ravel",
    "squeeze",
    "swapaxes",
    "copy",
    "astype",
    "flatten",
    "sum",
    "mean",
    "prod",
    "any",
    "all",
    "argmax",
    "argmin",
    "max",
    "min",
    "nonzero",
    "cumsum",
    "cumprod",
    "dot",
    "std",
    "var",
    "round",
    "clip",
    "argsort",
    "tolist",
    "item",
):
    setattr(RemoteArray, _name, _method(_name))


def _np_function(name: str) -> Any:
    def function(*args: Any, **kwargs: Any) -> Any:
        metas = tuple(_meta(a) for a in args), {k: _meta(v) for k, v in kwargs.items()}
        return _pipelined(predict.function(name, *metas), "np", name, *args, **kwargs)

    function.__name__ = name
    return function


class _RemoteRandom:
    """``np.random`` and the objects ``default_rng``/``RandomState`` return: draws made by the parent from its
    own secret-seeded generator (seeds given here are ignored)."""

    def __init__(self, *seed: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        def draw(*args: Any, **kwargs: Any) -> Any:
            return _call("rng", name, *args, **kwargs)

        return draw

    def seed(self, *args: Any) -> None:
        """Accepted and ignored: the parent's generator is seeded from ``secrets``."""

    default_rng = RandomState = Generator = staticmethod(lambda *seed: _RemoteRandom())


def numpy_module(function_names: list[str], dtype_names: list[str]) -> types.ModuleType:
    """A fresh module named ``numpy`` whose functions are remote requests."""
    mod = types.ModuleType("numpy", "Remote-array stand-in for numpy inside the solve() sandbox.")
    for name in function_names:
        setattr(mod, name, _np_function(name))
    for name in dtype_names:
        setattr(mod, name, DType(name))
    constants: dict[str, Any] = {
        "int_": DType("int64"), "bool_": DType("bool"), "float64": DType("float64"),
        "ndarray": RemoteArray, "newaxis": None, "random": _RemoteRandom(), "pi": math.pi, "e": math.e,
        "inf": math.inf,
        "nan": math.nan, "__version__": "remote",
    }  # fmt: skip
    vars(mod).update(constants)
    return mod


def attach(channel: Channel | None) -> None:
    """Send this module's requests over ``channel`` (None: detached)."""
    global _channel
    _channel = channel


def connect(
    fd_out: int,
    reader: Any,
    function_names: list[str],
    dtype_names: list[str],
    *,
    next_id: int = 0,
    pipeline: bool = False,
) -> types.ModuleType:
    """Open the channel (requests to ``fd_out``, replies from ``reader``; ``next_id`` and ``pipeline`` as in
    :class:`Channel`) and install the ``numpy`` stand-in in sys.modules; returns it."""
    attach(Channel(fd_out, reader, next_id=next_id, pipeline=pipeline))
    mod = numpy_module(function_names, dtype_names)
    sys.modules["numpy"] = mod
    return mod
