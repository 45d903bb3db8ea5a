"""Cases run through both the group's reference implementations and ours (the differential test's inputs).

``bench/make_reference_outputs.py`` runs them through the reference code once and freezes the outputs in
``tests/data/reference_outputs.json``; ``test_reference_differential.py`` checks that our engine reproduces them.
Only inputs live here: no reference code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

# ---------------------------------------------------------------- bytedmd: (function, arguments), by name


def scalar_times_array(c, A):
    return c * A


def array_times_scalar(c, A):
    return A * c


def scalar_plus_scaled(c, A):
    return c + A * c


def scalar_below_array(c, A):
    return c < A


def scalar_times_plain_array(c):
    return c * np.arange(3.0)


def scaled_sum(c, A):
    return (c * A).sum()


def modular_pow(x, e, m):
    return pow(x, e, m)


def modular_pow_constant_modulus(x, e):
    return pow(x, e, 7)


def printed_then_added(x):
    return (str(x), x + 1)[1]


def quotient_and_remainder(a, b):
    q, r = divmod(a, b)
    return q * r


def numpy_matmul(A, B):
    return A @ B


def matvec(A, x):
    n = len(x)
    y = [None] * n
    for i in range(n):
        s = A[i][0] * x[0]
        for j in range(1, n):
            s = s + A[i][j] * x[j]
        y[i] = s
    return y


def sgd_like_update(w, g, lr):
    return w - lr * g


BYTEDMD_CASES: dict[str, tuple[Callable[..., Any], Callable[[], tuple[Any, ...]]]] = {
    "scalar_times_array": (scalar_times_array, lambda: (2.0, np.array([1.0, 2.0, 3.0]))),
    "array_times_scalar": (array_times_scalar, lambda: (2.0, np.array([1.0, 2.0, 3.0]))),
    "scalar_plus_scaled": (scalar_plus_scaled, lambda: (2.0, np.array([[1.0, 2.0], [3.0, 4.0]]))),
    "scalar_below_array": (scalar_below_array, lambda: (2.0, np.array([1.0, 2.0, 3.0]))),
    "scalar_times_plain_array": (scalar_times_plain_array, lambda: (2.0,)),
    "scaled_sum": (scaled_sum, lambda: (2.0, np.array([1.0, 2.0, 3.0]))),
    "modular_pow": (modular_pow, lambda: (3, 4, 5)),
    "modular_pow_constant_modulus": (modular_pow_constant_modulus, lambda: (3, 4)),
    "printed_then_added": (printed_then_added, lambda: (3,)),
    "quotient_and_remainder": (quotient_and_remainder, lambda: (17, 5)),
    "numpy_matmul": (numpy_matmul, lambda: (np.arange(4.0).reshape(2, 2), np.arange(4.0, 8.0).reshape(2, 2))),
    "matvec_4": (matvec, lambda: ([[float(i * 4 + j) for j in range(4)] for i in range(4)], [1.0, 2.0, 3.0, 4.0])),
    "sgd_like_update": (sgd_like_update, lambda: (np.array([0.5, -0.5, 1.5]), np.array([0.1, 0.2, 0.3]), 0.1)),
}

# ---------------------------------------------------------------- ard / dmc: buffer events (is_write, buffer, size)

CLOCK_CASES: dict[str, list[tuple[bool, int, int]]] = {
    "worked_example": [(True, 1, 1), (True, 2, 2), (False, 1, 1), (False, 2, 2), (False, 1, 1)],
    "every_read_size_zero": [(True, 1, 4), (False, 1, 0), (True, 2, 3), (False, 2, 0), (False, 1, 0)],
    "zero_and_nonzero_reads": [(True, 1, 4), (False, 1, 0), (True, 2, 3), (False, 2, 5), (False, 1, 2)],
    "unwritten_reads_only_advance": [(False, 9, 3), (True, 1, 2), (False, 9, 1), (False, 1, 2)],
    "rewrite_resets_distance": [(True, 1, 2), (True, 2, 1), (False, 1, 2), (True, 1, 2), (False, 1, 2)],
}

# ---------------------------------------------------------------- IR text: the 100,000-line cap (sparse parity)


def copy_program(n_lines: int, *, blank_every: int = 0, newline: str = "\n", blank: str = "") -> str:
    """``n_lines`` non-blank lines: input ``1``, ``copy 2,1`` repeated, output ``2`` (dally cost = n_lines), with a
    blank (or whitespace-only) line after every ``blank_every``-th line when non-zero."""
    lines = ["1", *(["copy 2,1"] * (n_lines - 2)), "2"]
    if blank_every:
        spaced: list[str] = []
        for i, line in enumerate(lines, 1):
            spaced.append(line)
            if i % blank_every == 0 and i < len(lines):
                spaced.append(blank)
        lines = spaced
    return newline.join(lines) + newline


IR_CASES: dict[str, Callable[[], str]] = {
    "cap_exact_lf": lambda: copy_program(100_000),
    "cap_exact_lf_blank_lines": lambda: copy_program(100_000, blank_every=10_000),
    "cap_exact_crlf_blank_lines": lambda: copy_program(100_000, blank_every=10_000, newline="\r\n"),
    "cap_exact_lf_whitespace_lines": lambda: copy_program(100_000, blank_every=25_000, blank="  \t"),
    "cap_exact_semicolons": lambda: copy_program(100_000, newline=";"),
    "cap_plus_one_lf": lambda: copy_program(100_001),
    "cap_plus_one_crlf": lambda: copy_program(100_001, newline="\r\n"),
    "byte_order_mark": lambda: "\ufeff1,2\nadd 3,1,2\n3\n",
}
