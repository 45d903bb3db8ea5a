"""IR text -> :class:`Program`, with precise one-line errors (docs/metrics.md#dally-ir-cost).

Text rules (the reference scorers' reading, cybertronai/sutro-problems): ``;`` and line breaks
(``str.splitlines``, so CRLF too) separate lines; every line is stripped; blank lines are ignored. The first line
lists input addresses, the last output addresses; each line between is ``op operands`` split at the first space,
operands comma-separated and read with Python's ``int`` (so ``3, 1`` and `` 3`` are fine).

Speed: the body is first offered to :func:`engine.ir.bulk_reader.read_bulk` (numpy over its bytes, about a
millisecond for 10,000 lines), which takes the canonical shape ``op a,b,c`` (``, `` allowed); anything else — and
every error — goes through the line-by-line reader (:func:`_body_by_line`), which defines the semantics and names
the first offending line. A property test checks that both readers agree.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.ir.bulk_reader import read_bulk
from engine.ir.errors import InvalidProgram, quote
from engine.ir.instruction_set import ARITY_TEXT, BINARY, OP_BY_NAME, PREDICATES, UNARY, Dialect, Op, arity_ok
from engine.ir.program import LazyLines, Program

_INT64_MAX = 2**63 - 1


def parse(text: str, dialect: Dialect) -> Program:
    """Parse ``text`` under ``dialect``; raise :class:`InvalidProgram` naming the first line that breaks a rule."""
    tidy = _tidy_split(text)
    # the cap counts non-blank lines; the bulk reader declines blank lines, so past the cap the general path counts
    # `, ` separated operands are read once, after the general path joins and tidies them
    if (
        tidy is not None
        and (dialect.max_lines is None or tidy[3] + 2 <= dialect.max_lines)
        and tidy[0].find(b", ", tidy[1], tidy[2]) < 0
    ):
        raw, lo, hi, n_body = tidy
        arrays = read_bulk(raw, lo, hi, n_body, dialect)
        if arrays is not None:
            numbers = np.arange(1, n_body + 3, dtype=np.int64)
            first, last = raw[: lo - 1].decode("ascii"), raw[hi:].decode("ascii")
            body = LazyLines(raw[lo : hi - 1].decode("ascii") if n_body else "", n_body)
            return _program(first, last, body, numbers, arrays, dialect)
    lines, numbers = _statements(text)
    _check_line_count(len(lines), dialect)
    if len(lines) < 2:
        raise InvalidProgram(
            "a program needs at least an input line and an output line",
            hint="first line: input addresses, last line: output addresses, e.g. `1,2;mul 3,1,2;3`",
        )
    body_lines = lines[1:-1]
    joined = ("\n".join(body_lines) + "\n").replace(", ", ",")
    arrays = None
    if joined.isascii():
        encoded = joined.encode("ascii")
        arrays = read_bulk(encoded, 0, len(encoded), len(body_lines), dialect)
    if arrays is None:
        arrays = _body_by_line(body_lines, numbers[1:-1], dialect)
    return _program(lines[0], lines[-1], body_lines, numbers, arrays, dialect)


def _check_line_count(n_lines: int, dialect: Dialect) -> None:
    if dialect.max_lines is not None and n_lines > dialect.max_lines:
        raise InvalidProgram(
            f"program has {n_lines:,} lines; this scorer accepts at most {dialect.max_lines:,}",
            hint="shorten the program",
        )


def _program(
    first: str,
    last: str,
    body: Sequence[str],
    numbers: np.ndarray,
    arrays: tuple[np.ndarray, ...],
    dialect: Dialect,
) -> Program:
    op, dest, src, n_src, imm = arrays
    return Program(
        inputs=_address_line(first, int(numbers[0]), "input", dialect),
        outputs=_address_line(last, int(numbers[-1]), "output", dialect),
        op=op,
        dest=dest,
        src=src,
        n_src=n_src,
        imm=imm,
        line=numbers[1:-1],
        text=body,
        input_line=int(numbers[0]),
        output_line=int(numbers[-1]),
        n_lines=len(body) + 2,
    )


_ODD_CHARS = frozenset(b";\r\t\x0b\x0c\x1c\x1d\x1e\x1f")


def _tidy_split(text: str) -> tuple[bytes, int, int, int] | None:
    """For ASCII text whose input and output lines need no stripping or ``;`` splitting: (the text as bytes, start
    and end of the body — the end just past the body's final newline —, body line count); else None.

    The body is not checked here: the bulk reader accounts for every byte and declines anything (``;``, CR, stray
    spaces, blank lines, ``, ``) that needs the general path."""
    if not text.isascii() or not text or text[0].isspace():
        return None
    raw = text.rstrip().encode("ascii")
    i = raw.find(b"\n")
    j = raw.rfind(b"\n")
    if i < 0 or i == j:
        return None
    first, last = raw[:i], raw[j + 1 :]
    if first != first.strip() or last != last.strip() or not _ODD_CHARS.isdisjoint(first + last):
        return None
    return raw, i + 1, j + 1, raw.count(b"\n", i + 1, j + 1)


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
            ints = [
                _to_int(raw[0], line, text, "an integer address"),
                _to_int(raw[1], line, text, "an integer"),
            ]
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


def statement_ends(text: str) -> tuple[str | None, str | None]:
    """The first and last non-blank lines (``;`` splits lines), stripped; None when there are fewer than two."""
    lines, _ = _statements(text)
    if len(lines) < 2:
        return None, None
    return lines[0], lines[-1]
