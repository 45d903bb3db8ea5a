"""The production pairing: the Dask executor with its ledger and results in PostgreSQL (skipped without the server
binaries). Runs fan out, each is stored once, the ledger records them done; a cancel reaches a running task."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlmodel import select

from bot.app import run_in_worker
from bot.commands import COMMANDS
from bot.commands.base import Attachment, Caller, Invocation
from bot.executors.base import JobKilled
from bot.executors.dask_cluster import DaskExecutor
from bot.settings import Settings
from engine.scoring.ir import score_ir
from storage.jobs import get_job
from storage.tables import JobRecord, Run
from tests.bot.fixture_commands import SLEEPY

SCORE = next(c for c in COMMANDS if c.name == "score")

pytestmark = pytest.mark.slow

ANN = Caller(name="ann", user_id=1)


def _score(k: int) -> Invocation:
    program = f"1,2\nmul {k},1,2\n{k}".encode()
    return Invocation(
        command="score",
        options={"challenge": "matmul_1x1"},
        attachments=[Attachment(name=f"p{k}.ir", content=program)],
        caller=ANN,
    )


async def test_runs_and_ledger_in_postgres(dask_client: object, postgres_url: str, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", database_url=postgres_url)
    executor = DaskExecutor(settings, client=dask_client, job=run_in_worker)  # type: ignore[arg-type]
    results = await asyncio.gather(
        *(executor.worker(SCORE, _score(k)).run(lambda line, f=None: None) for k in range(3, 23))
    )
    assert [status for _r, status in results] == [0] * 20
    with executor.ledger() as session:
        runs = session.exec(select(Run)).all()
        jobs = session.exec(select(JobRecord)).all()
    expected = {
        f"p{k}.ir": score_ir("matmul_1x1", f"1,2\nmul {k},1,2\n{k}", subject="x").metrics["dally@1"]
        for k in range(3, 23)
    }
    assert {r.subject: r.metrics["dally@1"] for r in runs} == expected and len(runs) == 20
    assert len(jobs) == 20 and {(j.state, j.attempts) for j in jobs} == {("done", 1)}

    sleepy = executor.worker(
        SLEEPY, Invocation(command="sleepy", options={"steps": "400", "pause": "0.05"}, caller=ANN)
    )
    task = asyncio.ensure_future(sleepy.run(lambda line, f=None: None))

    def running() -> bool:
        with executor.ledger() as session:
            row = get_job(session, key=sleepy.key)
            return row is not None and row.state == "running"

    while not await asyncio.to_thread(running):
        await asyncio.sleep(0.05)
    sleepy.kill()
    with pytest.raises(JobKilled):
        await asyncio.wait_for(task, 10)
    with executor.ledger() as session:
        row = get_job(session, key=sleepy.key)
    assert row is not None and row.state == "cancelled" and row.reason == "cancelled"
