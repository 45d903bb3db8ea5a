"""``status`` with a Dask scheduler that answers: its address, the workers (2 in the test cluster), their threads and
how many tasks run on them now."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands.status_parts import executor_part
from bot.context import AppContext
from bot.executors.cluster_probe import probe_cluster
from bot.settings import Settings

pytestmark = [pytest.mark.slow]


def test_a_reachable_scheduler_reports_its_workers_and_load(dask_client: object, tmp_path: Path) -> None:
    import time

    address = str(dask_client.scheduler.address)  # type: ignore[attr-defined]
    ctx = AppContext(settings=Settings(_env_file=None, data_dir=tmp_path, dask_scheduler=address))  # type: ignore[call-arg]
    part = executor_part(ctx)
    assert not part.broken
    assert part.value == f"Dask scheduler {address}, 2 workers, 0 tasks on 4 threads (0% busy)"
    busy = dask_client.submit(time.sleep, 5, pure=False)  # type: ignore[attr-defined]
    try:
        while probe_cluster(address).tasks == 0:
            time.sleep(0.1)
        assert probe_cluster(address).load == 0.25  # one task on 4 threads
    finally:
        busy.cancel()
