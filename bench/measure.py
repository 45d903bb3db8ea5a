"""What every benchmark here shares: the median wall time of a call, and the line naming the machine it ran on.

Imported by the scripts beside it (``python bench/<name>.py`` puts this folder on ``sys.path``). Timing is a
plain ``time.perf_counter`` loop with the garbage collector left on, as the code runs in production
(``timeit`` would switch it off).
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable


def median_s(fn: Callable[[], object], repeat: int, *, warm_up: bool = False) -> float:
    """Median seconds of ``repeat`` calls of ``fn`` (after one untimed call when ``warm_up``)."""
    if warm_up:
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def interleaved_medians(
    fns: dict[str, Callable[[], object]],
    repeat: int,
    *,
    warm_up: bool = True,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, float]:
    """Median seconds of each of ``fns`` over ``repeat`` rounds, one call of each per round (so a change in the
    machine's load hits every contender alike); one untimed round first when ``warm_up``. ``clock``:
    ``time.perf_counter`` (wall) or ``time.process_time`` (CPU of this process, steadier on a loaded machine)."""
    if warm_up:
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = clock()
            fn()
            times[name].append(clock() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def load_line() -> str:
    """``load: 1-minute average 7.3 on 2 cores`` — how busy the machine was when a benchmark ran."""
    return f"load: 1-minute average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def machine_line(**versions: str) -> str:
    """``machine: x86_64, 2 cores, Python 3.11.7, numpy 2.4.6, …`` — ``versions`` name further libraries."""
    import numpy

    libraries = {"numpy": numpy.__version__, **versions}
    listed = "".join(f", {name} {version}" for name, version in libraries.items())
    return (
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}{listed}"
    )
