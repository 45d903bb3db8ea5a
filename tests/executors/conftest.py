"""A real local Dask cluster for the executor tests: 2 worker processes on 127.0.0.1, non-daemonic (so a task may
start the job's process). One cluster per test process serves every module that asks for it: a cluster costs about
3 CPU s to start (two spawned worker interpreters importing distributed, then each worker's forkserver), and with
work stealing the modules' tests land on every pytest worker, so a cluster per module started up to one per module
and pytest worker. Each module gets a client once both workers are up again (a test that kills a worker leaves the
nanny to restart it). Dask is imported by the fixture, not at collection, so a run that needs no cluster (the quick
subset) does not pay for importing it in every worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import distributed


WORKERS = 2


@pytest.fixture(scope="session")
def _dask_cluster() -> Iterator[distributed.LocalCluster]:
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    with dask.config.set({"distributed.worker.daemon": False, "distributed.scheduler.allowed-failures": 2}):
        cluster = distributed.LocalCluster(
            n_workers=WORKERS,
            threads_per_worker=2,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        )
        try:
            yield cluster
        finally:
            cluster.close()


@pytest.fixture(scope="module")
def dask_client(_dask_cluster: distributed.LocalCluster) -> Iterator[distributed.Client]:
    import distributed

    client = distributed.Client(_dask_cluster, set_as_default=False)
    try:
        client.wait_for_workers(WORKERS, timeout=60)
        yield client
    finally:
        client.close()


# the throwaway PostgreSQL fixtures
from tests.storage.conftest import postgres_cluster, postgres_url  # noqa: E402, F401
