# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""A signed 8-bit IR program run over every instance in one compiled pass: the optional fast path of
:func:`engine.ir.lanes.run_lanes` (built at install when a C compiler is present; the runners of
:mod:`engine.ir.simulate` are the oracle and are used when this module is absent).

Memory is one byte row per slot (slots × instances, int8, C order), so each instruction is a tight loop over
contiguous bytes that the C compiler vectorises. Results are the signed 8-bit wrap of the reference scorers
(docs/metrics.md#scorer-dialects): ``add``/``sub``/``mul`` wrap modulo 256, ``div`` is floor division (``-128 // -1``
wraps to -128, as numpy's int8 gives), ``abs(-128)`` is -128, ``cmp`` writes 1 or 0, ``select`` copies its second
operand where the first is non-zero, else its third; a zero divisor on any instance stops the run.

Op codes are those of :class:`engine.ir.instruction_set.Op` (add 0 … abs 12); a ``cmp``'s predicate is its
immediate (eq, ne, lt, le, gt, ge = 0 … 5); a ``set``'s immediate is already wrapped to [-128, 127].
"""

from libc.stdint cimport int8_t, int64_t, uint8_t


def run_rows(
    const int8_t[::1] op,
    const int64_t[::1] dest,
    const int64_t[::1] first,
    const int64_t[::1] second,
    const int64_t[::1] third,
    const int64_t[::1] imm,
    int8_t[:, ::1] mem,
):
    """Run every instruction on ``mem`` in place; return ``(-1, -1)``, or ``(instruction, instance)`` of the first
    division by zero (0-based; the run stops there)."""
    cdef Py_ssize_t n = mem.shape[1]
    cdef Py_ssize_t m = op.shape[0]
    cdef Py_ssize_t i, j
    cdef int8_t o, k
    cdef int8_t* d
    cdef const int8_t* x
    cdef const int8_t* y
    cdef const int8_t* z
    cdef int a, b, q
    for i in range(m):
        o = op[i]
        d = &mem[dest[i], 0]
        x = &mem[first[i], 0]
        y = &mem[second[i], 0]
        z = &mem[third[i], 0]
        if o == 6:  # xor
            for j in range(n):
                d[j] = x[j] ^ y[j]
        elif o == 4:  # and
            for j in range(n):
                d[j] = x[j] & y[j]
        elif o == 5:  # or
            for j in range(n):
                d[j] = x[j] | y[j]
        elif o == 3:  # copy
            if d != x:
                for j in range(n):
                    d[j] = x[j]
        elif o == 8:  # set
            k = <int8_t>imm[i]
            for j in range(n):
                d[j] = k
        elif o == 0:  # add
            for j in range(n):
                d[j] = <int8_t>(<uint8_t>x[j] + <uint8_t>y[j])
        elif o == 1:  # sub
            for j in range(n):
                d[j] = <int8_t>(<uint8_t>x[j] - <uint8_t>y[j])
        elif o == 2:  # mul
            for j in range(n):
                d[j] = <int8_t>(<uint8_t>x[j] * <uint8_t>y[j])
        elif o == 10:  # cmp
            k = <int8_t>imm[i]
            if k == 0:
                for j in range(n):
                    d[j] = x[j] == y[j]
            elif k == 1:
                for j in range(n):
                    d[j] = x[j] != y[j]
            elif k == 2:
                for j in range(n):
                    d[j] = x[j] < y[j]
            elif k == 3:
                for j in range(n):
                    d[j] = x[j] <= y[j]
            elif k == 4:
                for j in range(n):
                    d[j] = x[j] > y[j]
            else:
                for j in range(n):
                    d[j] = x[j] >= y[j]
        elif o == 11:  # select
            for j in range(n):
                d[j] = y[j] if x[j] != 0 else z[j]
        elif o == 7:  # not
            for j in range(n):
                d[j] = ~x[j]
        elif o == 12:  # abs
            for j in range(n):
                d[j] = <int8_t>(<uint8_t>(-x[j]) if x[j] < 0 else <uint8_t>x[j])
        else:  # div: floor division, refused on a zero divisor
            for j in range(n):
                if y[j] == 0:
                    return i, j
            for j in range(n):
                a = x[j]
                b = y[j]
                q = a / b
                if (a % b != 0) and ((a < 0) != (b < 0)):
                    q -= 1
                d[j] = <int8_t><uint8_t>q
    return -1, -1
