"""What ``status`` says about a Dask cluster: is the scheduler at an address answering, how many workers and threads
it has, and how busy they are. A short-lived client of its own, so a probe never disturbs the executor's."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Any

PROBE_TIMEOUT_S = 3.0
"""How long ``status`` waits for the scheduler before calling it unreachable (seconds)."""


@dataclass(frozen=True)
class ClusterState:
    """One look at the cluster. ``error``: why it is unreachable ("" when it answered); ``tasks``: tasks the
    scheduler is processing on its workers now; ``threads``: the workers' threads in all (their capacity)."""

    address: str
    reachable: bool
    workers: int = 0
    threads: int = 0
    tasks: int = 0
    error: str = ""

    @property
    def load(self) -> float:
        """Tasks per thread (0 with no threads): 1.0 is every thread busy."""
        return self.tasks / self.threads if self.threads else 0.0


def _refused(address: str, timeout_s: float) -> str:
    """Why a TCP connection to a ``tcp://host:port`` scheduler address fails at once ("" when it connects, or for
    another kind of address). Dask's client retries a refused connection until its timeout, so without this a
    scheduler that is down would hold ``status`` for the whole :data:`PROBE_TIMEOUT_S`."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location)
    except ValueError:  # no port, or not host:port: Dask's client says what is wrong with it
        return ""
    if scheme != "tcp":
        return ""
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    return ""


def probe_cluster(address: str, timeout_s: float = PROBE_TIMEOUT_S) -> ClusterState:
    """Connect to the scheduler at ``address``, count its workers, threads and running tasks, and disconnect."""
    try:
        from distributed import Client
    except ImportError:
        return ClusterState(address, False, error="the dask extra is not installed (pip install 'sutro[dask]')")

    def census(dask_scheduler: Any) -> tuple[int, int, int]:
        workers = list(dask_scheduler.workers.values())
        return len(workers), sum(w.nthreads for w in workers), sum(len(w.processing) for w in workers)

    refused = _refused(address, timeout_s)
    if refused:
        return ClusterState(address, False, error=refused)
    try:
        with Client(address, timeout=timeout_s, set_as_default=False) as client:
            workers, threads, tasks = client.run_on_scheduler(census)
    except (OSError, TimeoutError) as exc:
        return ClusterState(address, False, error=f"{type(exc).__name__}: {exc}".splitlines()[0][:200])
    return ClusterState(address, True, workers=int(workers), threads=int(threads), tasks=int(tasks))
