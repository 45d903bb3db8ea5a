"""A real local Dask cluster for the executor tests: 2 worker processes on 127.0.0.1, non-daemonic (so a task may
start the job's process), shared by the module's tests. Dask is imported by the fixture, not at collection, so a run
that needs no cluster (the quick subset) does not pay for importing it in every worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import distributed


@pytest.fixture(scope="module")
def dask_client() -> Iterator[distributed.Client]:
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    with dask.config.set({"distributed.worker.daemon": False, "distributed.scheduler.allowed-failures": 2}):
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=2,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        )
        client = distributed.Client(cluster, set_as_default=False)
        try:
            yield client
        finally:
            client.close()
            cluster.close()


# the throwaway PostgreSQL fixtures
from tests.storage.conftest import postgres_cluster, postgres_url  # noqa: E402, F401
