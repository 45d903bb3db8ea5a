"""IR text -> :class:`Program`, with precise one-line errors (engine.md §1.1).

Text rules (the reference scorers' reading, cybertronai/sutro-problems): ``;`` and line breaks
(``str.splitlines``, so CRLF too) separate lines; every line is stripped; blank lines are ignored. The first line
lists input addresses, the last output addresses; each line between is ``op operands`` split at the first space,
operands comma-separated and read with Python's ``int`` (so ``3, 1`` and `` 3`` are fine).

Speed: the body is parsed in bulk with numpy over its bytes (:func:`_body_bulk`, ~1 ms for 10,000 lines) whenever
it is in the canonical shape ``op a,b,c`` (``, `` allowed); anything else — and every error — goes through the
line-by-line reader (:func:`_body_by_line`), which defines the semantics and names the first offending line. A
property test checks that both readers agree.
"""

from __future__ import annotations

import numpy as np

from engine.ir.errors import InvalidProgram, quote
from engine.ir.instruction_set import ARITY_TEXT, BINARY, OP_BY_NAME, PREDICATES, UNARY, Dialect, Op, arity_ok
from engine.ir.program import Program

_INT64_MAX = 2**63 - 1
_MAX_BULK_DIGITS = 18


def parse(text: str, dialect: Dialect) -> Program:
    """Parse ``text`` under ``dialect``; raise :class:`InvalidProgram` naming the first line that breaks a rule."""
    lines, numbers = _statements(text)
    if dialect.max_lines is not None and len(lines) > dialect.max_lines:
        raise InvalidProgram(
            f"program has {len(lines):,} lines; this scorer accepts at most {dialect.max_lines:,}",
            hint="shorten the program",
        )
    if len(lines) < 2:
        raise InvalidProgram(
            "a program needs at least an input line and an output line",
            hint="first line: input addresses, last line: output addresses, e.g. `1,2;mul 3,1,2;3`",
        )
    inputs = _address_line(lines[0], int(numbers[0]), "input", dialect)
    outputs = _address_line(lines[-1], int(numbers[-1]), "output", dialect)
    body = lines[1:-1]
    body_numbers = numbers[1:-1]
    arrays = _body_bulk(body, dialect)
    if arrays is None:
        arrays = _body_by_line(body, body_numbers, dialect)
    op, dest, src, n_src, imm = arrays
    return Program(
        inputs=inputs,
        outputs=outputs,
        op=op,
        dest=dest,
        src=src,
        n_src=n_src,
        imm=imm,
        line=np.asarray(body_numbers, dtype=np.int64),
        text=body,
        input_line=int(numbers[0]),
        output_line=int(numbers[-1]),
        n_lines=len(lines),
    )


def _statements(text: str) -> tuple[list[str], np.ndarray]:
    """Non-blank stripped lines and their 1-based physical line numbers (a ``;`` piece keeps its line's number)."""
    physical = text.splitlines()
    if ";" in text:
        lines: list[str] = []
        numbers: list[int] = []
        for number, raw in enumerate(physical, 1):
            for piece in raw.split(";"):
                stripped = piece.strip()
                if stripped:
                    lines.append(stripped)
                    numbers.append(number)
        return lines, np.asarray(numbers, dtype=np.int64)
    lines = list(map(str.strip, physical))
    if all(lines):
        return lines, np.arange(1, len(lines) + 1, dtype=np.int64)
    keep = [i for i, s in enumerate(lines) if s]
    return [lines[i] for i in keep], np.asarray(keep, dtype=np.int64) + 1


def address_array(values: list[int]) -> np.ndarray:
    """int64 array of ``values``, or an object array of exact ints when one does not fit in int64."""
    if values and (max(values) > _INT64_MAX or min(values) < -_INT64_MAX):
        return np.array(values, dtype=object)
    return np.array(values, dtype=np.int64)


