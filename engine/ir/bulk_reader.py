"""The bulk IR reader: parse a whole program body with a few numpy passes over its bytes (docs/metrics.md#ir-syntax).

It accepts only the canonical shape — ``op`` + one space + comma-separated operands, each ``-?digits`` within int64
(a ``cmp`` predicate last) — and accounts for every byte, so it returns None for anything else; the line-by-line
reader in :mod:`engine.ir.parser` then defines the result and the error. Property tests check that both agree.
Numbers are read by numpy's C text reader (``np.fromstring`` with a separator) after blanking everything but
digits and signs. On this kind of input numpy's cost is mostly touching fresh memory, so few full-length
temporaries are made.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from engine.ir.instruction_set import BINARY, PREDICATES, UNARY, Dialect, Op, arity_ok

_INT64_MAX = 2**63 - 1


def _op_key(name: str) -> int:
    """Bulk-reader key of an op name: its first four bytes (little-endian) and its length."""
    raw = name.encode("ascii")
    return int.from_bytes(raw[:4], "little") | (len(raw) << 32)


_KEY_MASK = np.array([0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF], dtype=np.int64)
"""Keeps the first 1..4 bytes of a 4-byte word."""


@cache
def _op_table(dialect: Dialect) -> tuple[np.ndarray, np.ndarray]:
    """Sorted op keys of ``dialect`` and their op codes."""
    pairs = sorted((_op_key(op.name.lower()), int(op)) for op in dialect.ops)
    return np.array([k for k, _ in pairs], dtype=np.int64), np.array([c for _, c in pairs], dtype=np.int8)


_PRED_KEYS = {int.from_bytes(p.encode(), "little"): code for p, code in PREDICATES.items()}
_ARITY_TABLE = np.array([[arity_ok(Op(c), k) for k in range(5)] for c in range(len(Op))], dtype=bool)
"""Allowed operand counts (destination included): row = op code, column = count 0..4."""
_IS_BINARY = np.array([Op(c) in BINARY for c in range(len(Op))])
_IS_UNARY = np.array([Op(c) in UNARY for c in range(len(Op))])
_N_SRC = np.array(
    [
        2 if Op(c) in BINARY or c == Op.CMP else 1 if Op(c) in UNARY else 3 if c == Op.SELECT else 0
        for c in range(len(Op))
    ],
    dtype=np.int8,
)
"""Reads per instruction by op code."""


def read_bulk(raw: bytes, lo: int, hi: int, n: int, dialect: Dialect) -> tuple[np.ndarray, ...] | None:
    """Parse the ``n`` instructions in ``raw[lo:hi]`` (each ending in a newline) with array operations; None when
    any line needs the line reader.

    Accepted shape: ``op`` + one space + comma-separated operands, each ``-?digits`` within int64 except a ``cmp``
    predicate. Every byte is accounted for, so anything else falls back. Few full-length temporaries are made: on
    this kind of input numpy's cost is mostly touching fresh memory.
    """
    if n == 0 or hi - lo < 2:
        return None
    b = np.frombuffer(raw, dtype=np.uint8, count=hi - lo, offset=lo)
    # separators and signs are the bytes below '0'; letters (and other punctuation) are above '9'
    low = np.flatnonzero(b < 48)
    low_char = b[low]
    space_at = np.flatnonzero(low_char == 32)
    end_at = np.flatnonzero(low_char == 10)
    if space_at.size != n or end_at.size != n:
        return None
    spaces = low[space_at]
    ends = low[end_at]
    commas = low[low_char == 44]
    minus = low[low_char == 45]
    if 2 * n + commas.size + minus.size != low.size:
        return None
    starts = np.empty(n, dtype=np.int64)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    if not ((spaces > starts + 1) & (spaces < ends - 1)).all():
        return None  # not exactly one space per line between an op and its operands

    # ops: key = first four bytes + length, looked up among the dialect's ops
    op_len = spaces - starts
    if op_len.max() > 6:
        return None
    words = np.ndarray(shape=(b.size - 3,), dtype="<u4", buffer=raw, offset=lo, strides=(1,))  # 4 bytes at each offset
    keys = (words[starts].astype(np.int64) & _KEY_MASK[np.minimum(op_len, 4)]) | (op_len << 32)
    table_keys, table_codes = _op_table(dialect)
    where = np.minimum(np.searchsorted(table_keys, keys), table_keys.size - 1)
    if not (table_keys[where] == keys).all():
        return None
    op = table_codes[where]
    selects = starts[op == Op.SELECT]  # the key holds 4 of its 6 letters: check the rest
    if selects.size and not ((b[selects + 4] == ord("c")) & (b[selects + 5] == ord("t"))).all():
        return None

    # operand layout: tokens per line from its commas; a cmp line ends with `,XX` (the predicate)
    # tokens per line = separators between its space and its newline (+1), minus signs excepted
    count = end_at - space_at
    if minus.size:
        count -= np.diff(np.searchsorted(minus, np.append(starts, b.size)))
    if count.max() > 4 or not _ARITY_TABLE[op, count].all():
        return None
    is_cmp = op == Op.CMP
    cmp_ends = ends[is_cmp]
    if cmp_ends.size and not (b[cmp_ends - 3] == 44).all():
        return None

    # every token is -?digits: the byte after a separator starts a number (or a predicate), the byte before a
    # comma or a line end is a digit, a minus sits at a token start, and all bytes above '9' are op or predicate
    # letters (counted), so every remaining byte is a digit
    def digits(at: np.ndarray) -> bool:
        return bool(((b[at] - np.uint8(48)) < 10).all())

    after = b[commas + 1]
    starts_number = ((after - np.uint8(48)) < 10) | (after == 45)
    if not np.array_equal(commas[~starts_number], cmp_ends - 3):
        return None
    after_space = b[spaces + 1]
    if not (((after_space - np.uint8(48)) < 10) | (after_space == 45)).all():
        return None
    if not digits(commas - 1) or not digits(ends[~is_cmp] - 1):
        return None
    if minus.size and not (digits(minus + 1) and bool(np.isin(b[minus - 1], (32, 44)).all())):
        return None
    if int(np.count_nonzero(b > 57)) != int(op_len.sum()) + 2 * cmp_ends.size:
        return None

    # numbers, in order, by numpy's C text reader on the bytes with everything but signs and digits blanked
    n_numeric = count - is_cmp
    blanked = raw[lo:hi].translate(_BLANK_NON_NUMERIC)
    values = np.fromstring(blanked, dtype=np.int64, sep=" ")
    if values.size != int(n_numeric.sum()):
        return None
    if int(values.max()) >= _INT64_MAX or int(values.min()) <= -_INT64_MAX:
        return None  # the C reader clamps numbers beyond int64: let the line reader keep them exact
    first = np.cumsum(n_numeric) - n_numeric
    last = values.size - 1
    dest = values[first]
    v1 = values[first + 1]
    v2 = np.where(n_numeric >= 3, values[np.minimum(first + 2, last)], 0)
    v3 = np.where(n_numeric >= 4, values[np.minimum(first + 3, last)], 0)
    preds = np.zeros(n, dtype=np.int64)
    if cmp_ends.size:
        pred_keys = b[cmp_ends - 2].astype(np.int64) | (b[cmp_ends - 1].astype(np.int64) << 8)
        known = np.unique(pred_keys)
        lookup = np.array([_PRED_KEYS.get(int(k), -1) for k in known])
        codes = lookup[np.searchsorted(known, pred_keys)]
        if (codes < 0).any():
            return None
        preds[is_cmp] = codes

    is_set = op == Op.SET
    literal = v1[is_set]
    low_lit, high_lit = dialect.set_range
    if literal.size and (literal.min() < low_lit or literal.max() > high_lit):
        return None
    if dialect.wrap8 and literal.size:
        literal = ((literal & 0xFF) ^ 0x80) - 0x80
    binary = _IS_BINARY[op]
    unary = _IS_UNARY[op]
    short = binary & (count == 2)
    src = np.zeros((n, 3), dtype=np.int64)
    src[:, 0] = np.where(short, dest, v1)
    src[:, 1] = np.where(short, v1, v2)
    src[:, 2] = np.where(op == Op.SELECT, v3, 0)
    src[is_set, 0] = 0
    src[unary, 1] = 0
    n_src = _N_SRC[op]
    imm = preds
    imm[is_set] = literal
    return op, dest, src, n_src, imm


_BLANK_NON_NUMERIC = bytes.maketrans(bytes(c for c in range(128) if not (48 <= c <= 57 or c == 45)), b" " * (128 - 11))
"""bytes.translate table: every ASCII byte except digits and '-' becomes a space."""
