"""The child side of remote arrays: opaque handles and the ``numpy`` stand-in that submitted solve() code
imports.

Runs inside the sandbox. The child never holds the data: a ``RemoteArray`` is an id plus shape/dtype metadata;
every operator, index, method, ``np.<function>`` call or conversion (int/float/bool/tolist, iteration) is a
request to the parent over the channel, which executes it, meters it and answers with a new handle or a plain
Python value. Monkeypatching this module only changes what the child itself sees — metering and correctness
live in the parent.
"""

from __future__ import annotations

import json
import math
import os
import sys
import types
from typing import Any

from engine.sandbox.remote.protocol import DType, encode

_ERRORS = {"IndexError": IndexError, "TypeError": TypeError, "ValueError": ValueError}


class Channel:
    """Requests out on ``fd_out`` (one JSON line each), replies in on ``reader`` (one JSON line each)."""

    def __init__(self, fd_out: int, reader: Any) -> None:
        self.fd_out = fd_out
        self.reader = reader
        self.released: list[int] = []

    def send(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd_out, view) :]

    def call(self, message: dict[str, Any]) -> Any:
        if self.released:
            message["rel"], self.released = self.released, []
        self.send(message)
        line = self.reader.readline()
        if not line:
            raise SystemExit(0)  # the parent has gone: nothing more to do
        reply = json.loads(line)
        if "err" in reply:
            raise _ERRORS.get(reply.get("type"), ValueError)(reply["err"])
        return _decode(reply["r"])


_channel: Channel | None = None
_proxies: dict[int, int] = {}  # handle id -> live proxy objects (one id can have several, e.g. after a += b)


def _handle_id(value: Any) -> int | None:
    return value._id if isinstance(value, RemoteArray) else None


def _enc(value: Any) -> Any:
    return encode(value, _handle_id)


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        ((tag, inner),) = value.items()
        if tag == "a":
            return RemoteArray(inner[0], tuple(inner[1]), inner[2])
        if tag == "t":
            return tuple(_decode(v) for v in inner)
        if tag == "l":
            return [_decode(v) for v in inner]
        if tag == "f":
            return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[inner]
    return value


def _call(op: str, *args: Any, target: RemoteArray | None = None, **kwargs: Any) -> Any:
    assert _channel is not None, "remote arrays are not connected"
    msg: dict[str, Any] = {"op": op, "a": [_enc(a) for a in args]}
    if kwargs:
        msg["k"] = {k: _enc(v) for k, v in kwargs.items()}
    if target is not None:
        msg["t"] = target._id
    return _channel.call(msg)


def _binary(name: str, reflected: bool = False) -> Any:
    def op(self: RemoteArray, other: Any) -> Any:
        return _call("bin", name, other, self) if reflected else _call("bin", name, self, other)

    return op


def _inplace(name: str) -> Any:
    def op(self: RemoteArray, other: Any) -> RemoteArray:
        _call("ibin", name, other, target=self)
        return self

    return op


def _method(name: str) -> Any:
    def method(self: RemoteArray, *args: Any, **kwargs: Any) -> Any:
        return _call("meth", name, *args, target=self, **kwargs)

    method.__name__ = name
    return method


class RemoteArray:
    """An array held by the parent. Shape, ndim, size, dtype and len are local metadata; data is not."""

    __slots__ = ("_id", "shape", "dtype", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, id_: int, shape: tuple[int, ...], dtype: str) -> None:
        self._id = id_
        self.shape = shape
        self.dtype = DType(dtype)
        _proxies[id_] = _proxies.get(id_, 0) + 1

    def __del__(self) -> None:
        left = _proxies.get(self._id, 1) - 1
        if left > 0:
            _proxies[self._id] = left
            return
        _proxies.pop(self._id, None)
        if _channel is not None:
            _channel.released.append(self._id)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))
    T = property(lambda self: _call("meth", "T", target=self))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def __getitem__(self, index: Any) -> Any:
        return _call("get", index, target=self)

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
    setattr(RemoteArray, f"__{_name}__", lambda self, _n=_name: _call("un", _n, self))
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
        return _call("np", name, *args, **kwargs)

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


def connect(fd_out: int, reader: Any, function_names: list[str], dtype_names: list[str]) -> types.ModuleType:
    """Open the channel and install the ``numpy`` stand-in in sys.modules; returns it."""
    global _channel
    _channel = Channel(fd_out, reader)
    mod = numpy_module(function_names, dtype_names)
    sys.modules["numpy"] = mod
    return mod