def _to_int(token: str, line: int, text: str, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        shown = quote(token.strip()) if token.strip() else "an empty operand"
        raise InvalidProgram(
            f"{quote(text)}: {shown} is not {what}",
            line=line,
            hint="operands are comma-separated integers",
        ) from None


def _address_line(text: str, line: int, what: str, dialect: Dialect) -> np.ndarray:
    """The input or output line: comma-separated integers."""
    tokens = text.split(",")
    if dialect.skip_empty_tokens:
        tokens = [t for t in tokens if t.strip()]
    try:
        values = list(map(int, tokens))
    except ValueError:
        values = [_to_int(t, line, text, f"an integer address ({what} line)") for t in tokens]
    return address_array(values)


def _body_by_line(body: list[str], numbers: np.ndarray, dialect: Dialect) -> tuple[np.ndarray, ...]:
    """Read the instructions one line at a time: the defining reader, raising at the first bad line."""
    n = len(body)
    op = np.zeros(n, dtype=np.int8)
    n_src = np.zeros(n, dtype=np.int8)
    imm = np.zeros(n, dtype=np.int64)
    dest: list[int] = [0] * n
    src: list[list[int]] = [[0, 0, 0] for _ in range(n)]
    allowed = dialect.ops
    for i, text in enumerate(body):
        line = int(numbers[i])
        head, _, rest = text.partition(" ")
        code = OP_BY_NAME.get(head)
        if code is None or code not in allowed:
            raise InvalidProgram(
                f"{quote(text)}: unknown op {quote(head)}",
                line=line,
                hint=f"{dialect.name} accepts: " + ", ".join(dialect.op_names()),
            )
        if dialect.skip_empty_tokens:
            raw = [t.strip() for t in rest.split(",") if t.strip()] if rest else []
        else:
            raw = rest.split(",") if rest else []
        if not arity_ok(code, len(raw)):
            raise InvalidProgram(
                f"{quote(text)}: {head} takes {ARITY_TEXT[code]}, got {len(raw)}",
                line=line,
                hint="operands are comma-separated after one space, e.g. `add 3,1,2`",
            )
        if code == Op.CMP:
            pred = raw[3].strip() if not dialect.skip_empty_tokens else raw[3]
            if pred not in PREDICATES:
                raise InvalidProgram(
                    f"{quote(text)}: unknown cmp predicate {quote(pred)}",
                    line=line,
                    hint="predicates: " + ", ".join(PREDICATES),
                )
            ints = [_to_int(t, line, text, "an integer address") for t in raw[:3]]
            imm[i] = PREDICATES[pred]
        elif code == Op.SET:
            ints = [_to_int(raw[0], line, text, "an integer address"), _to_int(raw[1], line, text, "an integer")]
            low, high = dialect.set_range
            if not low <= ints[1] <= high:
                raise InvalidProgram(
                    f"{quote(text)}: literal {ints[1]} is outside [{low}, {high}]",
                    line=line,
                    hint="set takes an 8-bit literal",
                )
            imm[i] = _wrap8(ints[1]) if dialect.wrap8 else ints[1]
        else:
            ints = [_to_int(t, line, text, "an integer address") for t in raw]
        op[i] = code
        dest[i] = ints[0]
        if code in BINARY:
            reads = ints[1:] if len(ints) == 3 else [ints[0], ints[1]]
        elif code in UNARY:
            reads = ints[1:2]
        elif code == Op.SET:
            reads = []
        else:  # cmp reads a,b; select reads c,t,f
            reads = ints[1:3] if code == Op.CMP else ints[1:4]
        n_src[i] = len(reads)
        src[i][: len(reads)] = reads
    flat = [a for row in src for a in row]
    src_array = address_array(flat).reshape(n, 3) if n else np.zeros((0, 3), dtype=np.int64)
    dest_array = address_array(dest)
    if src_array.dtype != dest_array.dtype:
        src_array, dest_array = src_array.astype(object), dest_array.astype(object)
    return op, dest_array, src_array, n_src, imm


def _wrap8(value: int) -> int:
    value &= 0xFF
    return value - 0x100 if value >= 0x80 else value


def _op_key(name: str) -> int:
    """Bulk-reader key of an op name: its first three bytes and its length."""
    raw = name.encode("ascii")
    third = raw[2] if len(raw) >= 3 else 0
    return raw[0] | (raw[1] << 8) | (third << 16) | (len(raw) << 24)


def _op_table(dialect: Dialect) -> tuple[np.ndarray, np.ndarray]:
    """Sorted op keys of ``dialect`` and their op codes."""
    pairs = sorted((_op_key(op.name.lower()), int(op)) for op in dialect.ops)
    return np.array([k for k, _ in pairs], dtype=np.int64), np.array([c for _, c in pairs], dtype=np.int8)


_PRED_KEYS = {int.from_bytes(p.encode(), "little"): code for p, code in PREDICATES.items()}
_ARITY_TABLE = np.array([[arity_ok(Op(c), k) for k in range(5)] for c in range(len(Op))], dtype=bool)
"""Allowed operand counts (destination included): row = op code, column = count 0..4."""
_IS_BINARY = np.array([Op(c) in BINARY for c in range(len(Op))])
_IS_UNARY = np.array([Op(c) in UNARY for c in range(len(Op))])
_N_SRC = np.array([2 if Op(c) in BINARY or c == Op.CMP else 1 if Op(c) in UNARY else 3 if c == Op.SELECT else 0
                   for c in range(len(Op))], dtype=np.int8)
"""Reads per instruction by op code."""


def _body_bulk(body: list[str], dialect: Dialect) -> tuple[np.ndarray, ...] | None:
    """Parse canonical-shape instructions with array operations; None when any line needs the line reader."""
    n = len(body)
    if n == 0:
        return None
    joined = "\n".join(body)
    if ", " in joined:
        joined = joined.replace(", ", ",")
    if not joined.isascii():
        return None
    b = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    spaces = np.flatnonzero(b == 32)
    if spaces.size != n:
        return None
    newlines = np.flatnonzero(b == 10)
    starts = np.empty(n, dtype=np.int64)
    starts[0] = 0
    starts[1:] = newlines + 1
    ends = np.empty(n, dtype=np.int64)
    ends[:-1] = newlines
    ends[-1] = b.size
    if not ((spaces > starts + 1) & (spaces < ends - 1)).all():
        return None  # not exactly one space per line between an op and its operands

    # ops: key = first three bytes + length (exact for 2- and 3-letter names; longer names checked in full)
    op_len = spaces - starts
    if op_len.max() > 6:
        return None
    third = np.where(op_len >= 3, b[np.minimum(starts + 2, b.size - 1)], 0).astype(np.int64)
    keys = b[starts].astype(np.int64) | (b[starts + 1].astype(np.int64) << 8) | (third << 16) | (op_len << 24)
    table_keys, table_codes = _op_table(dialect)
    where = np.minimum(np.searchsorted(table_keys, keys), table_keys.size - 1)
    if not (table_keys[where] == keys).all():
        return None
    op = table_codes[where]
    for long_op in (Op.COPY, Op.SELECT):
        rows = starts[op == long_op]
        name = np.frombuffer(long_op.name.lower().encode("ascii"), dtype=np.uint8)
        if rows.size and not (b[rows[:, None] + np.arange(name.size)] == name).all():
            return None

    # operand tokens: from after the space / each comma to the next comma / line end
    seps = np.flatnonzero((b == 44) | (b == 32) | (b == 10))
    sep_char = b[seps]
    tok_start = seps[sep_char != 10] + 1
    tok_end = np.append(seps[sep_char != 32], b.size)
    tok_len = tok_end - tok_start
    if tok_len.min() < 1:
        return None
    first = np.searchsorted(tok_start, spaces + 1)
    count = np.diff(np.append(first, tok_start.size))
    if count.max() > 4 or not _ARITY_TABLE[op, count].all():
        return None
    pred_tok = first[op == Op.CMP] + 3
    literal_tok = first[op == Op.SET] + 1
    negative_tok = literal_tok[(b[tok_start[literal_tok]] == 45) & (tok_len[literal_tok] >= 2)]
    n_digits = tok_len.copy()
    n_digits[negative_tok] -= 1
    n_digits[pred_tok] = 0
    if n_digits.max() > _MAX_BULK_DIGITS or (tok_len[pred_tok] != 2).any():
        return None
    # every byte is a digit except separators, op names, predicates and literal signs: count them to be sure
    expected_nondigits = seps.size + int(op_len.sum()) + 2 * pred_tok.size + negative_tok.size
    if b.size - int(np.count_nonzero((b - np.uint8(48)) < 10)) != expected_nondigits:
        return None

    # token values by Horner's rule over right-aligned digit columns (tokens are short: few passes)
    values = np.zeros(tok_start.size, dtype=np.int64)
    width = int(n_digits.max())
    for column in range(width, 0, -1):
        at = tok_end - column
        digit = b[np.maximum(at, 0)].astype(np.int64) - 48
        values = values * 10 + np.where(n_digits >= column, digit, 0)
    values[negative_tok] = -values[negative_tok]
    if pred_tok.size:
        p = tok_start[pred_tok]
        pkeys = b[p].astype(np.int64) | (b[p + 1].astype(np.int64) << 8)
        known = np.unique(pkeys)
        lookup = np.array([_PRED_KEYS.get(int(k), -1) for k in known])
        pcodes = lookup[np.searchsorted(known, pkeys)]
        if (pcodes < 0).any():
            return None
        values[pred_tok] = pcodes

    low, high = dialect.set_range
    literal = values[literal_tok]
    if literal.size and (literal.min() < low or literal.max() > high):
        return None
    if dialect.wrap8 and literal.size:
        values[literal_tok] = ((literal & 0xFF) ^ 0x80) - 0x80

    last = tok_start.size - 1
    dest = values[first]
    v1 = values[np.minimum(first + 1, last)]
    v2 = np.where(count >= 3, values[np.minimum(first + 2, last)], 0)
    v3 = np.where(count >= 4, values[np.minimum(first + 3, last)], 0)
    binary = _IS_BINARY[op]
    unary = _IS_UNARY[op]
    short = binary & (count == 2)
    src = np.zeros((n, 3), dtype=np.int64)
    src[:, 0] = np.where(short, dest, v1)
    src[:, 1] = np.where(short, v1, v2)
    src[:, 2] = np.where(op == Op.SELECT, v3, 0)
    src[op == Op.SET, 0] = 0
    src[op == Op.CMP, 2] = 0
    src[unary, 1] = 0
    n_src = _N_SRC[op]
    imm = np.where(op == Op.SET, v1, np.where(op == Op.CMP, v3, 0))
    return op, dest, src, n_src, imm


def statement_ends(text: str) -> tuple[str | None, str | None]:
    """The first and last non-blank lines (``;`` splits lines), stripped; None when there are fewer than two."""
    lines, _ = _statements(text)
    if len(lines) < 2:
        return None, None
    return lines[0], lines[-1]
