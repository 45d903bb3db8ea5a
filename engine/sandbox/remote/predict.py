"""What a remote-array operation will return, worked out from metadata alone, for the child to pipeline it.

Runs inside the sandboxed child, which has no numpy: pure Python over shapes and dtype names. Each function returns
``(shape, dtype name)`` only when it can prove that numpy 2 runs the operation without an exception and returns an
array or a numpy scalar (which the parent holds as a 0-d array, shape ``()``); otherwise None, and the child asks
the parent and waits, as for every other request. A prediction is never trusted: the parent checks it against what
numpy returned and ends the run if they differ (engine/sandbox/remote/session.py).
tests/engine/sandbox/test_pipelining.py checks every prediction against numpy 2 itself, on every dtype pair and the
Python scalars.

Promotion follows NEP 50 (numpy ≥ 2): a Python ``int``/``float`` operand is "weak" — it takes the array's dtype
(an int that does not fit raises ``OverflowError``, so it is not predicted), except that an int with a bool array
gives ``int64`` and a float with a bool or integer array ``float64``; a Python ``bool`` is ``bool``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

Shape = tuple[int, ...]
Prediction = tuple[Shape, str] | None


class Meta(NamedTuple):
    """An array operand as the child knows it: shape and dtype name."""

    shape: Shape
    dtype: str


_ORDER: tuple[str, ...] = ("bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64")
_ORDER += ("float16", "float32", "float64")
KIND = {name: name[0] if name != "bool" else "b" for name in _ORDER}  # b, u, i, f
BITS = {name: int("".join(c for c in name if c.isdigit()) or 8) for name in _ORDER}
ALIASES = {"int": "int64", "float": "float64", "bool_": "bool", "int_": "int64"}
_INT_RANGE = {
    name: ((0, 2 ** BITS[name]) if KIND[name] == "u" else (-(2 ** (BITS[name] - 1)), 2 ** (BITS[name] - 1)))
    for name in _ORDER
    if KIND[name] in "iu"
}
_FLOAT_FOR_INT_BITS = {8: "float16", 16: "float32", 32: "float64", 64: "float64"}


def _safe(a: str, b: str) -> bool:
    """numpy's ``can_cast(a, b, 'safe')`` for the numeric dtypes."""
    ka, kb = KIND[a], KIND[b]
    if a == b or ka == "b":
        return True
    if kb == "f" and ka in "iu":
        return BITS[b] >= BITS[_FLOAT_FOR_INT_BITS[BITS[a]]]
    if ka == "u":
        return (kb == "u" and BITS[b] >= BITS[a]) or (kb == "i" and BITS[b] > BITS[a])
    if ka == "i":
        return kb == "i" and BITS[b] >= BITS[a]
    return ka == "f" and kb == "f" and BITS[b] >= BITS[a]


def _promoted(a: str, b: str) -> str:
    return next(t for t in _ORDER if _safe(a, t) and _safe(b, t))


_PROMOTED = {(a, b): _promoted(a, b) for a in _ORDER for b in _ORDER}


def promote(a: str, b: str) -> str:
    """``np.promote_types(a, b)``: the first dtype both cast to safely."""
    return _PROMOTED[a, b]


def _scalar_dtype(value: Any, other: str) -> str | None:
    """The dtype a Python scalar operand takes beside an array of dtype ``other`` (NEP 50); None if it may raise."""
    if type(value) is bool:
        return "bool"
    if type(value) is int:
        if KIND[other] in "iu":
            low, high = _INT_RANGE[other]
            return other if low <= value < high else None
        if KIND[other] == "b":
            return "int64" if -(2**63) <= value < 2**63 else None
        return other
    if type(value) is float:
        return other if KIND[other] == "f" else "float64"
    return None


def _operand_dtypes(a: Any, b: Any) -> tuple[str, str] | None:
    if isinstance(a, Meta) and isinstance(b, Meta):
        return a.dtype, b.dtype
    if isinstance(a, Meta):
        other = _scalar_dtype(b, a.dtype)
        return None if other is None else (a.dtype, other)
    if isinstance(b, Meta):
        other = _scalar_dtype(a, b.dtype)
        return None if other is None else (other, b.dtype)
    return None


