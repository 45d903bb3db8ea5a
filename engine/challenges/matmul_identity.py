"""The matmul symbolic identity check (rules version 2) prepared once per size, for judging many programs in a row.

Same rule, same verdicts and same messages as :func:`engine.challenges.matmul_symbolic.check_matmul` (its oracle:
a property test compares both on the group's published programs and on mutated ones). What differs is only the
representation, chosen so that one check of a 16×16 program costs a few milliseconds instead of tens:

* a monomial of degree ≤ 2 is one integer key — ``0`` the constant, ``v + 1`` the variable ``v``,
  ``(u + 1)·B + (v + 1)`` the product ``u·v`` (u ≤ v, ``B`` = number of variables + 1) — so no tuple is built or
  sorted per product;
* the degree of a key is read from its size (0, below ``B``, at least ``B``);
* the expected polynomial of every output is built once, in :class:`MatmulIdentity`'s constructor.

Products of higher degree never need a key: the rule rejects them before they are formed.
"""

from __future__ import annotations

from engine.challenges.matmul_symbolic import MAX_DEGREE, SymbolicFailure
from engine.ir.instruction_set import Op
from engine.ir.program import Program

_ADD, _SUB, _MUL, _COPY = int(Op.ADD), int(Op.SUB), int(Op.MUL), int(Op.COPY)

KeyPoly = dict[int, int]
"""A polynomial of degree ≤ 2: monomial key → non-zero integer coefficient."""


class MatmulIdentity:
    """The rules@2 check for n×n matmul with the expected output polynomials built once."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.base = 2 * n * n + 1
        b = self.base
        self.expected: list[KeyPoly] = [
            {(i * n + k + 1) * b + (n * n + k * n + j + 1): 1 for k in range(n)} for i in range(n) for j in range(n)
        ]
        """Output j·n + col's polynomial C[row][col] = Σₖ a(row,k)·b(k,col) (a-variables are below b-variables)."""

    def check(self, program: Program) -> SymbolicFailure | None:
        """None when ``program`` computes A·B for every input under the degree cap; else the first failure."""
        base = self.base
        memory: dict[int, KeyPoly] = {int(a): {v + 1: 1} for v, a in enumerate(program.inputs.tolist())}
        empty: KeyPoly = {}
        ops, dests = program.op.tolist(), program.dest.tolist()
        firsts, seconds = program.src[:, 0].tolist(), program.src[:, 1].tolist()
        for i, op in enumerate(ops):
            a = memory.get(firsts[i], empty)
            if op == _COPY:
                memory[dests[i]] = a
                continue
            b = memory.get(seconds[i], empty)
            if op == _MUL:
                if not a or not b:
                    memory[dests[i]] = {}
                    continue
                if len(a) == 1 and len(b) == 1:  # the common case: one monomial times another
                    ((ta, ca),) = a.items()
                    ((tb, cb),) = b.items()
                else:
                    ta, tb, ca, cb = max(a), max(b), 0, 0
                da = 0 if ta == 0 else 1 if ta < base else 2
                db = 0 if tb == 0 else 1 if tb < base else 2
                if da + db > MAX_DEGREE:
                    line = int(program.line[i])
                    return SymbolicFailure(
                        line,
                        f"line {line}: the product has degree {da + db}; "
                        f"intermediates above degree {MAX_DEGREE} are rejected",
                    )
                if ca:
                    key = tb if ta == 0 else ta if tb == 0 else ta * base + tb if ta <= tb else tb * base + ta
                    memory[dests[i]] = {key: ca * cb}
                else:
                    memory[dests[i]] = _mul(a, b, base)
            elif op == _ADD:
                if len(b) > len(a):
                    a, b = b, a
                out = a.copy()
                if len(b) == 1:  # the common case: a product added to a running sum
                    ((m, c),) = b.items()
                    v = out.get(m, 0) + c
                    if v:
                        out[m] = v
                    else:
                        del out[m]
                else:
                    for m, c in b.items():
                        v = out.get(m, 0) + c
                        if v:
                            out[m] = v
                        else:
                            del out[m]
                memory[dests[i]] = out
            elif op == _SUB:
                out = a.copy()
                for m, c in b.items():
                    v = out.get(m, 0) - c
                    if v:
                        out[m] = v
                    else:
                        del out[m]
                memory[dests[i]] = out
            else:
                line = int(program.line[i])
                return SymbolicFailure(line, f"line {line}: {Op(op).name.lower()} is not a matmul op")
        n = self.n
        for j, address in enumerate(program.outputs.tolist()):
            if memory.get(int(address), empty) != self.expected[j]:
                row, col = divmod(j, n)
                return SymbolicFailure(
                    0,
                    f"output {j + 1} (address {address}) is not C[{row}][{col}] = Σₖ A[{row}][k]·B[k][{col}] "
                    "for every input",
                )
        return None


def _mul(p: KeyPoly, q: KeyPoly, base: int) -> KeyPoly:
    """p·q for factors whose degrees sum to at most 2 (so every product key is a constant, a variable or a pair)."""
    out: KeyPoly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            if m1 == 0:
                m = m2
            elif m2 == 0:
                m = m1
            else:
                m = m1 * base + m2 if m1 <= m2 else m2 * base + m1
            v = out.get(m, 0) + c1 * c2
            if v:
                out[m] = v
            else:
                del out[m]
    return out
