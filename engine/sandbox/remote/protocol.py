"""Wire format between a solve() child and the parent: one JSON object per line, values tagged.

Plain JSON values (null, bool, int, finite float, str) travel as themselves; the rest are one-key objects:
``{"h": id}`` a remote array handle · ``{"s": [start, stop, step]}`` a slice · ``{"t": [...]}`` a tuple ·
``{"l": [...]}`` a list · ``{"e": 0}`` Ellipsis · ``{"f": "nan" | "inf" | "-inf"}`` a non-finite float ·
``{"d": "int64"}`` a dtype. Both sides use this module; the parent additionally parses with NaN/Infinity
literals rejected and a size cap (results.parse_strict).
"""

from __future__ import annotations

import math
from typing import Any


class ProtocolError(ValueError):
    """A message that does not follow the wire format."""


class Handle:
    """A reference to an array held by the parent (the parent's view of a child's handle)."""

    __slots__ = ("id",)

    def __init__(self, id_: int) -> None:
        self.id = id_

    def __repr__(self) -> str:
        return f"Handle({self.id})"


class DType:
    """A dtype named by the child (``np.int64``); resolved against the parent's allow-list."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


def encode(value: Any, handle_id: Any = None) -> Any:
    """Python value -> JSON-ready tagged value; ``handle_id(v)`` gives an id for handle objects, else None."""
    kind = type(value)
    if kind is int or kind is str or kind is bool or value is None:  # the common case first (subclasses below)
        return value
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {"f": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if handle_id is not None:
        hid = handle_id(value)
        if hid is not None:
            return {"h": hid}
    if isinstance(value, slice):
        return {
            "s": [
                encode(value.start, handle_id),
                encode(value.stop, handle_id),
                encode(value.step, handle_id),
            ]
        }
    if isinstance(value, tuple):
        return {"t": [encode(v, handle_id) for v in value]}
    if isinstance(value, list):
        return {"l": [encode(v, handle_id) for v in value]}
    if value is Ellipsis:
        return {"e": 0}
    if isinstance(value, DType):
        return {"d": value.name}
    raise ProtocolError(f"cannot send a value of type {type(value).__name__}")


_PLAIN = frozenset([type(None), bool, int, float, str])
_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def decode(value: Any, depth: int = 0) -> Any:
    """Tagged JSON value -> Python value (handles become ``Handle``, dtypes ``DType``)."""
    if depth > 32:
        raise ProtocolError("value nested too deeply")
    if type(value) in _PLAIN:  # json's own types, never subclasses
        return value
    if isinstance(value, dict) and len(value) == 1:
        ((tag, inner),) = value.items()
        if tag == "h" and isinstance(inner, int):
            return Handle(inner)
        flat = depth < 32 and isinstance(inner, list) and _PLAIN.issuperset(map(type, inner))  # decoded as is
        if tag == "s" and isinstance(inner, list) and len(inner) == 3:
            return slice(*inner) if flat else slice(*(decode(v, depth + 1) for v in inner))
        if tag == "t" and isinstance(inner, list):
            return tuple(inner) if flat else tuple(decode(v, depth + 1) for v in inner)
        if tag == "l" and isinstance(inner, list):
            return list(inner) if flat else [decode(v, depth + 1) for v in inner]
        if tag == "e":
            return Ellipsis
        if tag == "f" and inner in _FLOATS:
            return _FLOATS[inner]
        if tag == "d" and isinstance(inner, str):
            return DType(inner)
    raise ProtocolError("malformed value in request")
