"""Matmul correctness checked symbolically (matmul rules version 2, the group's rule since 2026-09): the program is
run on polynomials instead of numbers, and every output must be exactly the polynomial C[i][j] = Σₖ A[i][k]·B[k][j]
in the input variables, with integer coefficients; any intermediate above degree two is rejected.

Why: one fixed instance (rules version 1) accepts a program that is right on that instance only; a polynomial
identity holds for every input. The degree cap admits every bilinear algorithm (products of two linear forms, as
in Strassen's), and nothing that multiplies a product again. Costs are unchanged: they are static.

Polynomials are dicts from monomials to non-zero integer coefficients; a monomial is a sorted tuple of variable
numbers (inputs in declaration order: A row-major then B row-major), ``()`` the constant. Values are never mutated
(``copy`` shares them). Over the integers the degree of a product is the sum of the degrees of two non-zero factors,
so a product is refused from the degrees alone, before it is formed. Source: cybertronai/sutro-problems
``matmul/README.md`` ("Correctness is checked symbolically …"); the code is ours.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ir.instruction_set import Op
from engine.ir.program import Program

Monomial = tuple[int, ...]
Poly = dict[Monomial, int]

MAX_DEGREE = 2
RULES = "matmul rules@2"
"""The rules version this module implements (rules@1: exact equality on the one fixed instance)."""


@dataclass(frozen=True)
class SymbolicFailure:
    """Why the check failed: the 1-based source line (0: the output line) and one line of text."""

    line: int
    message: str


def _degree(p: Poly) -> int:
    return max((len(m) for m in p), default=-1)


def _add(p: Poly, q: Poly, sign: int) -> Poly:
    out = dict(p)
    for m, c in q.items():
        v = out.get(m, 0) + sign * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    return out


def _mul(p: Poly, q: Poly) -> Poly:
    out: Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = tuple(sorted(m1 + m2))
            v = out.get(m, 0) + c1 * c2
            if v:
                out[m] = v
            else:
                out.pop(m, None)
    return out


def expected_output(n: int, i: int, j: int) -> Poly:
    """C[i][j] of n×n matrices: Σₖ a(i,k)·b(k,j), variables a = i·n + k, b = n² + k·n + j."""
    return {tuple(sorted((i * n + k, n * n + k * n + j))): 1 for k in range(n)}


def check_matmul(program: Program, n: int) -> SymbolicFailure | None:
    """None when ``program`` computes A·B for every input under the degree cap; else the first failure."""
    memory: dict[int, Poly] = {int(a): {(v,): 1} for v, a in enumerate(program.inputs.tolist())}
    ops, dests, srcs = program.op.tolist(), program.dest.tolist(), program.src.tolist()
    for i, op in enumerate(ops):
        a = memory.get(srcs[i][0], {})
        if op == Op.COPY:
            memory[dests[i]] = a
            continue
        b = memory.get(srcs[i][1], {})
        if op == Op.ADD:
            memory[dests[i]] = _add(a, b, 1)
        elif op == Op.SUB:
            memory[dests[i]] = _add(a, b, -1)
        elif op == Op.MUL:
            if a and b and _degree(a) + _degree(b) > MAX_DEGREE:
                line = int(program.line[i])
                return SymbolicFailure(
                    line,
                    f"line {line}: the product has degree {_degree(a) + _degree(b)}; "
                    f"intermediates above degree {MAX_DEGREE} are rejected",
                )
            memory[dests[i]] = _mul(a, b)
        else:
            line = int(program.line[i])
            return SymbolicFailure(line, f"line {line}: {Op(op).name.lower()} is not a matmul op")
    for j, address in enumerate(program.outputs.tolist()):
        got = memory.get(int(address), {})
        row, col = divmod(j, n)
        if got != expected_output(n, row, col):
            return SymbolicFailure(
                0,
                f"output {j + 1} (address {address}) is not C[{row}][{col}] = Σₖ A[{row}][k]·B[k][{col}] "
                "for every input",
            )
    return None
