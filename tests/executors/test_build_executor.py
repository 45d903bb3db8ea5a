"""Which executor the settings pick, and a cluster that cannot be reached answered in one line (no cluster here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import run_in_worker
from bot.commands.base import Caller, Invocation
from bot.executors import build_executor, dask_cluster
from bot.executors.dask_cluster import DaskExecutor
from bot.executors.local import ProcessRunner
from bot.settings import Settings
from tests.bot.fixture_commands import SLEEPY
from tests.refusing_port import refusing_port


def test_local_worker_processes_by_default_and_dask_when_a_scheduler_is_set(tmp_path: Path) -> None:
    assert isinstance(build_executor(Settings(data_dir=tmp_path), run_in_worker), ProcessRunner)
    executor = build_executor(Settings(data_dir=tmp_path, dask_scheduler="tcp://127.0.0.1:8786"), run_in_worker)
    assert isinstance(executor, DaskExecutor) and executor.address == "tcp://127.0.0.1:8786"


@pytest.mark.slow
async def test_an_unreachable_scheduler_is_a_one_line_reply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT_S", 1)
    with refusing_port() as port:
        address = f"tcp://127.0.0.1:{port}"
        executor = DaskExecutor(Settings(data_dir=tmp_path, dask_scheduler=address), job=run_in_worker)
        inv = Invocation(command="sleepy", caller=Caller(name="ann", user_id=1))
        reply, status = await executor.worker(SLEEPY, inv).run(lambda line, f=None: None)
    assert status == 1 and not reply.ok and "\n" not in reply.text
    assert reply.text.startswith(f"sleepy was not started: the Dask cluster at {address} did not answer")
    assert "SUTRO_DASK_SCHEDULER" in reply.text
