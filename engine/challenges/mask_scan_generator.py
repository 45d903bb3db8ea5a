"""Built-in reference programs of mask sparse parity: GF(2) elimination, then a Gray-code walk of the solution space.

The family the group published as ``generate_scan(s)`` (cybertronai/sutro-problems ``sparse-parity``, 2026-08-26),
written here from its description; the emitted programs are the same instruction for instruction, so their costs
are the group's published ones (a test checks ``scan_4095`` = 23,676,539 and the full walk = 43,325,468 reads).

1. Elimination: branchless reduced row echelon form of the 18 × 33 matrix [X | y] over all 32 columns. For each
   column the pivot is the first unused row holding a 1 (a cmp/select chain over the 18 rows); a column without one
   is *free*. The pivot row is gathered with select chains and XORed into every other row holding a 1 there.
2. Null space: ``w`` = the solution with every free variable 0; for each free column ``f`` the basis vector has a 1
   at ``f`` and, at each pivot column ``c``, the entry of ``c``'s pivot row in column ``f``. The basis vectors are
   gathered into Gray slots 0 … 13 by each free column's rank among the free columns (there are 32 − 18 = 14 free
   columns when the rows are independent).
3. Walk: check ``w``; then for steps i = 1 … s XOR basis vector ``j`` = the lowest set bit of i (the reflected Gray
   code) into ``w`` and check again. A check adds up ``w``'s 32 cells and, when the weight is 5, copies ``w`` into
   the output: every visited ``w`` satisfies the training rows, so by unique identifiability a weight-5 visitor is
   the secret. ``s = 0`` is plain minimum-support elimination; ``s = 2**14 - 1`` visits the whole solution space.

Memory layout, lowest (cheapest) addresses first: the walk's state (it is read about 200 times per step), the
basis, the elimination's matrix and constants, scratch cells, and the inputs last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from engine.challenges.mask_parity_suite import K_SECRET, M_TRAIN, N_BITS

FREE_DIMENSION = N_BITS - M_TRAIN
"""14: the null-space dimension when the 18 training rows are independent."""
MAX_STEPS = (1 << FREE_DIMENSION) - 1
"""16,383: the walk that visits all 2**14 solutions."""


class _Cells:
    """Consecutive address blocks from 1 upwards."""

    def __init__(self) -> None:
        self.next = 1

    def block(self, size: int) -> int:
        start = self.next
        self.next += size
        return start


def scan_program(steps: int = MAX_STEPS) -> str:
    """The program that eliminates, then walks ``steps`` Gray steps (0 … 16,383) of the solution space."""
    if not 0 <= steps <= MAX_STEPS:
        raise ValueError(f"steps must be in 0..{MAX_STEPS}")
    n, m, g = N_BITS, M_TRAIN, FREE_DIMENSION
    width = n + 1  # the augmented matrix [X | y]
    cells = _Cells()
    w, out = cells.block(n), cells.block(n)
    weight, is_k = cells.block(1), cells.block(1)
    basis = cells.block(g * n)
    mat = cells.block(m * width)
    prow = cells.block(width)
    zero, one, row_count, k_const = (cells.block(1) for _ in range(4))
    row_id, slot_id, used = cells.block(m), cells.block(g), cells.block(m)
    pivot, free, rank = cells.block(n), cells.block(n), cells.block(n)
    raw = cells.block(n * n)
    piv, found, bit, unused, eligible, first, match, other, flip, keep, flipped = (cells.block(1) for _ in range(11))
    x_in, y_in = cells.block(n * m), cells.block(m)

    def at(i: int, j: int) -> int:
        return mat + i * width + j

    lines = [",".join(str(x_in + i) for i in range(n * m)) + "," + ",".join(str(y_in + i) for i in range(m))]
    emit = lines.append

    emit(f"set {zero},0")
    emit(f"set {one},1")
    emit(f"set {row_count},{m}")
    emit(f"set {k_const},{K_SECRET}")
    for r in range(m):
        emit(f"set {row_id + r},{r}")
        emit(f"set {used + r},0")
    for j in range(g):
        emit(f"set {slot_id + j},{j}")
    for c in range(n):
        emit(f"set {out + c},0")
    for i in range(m):
        for c in range(n):
            emit(f"copy {at(i, c)},{x_in + i * n + c}")
        emit(f"copy {at(i, n)},{y_in + i}")

    for col in range(n):  # 1. elimination
        emit(f"copy {piv},{row_count}")
        emit(f"copy {found},{zero}")
        for r in range(m):
            emit(f"copy {bit},{at(r, col)}")
            emit(f"select {unused},{used + r},{zero},{one}")
            emit(f"and {eligible},{bit},{unused}")
            emit(f"select {first},{found},{zero},{eligible}")
            emit(f"select {piv},{first},{row_id + r},{piv}")
            emit(f"or {used + r},{first}")
            emit(f"or {found},{eligible}")
        emit(f"copy {pivot + col},{piv}")
        emit(f"select {free + col},{found},{zero},{one}")
        for j in range(width):
            emit(f"copy {prow + j},{zero}")
            for r in range(m):
                emit(f"cmp {match},{piv},{row_id + r},eq")
                emit(f"select {prow + j},{match},{at(r, j)},{prow + j}")
        for r in range(m):
            emit(f"cmp {match},{piv},{row_id + r},eq")
            emit(f"select {other},{match},{zero},{one}")
            emit(f"copy {bit},{at(r, col)}")
            emit(f"and {flip},{other},{bit}")
            for j in range(width):
                emit(f"copy {keep},{at(r, j)}")
                emit(f"xor {flipped},{at(r, j)},{prow + j}")
                emit(f"select {at(r, j)},{flip},{flipped},{keep}")

    for c in range(n):  # 2. the all-free-zero solution
        emit(f"copy {w + c},{zero}")
        for r in range(m):
            emit(f"cmp {match},{pivot + c},{row_id + r},eq")
            emit(f"select {w + c},{match},{at(r, n)},{w + c}")
    for f in range(n):  # basis entry [f][c], zero unless f is free
        for c in range(n):
            if f == c:
                emit(f"copy {raw + f * n + c},{free + f}")
                continue
            emit(f"copy {keep},{zero}")
            for r in range(m):
                emit(f"cmp {match},{pivot + c},{row_id + r},eq")
                emit(f"select {keep},{match},{at(r, f)},{keep}")
            emit(f"and {raw + f * n + c},{keep},{free + f}")
    emit(f"copy {rank},{zero}")
    for c in range(1, n):
        emit(f"add {rank + c},{rank + c - 1},{free + c - 1}")
    for j in range(g):
        for c in range(n):
            emit(f"copy {basis + j * n + c},{zero}")
            for f in range(n):
                emit(f"cmp {match},{rank + f},{slot_id + j},eq")
                emit(f"and {match},{free + f}")
                emit(f"and {keep},{match},{raw + f * n + c}")
                emit(f"or {basis + j * n + c},{keep}")

    def check() -> None:
        emit(f"add {weight},{w},{w + 1}")
        for c in range(2, n):
            emit(f"add {weight},{w + c}")
        emit(f"cmp {is_k},{weight},{k_const},eq")
        for c in range(n):
            emit(f"select {out + c},{is_k},{w + c},{out + c}")

    check()  # 3. the walk
    for i in range(1, steps + 1):
        j = (i & -i).bit_length() - 1
        for c in range(n):
            emit(f"xor {w + c},{basis + j * n + c}")
        check()
    emit(",".join(str(out + c) for c in range(n)))
    return "\n".join(lines)


class ScanGenerators(Mapping[str, Callable[[], str]]):
    """The built-in generators by name: ``baseline`` (the full walk, about 100 % recovery) and ``scan_S`` for any
    step count S in 0 … 16,383 (listed: a few points along the energy-recovery curve)."""

    LISTED = (0, 1023, 4095, 8191, MAX_STEPS)

    def __getitem__(self, name: str) -> Callable[[], str]:
        if name == "baseline":
            return scan_program
        steps = _steps_of(name)
        if steps is None:
            raise KeyError(name)
        return lambda: scan_program(steps)

    def __iter__(self) -> Iterator[str]:
        yield "baseline"
        yield from (f"scan_{s}" for s in self.LISTED)

    def __len__(self) -> int:
        return 1 + len(self.LISTED)


def _steps_of(name: str) -> int | None:
    prefix = "scan_"
    if not name.startswith(prefix) or not name[len(prefix) :].isdigit():
        return None
    steps = int(name[len(prefix) :])
    return steps if steps <= MAX_STEPS else None
