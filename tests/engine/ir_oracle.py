"""A plain per-instance IR interpreter written for the tests as an independent oracle (docs/metrics.md#dally-ir-cost
semantics).

Straight from the text of docs/metrics.md#dally-ir-cost: a dict memory, one instruction at a time, Python ints, 8-bit
wrap after every arithmetic/bitwise result in the v3 dialect. Deliberately slow and simple; the engine must agree with
it.
"""

from __future__ import annotations

import math

PREDS = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a // b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}


class OracleError(Exception):
    pass


def wrap8(v: int) -> int:
    v &= 0xFF
    return v - 256 if v >= 128 else v


def interpret(text: str, inputs: list[int], *, wrap: bool) -> tuple[list[int], int]:
    """(outputs, dally cost) of ``text`` on one instance; OracleError for any rule broken on the way."""
    lines = [s.strip() for s in text.replace(";", "\n").splitlines() if s.strip()]
    ins = [int(x) for x in lines[0].split(",") if x.strip()]
    outs = [int(x) for x in lines[-1].split(",") if x.strip()]
    if len(set(ins)) != len(ins) or len(ins) != len(inputs):
        raise OracleError("inputs")
    mem = dict(zip(ins, inputs, strict=True))
    cost = 0

    def read(a: int) -> int:
        nonlocal cost
        if a not in mem:
            raise OracleError(f"read {a} before write")
        cost += math.isqrt(a - 1) + 1
        return mem[a]

    for line in lines[1:-1]:
        op, _, rest = line.partition(" ")
        ops = [x.strip() for x in rest.split(",")]
        d = int(ops[0])
        if op == "set":
            v = int(ops[1])
        elif op in ("copy", "not", "abs"):
            a = read(int(ops[1]))
            v = {"copy": a, "not": ~a, "abs": abs(a)}[op]
        elif op == "cmp":
            a, b = read(int(ops[1])), read(int(ops[2]))
            v = 1 if PREDS[ops[3]](a, b) else 0
        elif op == "select":
            c, t, f = read(int(ops[1])), read(int(ops[2])), read(int(ops[3]))
            v = t if c != 0 else f
        else:
            a, b = (read(int(ops[1])), read(int(ops[2]))) if len(ops) == 3 else (read(d), read(int(ops[1])))
            if op == "div" and b == 0:
                raise OracleError("division by zero")
            v = BINARY[op](a, b)
        if wrap and op not in ("cmp", "select"):
            v = wrap8(v)
        mem[d] = v
    result = [read(a) for a in outs]
    return result, cost


def expected_rows(text: str, inputs: list[list[int]]) -> list[list[int]] | None:
    """The oracle's outputs of ``text`` for each instance (8-bit wrap), or None when any instance breaks a rule —
    what a runner over many instances must give, or where it must fault."""
    rows = []
    for row in inputs:
        try:
            rows.append(interpret(text, row, wrap=True)[0])
        except OracleError:
            return None
    return rows
