"""Run a signed 8-bit IR program on many instances with the compiled lane runner, when it is built.

The compiled pass (``engine/ir/lanes_kernel.pyx``) keeps one byte row per memory slot and runs each instruction as
one C loop over the instances; without it (no C compiler, or ``SUTRO_PURE_PYTHON=1``) this falls back to
:func:`engine.ir.simulate.run`, which is also its oracle: the property tests compare both outputs bit for bit.
Used where one program meets a large fixed suite (:mod:`engine.scoring.program_judge`, mask sparse parity's
1,024-instance dev suite).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from engine.compiled import load_extension
from engine.ir.instruction_set import Dialect
from engine.ir.program import Program
from engine.ir.simulate import RunFault, run
from engine.ir.static_check import Slots

_kernel: ModuleType | None = load_extension("engine.ir.lanes_kernel")

COMPILED = _kernel is not None
"""Whether :func:`run_lanes` takes the compiled pass."""


def run_lanes(program: Program, slots: Slots, dialect: Dialect, inputs: np.ndarray) -> np.ndarray:
    """Outputs of every instance, shape (instances, outputs), int8 (as :func:`engine.ir.simulate.run`); raises
    :class:`engine.ir.simulate.RunFault` on a division by zero. ``dialect`` must be a signed 8-bit one."""
    if not dialect.wrap8:
        raise ValueError("the lane runner runs signed 8-bit programs only")
    if _kernel is None:
        return run(program, slots, dialect, inputs)
    n = inputs.shape[0]
    mem = np.zeros((slots.n_slots, n), dtype=np.int8)
    mem[slots.inputs] = np.asarray(inputs).T.astype(np.int8)
    src = np.ascontiguousarray(slots.src, dtype=np.int64)
    fault, instance = _kernel.run_rows(
        np.ascontiguousarray(program.op, dtype=np.int8),
        np.ascontiguousarray(slots.dest, dtype=np.int64),
        np.ascontiguousarray(src[:, 0]),
        np.ascontiguousarray(src[:, 1]),
        np.ascontiguousarray(src[:, 2]),
        np.ascontiguousarray(program.imm, dtype=np.int64),
        mem,
    )
    if fault >= 0:
        raise RunFault(int(fault), int(instance), "division by zero")
    outputs: np.ndarray = mem[slots.outputs].T
    return outputs