def broadcast(a: Shape, b: Shape) -> Shape | None:
    """numpy's broadcast of two shapes; None when they do not broadcast."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        da = a[-i] if i <= len(a) else 1
        db = b[-i] if i <= len(b) else 1
        if da != db and da != 1 and db != 1:
            return None
        out.append(db if da == 1 else da)
    return tuple(reversed(out))


_COMPARISONS = frozenset(["eq", "ne", "lt", "le", "gt", "ge"])
_ARITHMETIC = frozenset(["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor"])


def binary(name: str, a: Any, b: Any) -> Prediction:
    """``a <op> b`` for an operator name of the wire format (``add``, ``eq`` …); one operand at least a Meta."""
    if name not in _COMPARISONS and name not in _ARITHMETIC:
        return None
    dtypes = _operand_dtypes(a, b)
    if dtypes is None:
        return None
    shape = broadcast(a.shape if isinstance(a, Meta) else (), b.shape if isinstance(b, Meta) else ())
    if shape is None:  # no broadcast (a 0-d result is a numpy scalar, held by the parent as a 0-d array)
        return None
    dtype = promote(*dtypes)
    kind = KIND[dtype]
    if name in _COMPARISONS:
        return shape, "bool"
    if name in ("add", "mul"):
        return shape, dtype
    if name in ("sub", "floordiv", "mod"):
        return (shape, dtype) if kind != "b" else None  # bool - bool raises; // and % of bools give int8
    if name == "truediv":
        return shape, dtype if kind == "f" else "float64"
    if name == "pow":
        return (shape, dtype) if kind == "f" else None  # an integer to a negative power raises, data-dependent
    return (shape, dtype) if kind in "biu" else None  # & | ^ on floats raise


def unary(name: str, a: Meta) -> Prediction:
    """``-a``, ``+a``, ``abs(a)``, ``~a``."""
    kind = KIND[a.dtype]
    if name in ("neg", "pos"):
        return None if kind == "b" else (a.shape, a.dtype)
    if name == "abs":
        return a.shape, a.dtype
    if name == "invert":
        return (a.shape, a.dtype) if kind in "biu" else None
    return None


def _plain_int(value: Any) -> bool:
    return type(value) is int


def getitem(a: Meta, index: Any) -> Prediction:
    """``a[index]`` for an index of in-bounds ints, slices of ints, None, one Ellipsis and at most one list of
    in-bounds ints (then no int beside it: numpy would move the broadcast dimension to the front)."""
    parts = index if type(index) is tuple else (index,)
    lists = ints = ellipses = named = 0
    for part in parts:  # never ``in`` or ==: a handle in an index would answer with a request
        kind = type(part)
        if part is None:
            continue
        if part is Ellipsis:
            ellipses += 1
            continue
        named += 1
        lists += kind is list
        ints += kind is int
    shape = a.shape
    if lists > 1 or (lists and ints) or ellipses > 1 or named > len(shape):
        return None
    out: list[int] = []
    dim = 0
    for part in parts if ellipses else (*parts, Ellipsis):
        kind = type(part)
        if part is None:
            out.append(1)
        elif part is Ellipsis:
            for _ in range(len(shape) - named):
                out.append(shape[dim])
                dim += 1
        elif kind is int:
            if not -shape[dim] <= part < shape[dim]:
                return None
            dim += 1
        elif kind is slice:
            start, stop, step = part.start, part.stop, part.step
            if not all(v is None or type(v) is int for v in (start, stop, step)) or step == 0:
                return None
            out.append(len(range(*part.indices(shape[dim]))))
            dim += 1
        elif kind is list:
            n = shape[dim]
            if not part or not all(type(i) is int and -n <= i < n for i in part):
                return None
            out.append(len(part))
            dim += 1
        else:
            return None
    return tuple(out), a.dtype


_SUM_DTYPE = {"b": "int64", "i": "int64", "u": "uint64"}
_REDUCTIONS = frozenset(["sum", "prod", "any", "all", "max", "min", "amax", "amin", "argmax", "argmin", "mean"])


def reduction(name: str, a: Meta, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Prediction:
    """``np.<name>(a[, axis])`` / ``a.<name>([axis])`` over everything (no axis, or ``None``) or one in-range int
    axis (by position or ``axis=``), and nothing else."""
    if name not in _REDUCTIONS:
        return None
    if args and not kwargs and len(args) == 1:
        axis = args[0]
    elif not args and set(kwargs) == {"axis"}:
        axis = kwargs["axis"]
    elif not args and not kwargs:
        axis = None
    else:
        return None
    ndim = len(a.shape)
    if axis is None:
        shape: Shape = ()
        reduced = 1
        for d in a.shape:
            reduced *= d
    elif not _plain_int(axis) or not -ndim <= axis < ndim:
        return None
    else:
        axis %= ndim
        shape, reduced = a.shape[:axis] + a.shape[axis + 1 :], a.shape[axis]
    kind = KIND[a.dtype]
    if name in ("max", "min", "amax", "amin", "argmax", "argmin") and reduced == 0:
        return None  # numpy raises on an empty reduction without an identity
    if name in ("sum", "prod"):
        return shape, _SUM_DTYPE.get(kind, a.dtype)
    if name in ("any", "all"):
        return shape, "bool"
    if name in ("argmax", "argmin"):
        return shape, "int64"
    if name == "mean":
        return shape, a.dtype if kind == "f" else "float64"
    return shape, a.dtype


def _new_shape(size: int, args: tuple[Any, ...]) -> Shape | None:
    dims = args[0] if len(args) == 1 and type(args[0]) in (tuple, list) else args
    if not dims or not all(_plain_int(d) and d >= -1 for d in dims) or sum(1 for d in dims if d == -1) > 1:
        return None
    known = 1
    for d in dims:
        known *= d if d != -1 else 1
    if -1 in dims:
        if known == 0 or size % known:
            return None
        return tuple(size // known if d == -1 else d for d in dims)
    return tuple(dims) if known == size else None


def method(name: str, a: Meta, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Prediction:
    """``a.<name>(*args, **kwargs)`` for views, copies, ``astype`` and the reductions above."""
    if name in _REDUCTIONS:
        return reduction(name, a, args, kwargs)
    if kwargs or not a.shape:
        return None
    size = 1
    for d in a.shape:
        size *= d
    if name == "reshape":
        shape = _new_shape(size, args)
        return (shape, a.dtype) if shape else None
    if args:
        if name == "astype" and len(args) == 1 and isinstance(args[0], str):
            dtype = ALIASES.get(args[0], args[0])
            return (a.shape, dtype) if dtype in KIND else None
        return None
    if name in ("T", "transpose"):
        return tuple(reversed(a.shape)), a.dtype
    if name in ("ravel", "flatten"):
        return (size,), a.dtype
    if name == "copy":
        return a.shape, a.dtype
    return None


def function(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Prediction:
    """``np.<name>(a, …)`` for the reductions above, ``a`` a Meta."""
    if not args or not isinstance(args[0], Meta):
        return None
    return reduction(name, args[0], args[1:], kwargs)
