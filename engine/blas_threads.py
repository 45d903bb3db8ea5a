"""One BLAS thread per process that runs engine work in parallel with others (seed workers, job processes, sandboxed
submissions): the parallelism is the processes, and each one's own OpenBLAS/OpenMP/MKL threads would contend for
the same cores. Measured on 2 cores: one ``local_update n=20`` seed took 4.3 s in a child with BLAS threads and 2.5 s
without; a traced lasso 0.26–0.57 CPU s against 0.03–0.045 s. Results do not change (same steps; ``dmc``'s sum is
exact whatever the summation order, engine/metrics/clock.py).

The variables are read when numpy loads its BLAS, so they go into a child's environment before it starts.
"""

from __future__ import annotations

import os

ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Environment variables that pin the common BLAS builds to one thread."""


def pinned() -> bool:
    """Whether this process's environment pins BLAS to one thread (every variable of :data:`ONE_BLAS_THREAD` is
    "1"). Read when numpy loads, so a process that set them before (a job process, the ``sutro`` command, the test
    suite) runs one BLAS thread, and so do the children it forks (engine/forked_child.py)."""
    return all(os.environ.get(name) == value for name, value in ONE_BLAS_THREAD.items())
