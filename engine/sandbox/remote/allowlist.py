"""What a solve() may ask the parent to do: numpy functions, array methods, operators, dtypes and keywords.

Each entry names how the operation is metered (docs/metrics.md#trackedarray-convention, the group's TrackedArray
convention):
- ``VIEW``: free (``.T``, ``reshape``) — the result shares its input's buffer, no event;
- ``CREATE``: writes a fresh buffer, reads nothing (``zeros``, ``ones``, ``arange`` …);
- ``COMPUTE``: reads every array argument in full, writes a fresh buffer if the result is an array (ufuncs and
  every other numpy function or method).
Anything not listed is refused with a one-line message naming the operation.
"""

from __future__ import annotations

import numpy as np


class Refused(Exception):
    """A request outside the allow-list or over a budget; ends the run with this one-line message."""


VIEW = "view"
CREATE = "create"
COMPUTE = "compute"

BINARY_OPERATORS = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "truediv": np.true_divide,
    "floordiv": np.floor_divide,
    "mod": np.remainder,
    "pow": np.power,
    "matmul": np.matmul,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "lshift": np.left_shift,
    "rshift": np.right_shift,
    "eq": np.equal,
    "ne": np.not_equal,
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
}
UNARY_OPERATORS = {"neg": np.negative, "pos": np.positive, "abs": np.absolute, "invert": np.invert}

METHODS = {
    "reshape": VIEW,
    "transpose": VIEW,
    "ravel": VIEW,
    "squeeze": VIEW,
    "swapaxes": VIEW,
    "T": VIEW,
    "copy": COMPUTE,
    "astype": COMPUTE,
    "flatten": COMPUTE,
    "sum": COMPUTE,
    "mean": COMPUTE,
    "prod": COMPUTE,
    "any": COMPUTE,
    "all": COMPUTE,
    "argmax": COMPUTE,
    "argmin": COMPUTE,
    "max": COMPUTE,
    "min": COMPUTE,
    "nonzero": COMPUTE,
    "cumsum": COMPUTE,
    "cumprod": COMPUTE,
    "dot": COMPUTE,
    "std": COMPUTE,
    "var": COMPUTE,
    "round": COMPUTE,
    "clip": COMPUTE,
    "argsort": COMPUTE,
    "tolist": COMPUTE,
    "item": COMPUTE,
}

_UFUNC_NAMES = (
    "add subtract multiply divide true_divide floor_divide mod remainder power abs absolute negative sign "
    "sqrt "
    "exp log log2 maximum minimum bitwise_and bitwise_or bitwise_xor logical_and logical_or logical_xor "
    "logical_not equal not_equal less greater less_equal greater_equal isnan isfinite floor ceil round where "
    "clip square"
)
_OTHER_NAMES = (
    "sum mean prod any all argmax argmin max min amax amin nonzero count_nonzero cumsum dot matmul outer "
    "concatenate stack vstack hstack column_stack unique sort argsort flatnonzero array_equal allclose tile "
    "repeat bincount diag trace copy median std var"
)
FUNCTIONS: dict[str, str] = {name: COMPUTE for name in (_UFUNC_NAMES + " " + _OTHER_NAMES).split()}
FUNCTIONS.update({"transpose": VIEW, "reshape": VIEW, "ravel": VIEW, "squeeze": VIEW})
FUNCTIONS.update({name: CREATE for name in ["zeros", "ones", "empty", "full", "arange", "eye", "identity"]})
FUNCTIONS.update({name: CREATE for name in ["zeros_like", "ones_like", "empty_like", "full_like"]})
FUNCTIONS.update({"array": COMPUTE, "asarray": COMPUTE})
ZEROED = {"empty": "zeros", "empty_like": "zeros_like"}
"""Constructors numpy leaves uninitialised, and what the parent runs for them instead: their memory would be the
judge's own (freed instance data, replies, pointers), so ``np.empty``/``np.empty_like`` behave as
``zeros``/``zeros_like`` (same shape, dtype and price: a fresh buffer written, nothing read). Every other allowed
constructor and operation defines every element it returns."""

DTYPES = {
    name: np.dtype(name)
    for name in [
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
    ]
}
DTYPE_ALIASES = {"int": np.dtype("int64"), "float": np.dtype("float64"), "bool_": np.dtype("bool")}

KEYWORDS = frozenset(
    [
        "size",
        "replace",
        "endpoint",
        "loc",
        "scale",
        "p",
        "axis",
        "keepdims",
        "dtype",
        "return_counts",
        "return_index",
        "return_inverse",
        "ddof",
        "decimals",
        "k",
        "minlength",
        "kind",
    ]
)


def resolve_dtype(name: str) -> np.dtype:
    """An allow-listed numeric dtype by name; Refused otherwise (no object, string or void dtypes)."""
    if name in DTYPES:
        return DTYPES[name]
    if name in DTYPE_ALIASES:
        return DTYPE_ALIASES[name]
    raise Refused(f"dtype '{name}' is not allowed; use one of: {', '.join(DTYPES)}")
