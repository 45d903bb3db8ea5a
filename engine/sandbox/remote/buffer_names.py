"""Readable names for the buffers a remote-array session creates, for per-buffer attribution of ``solve()`` runs.

The parent never sees the member's source, only the requests, so a buffer is named after the request that created
it and the names of the arrays it read (engine/attribution names in-process buffers after their source line
instead): the inputs are ``x`` and ``y``; ``x @ w``-style operator results name both operands (``k`` for a plain
number); ``x[…]`` an indexed read; ``x.sum()`` a method; ``np.zeros()`` a numpy function; ``rng.integers()`` a draw.
An operand whose own name is long is written ``…``, so names stay short (at most :data:`MAX_NAME` characters) and
the same code names the same buffers on every instance — which is what lets two runs be compared buffer by buffer.
Buffers that are written and never read (a partial write's own clock buffer) get no row in any table.
"""

from __future__ import annotations

MAX_NAME = 28
MAX_OPERAND = 12
SYMBOLS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "matmul": "@",
    "and": "&",
    "or": "|",
    "xor": "^",
    "lshift": "<<",
    "rshift": ">>",
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "neg": "-",
    "pos": "+",
    "abs": "abs ",
    "invert": "~",
}
INPUT_NAMES = ("x", "y")
"""The arrays a ``solve(x, y, n_bits, k_sparse)`` session opens with, in order."""

PARTIAL_WRITE = "(partial write)"


def input_name(index: int) -> str:
    return INPUT_NAMES[index] if index < len(INPUT_NAMES) else f"input {index}"


def operand(name: str) -> str:
    """An operand's name inside a longer one: itself when short, else ``…``."""
    return name if len(name) <= MAX_OPERAND else "…"


def _short(text: str) -> str:
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "…"


def binary_name(op: str, operands: list[str]) -> str:
    """``a @ b`` from the operator and the names of the arrays it read, in order (``k`` for a missing operand)."""
    names = [operand(n) for n in operands[:2]] + ["k"] * (2 - min(len(operands), 2))
    return _short(f"{names[0]} {SYMBOLS.get(op, op)} {names[1]}")


def unary_name(op: str, operands: list[str]) -> str:
    return _short(f"{SYMBOLS.get(op, op)}{operand(operands[0]) if operands else 'k'}")


def index_name(target: str) -> str:
    return _short(f"{operand(target)}[…]")


def method_name(target: str, method: str) -> str:
    return _short(f"{operand(target)}.{method}()")


def function_name(prefix: str, function: str) -> str:
    """``np.zeros()`` / ``rng.integers()``."""
    return _short(f"{prefix}.{function}()")
