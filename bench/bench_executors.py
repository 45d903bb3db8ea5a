"""Executor throughput: a batch of small runs (IR scores of 1x1 matmul programs, each stored) sequentially in this
process, through the job board on local worker processes, and through the job board on a 2-worker Dask
LocalCluster; runs per second, overhead per run against the sequential baseline, the CPU per run of this process
and every process under it (the Dask workers, forkservers, job processes and sandboxed children: less sensitive to
a shared machine's load than wall time), the Dask/local ratio against the target (issue "operations": at most 1.2),
and the bot process's memory while the whole batch is queued.

The cluster is configured as deploy/compose.yaml configures its workers: non-daemonic, statistical profiler off.

Run: ``PYTHONPATH=$PWD /work/venv/bin/python bench/bench_executors.py [--runs 200] [--repeats 3]``.
Each repeat uses a fresh SQLite data directory (so no result is served from storage). Noisy on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import machine_line  # noqa: E402

from bot.app import build_context  # noqa: E402
from bot.commands import COMMANDS  # noqa: E402
from bot.commands.base import Attachment, Caller, Invocation  # noqa: E402

SCORE = next(c for c in COMMANDS if c.name == "score")
from bot.dispatch import execute  # noqa: E402
from bot.executors.base import Executor  # noqa: E402
from bot.jobs.board import JobBoard  # noqa: E402
from bot.services import open_database  # noqa: E402
from bot.settings import Settings  # noqa: E402

WORKERS = 2
MEMBER = Caller(name="bench", user_id=1)
TARGET_DASK_OVER_LOCAL = 1.2
CLUSTER_CONFIG = {"distributed.worker.daemon": False, "distributed.worker.profile.enabled": False}
"""As deploy/compose.yaml sets its workers (DASK_DISTRIBUTED__WORKER__…)."""


def invocations(n: int) -> list[Invocation]:
    """``n`` distinct valid matmul_1x1 programs (the product lands at address 3, 4, …)."""
    return [
        Invocation(
            command="score",
            options={"challenge": "matmul_1x1"},
            attachments=[Attachment(name=f"p{k}.ir", content=f"1,2\nmul {k},1,2\n{k}".encode())],
            caller=MEMBER,
        )
        for k in range(3, 3 + n)
    ]


def rss_mib() -> float:
    """Resident memory of this process (MiB), from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def tree_cpu_s() -> float:
    """CPU seconds (user + system) of this process and every live descendant, each with its reaped children
    (a forkserver's count includes the job processes it has reaped), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    spent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # exited meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)
        spent[pid] = sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
    total, todo = 0, [os.getpid()]
    while todo:
        pid = todo.pop()
        total += spent.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total / tick


def sequential(n: int, data_dir: Path) -> float:
    ctx = build_context(Settings(data_dir=data_dir))
    start = time.perf_counter()
    for inv in invocations(n):
        _reply, status = execute(ctx, SCORE, inv)
        assert status == 0
    return time.perf_counter() - start


async def on_board(executor: Executor, n: int) -> tuple[float, float]:
    """Batch wall time and the bot process's RSS (MiB) once all ``n`` jobs are queued (growth printed to stdout)."""
    board = JobBoard(executor, workers=WORKERS, per_member=n, rate_per_minute=n)
    before = rss_mib()
    await board.start()
    batch = invocations(n)
    tracemalloc.start()
    start = time.perf_counter()
    jobs = [board.submit(SCORE, inv) for inv in batch]
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    queued = rss_mib()
    print(
        f"  {type(executor).__name__}: RSS {before:.1f} MiB before, {queued:.1f} MiB with {n} jobs queued "
        f"(+{(queued - before) * 1024:.0f} KiB RSS; the queued jobs hold {held / 1024:.0f} KiB, tracemalloc)",
        flush=True,
    )
    outcomes = await asyncio.gather(*(job.outcome for job in jobs))
    wall = time.perf_counter() - start
    await board.stop()
    bad = [reply.text for reply, status in outcomes if status != 0]
    assert not bad, bad[:3]
    return wall, queued


def fresh_database(data_dir: Path) -> Settings:
    """Settings for ``data_dir`` with its SQLite file created and migrated, as a bot does at start-up (job
    processes racing to create a brand-new SQLite file can fail with "database is locked")."""
    settings = Settings(data_dir=data_dir)
    open_database(settings)
    return settings


def local(n: int, data_dir: Path) -> tuple[float, float]:
    from bot.app import run_in_worker
    from bot.executors.local import ProcessRunner

    runner = ProcessRunner(fresh_database(data_dir), job=run_in_worker)
    return asyncio.run(on_board(runner, n))


def dask(n: int, data_dir: Path, client: object) -> tuple[float, float]:
    from bot.app import run_in_worker
    from bot.executors.dask_cluster import DaskExecutor

    executor = DaskExecutor(fresh_database(data_dir), client=client, job=run_in_worker)  # type: ignore[arg-type]
    return asyncio.run(on_board(executor, n))


def warm_up(client: object, base: Path) -> None:
    """Start every forkserver (local and on each Dask worker) before timing."""
    local(4, base / "warm-local")
    dask(8, base / "warm-dask", client)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import dask as dask_pkg
    import distributed

    with dask_pkg.config.set(CLUSTER_CONFIG):
        cluster = distributed.LocalCluster(
            n_workers=WORKERS,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        )
        client = distributed.Client(cluster, set_as_default=False)
    times: dict[str, list[float]] = {"sequential": [], "local": [], "dask": []}
    cpu: dict[str, list[float]] = {"sequential": [], "local": [], "dask": []}
    growth: dict[str, list[float]] = {"local": [], "dask": []}
    with tempfile.TemporaryDirectory(prefix="bench-exec-") as tmp:
        base = Path(tmp)
        warm_up(client, base)
        for r in range(args.repeats):
            before = tree_cpu_s()
            times["sequential"].append(sequential(args.runs, base / f"seq-{r}"))
            cpu["sequential"].append(tree_cpu_s() - before)
            before = tree_cpu_s()
            wall, grew = local(args.runs, base / f"local-{r}")
            cpu["local"].append(tree_cpu_s() - before)
            times["local"].append(wall)
            growth["local"].append(grew)
            before = tree_cpu_s()
            wall, grew = dask(args.runs, base / f"dask-{r}", client)
            cpu["dask"].append(tree_cpu_s() - before)
            times["dask"].append(wall)
            growth["dask"].append(grew)
            print(f"repeat {r + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in times.items()), flush=True)
    client.close()
    cluster.close()

    print("\n" + machine_line(distributed=distributed.__version__))
    print(
        f"batch: {args.runs} `score` runs (matmul_1x1 IR, each stored in SQLite), {WORKERS} workers, "
        f"{args.repeats} repeats, medians\n"
    )
    seq_per_run = statistics.median(times["sequential"]) / args.runs
    print(
        f"{'executor':<12}{'batch s':>10}{'runs/s':>10}{'vs seq':>9}{'overhead/run ms':>18}{'CPU/run ms':>12}"
        f"{'RSS MiB queued':>18}"
    )
    for name, samples in times.items():
        wall = statistics.median(samples)
        parallel = 1 if name == "sequential" else WORKERS
        overhead_ms = (wall * parallel / args.runs - seq_per_run) * 1000
        queued_mib = f"{statistics.median(growth[name]):.1f}" if name in growth else "-"
        print(
            f"{name:<12}{wall:>10.2f}{args.runs / wall:>10.1f}{seq_per_run * args.runs / wall:>8.2f}x"
            f"{overhead_ms:>18.1f}{statistics.median(cpu[name]) / args.runs * 1000:>12.0f}{queued_mib:>18}"
        )
    print("\noverhead/run = batch time x workers / runs - sequential time per run (the in-process cost of one run)")
    ratios = [d / lo for d, lo in zip(times["dask"], times["local"], strict=True)]
    cpu_ratio = statistics.median(cpu["dask"]) / statistics.median(cpu["local"])
    print(
        f"dask / local batch time: {statistics.median(ratios):.2f} (each repeat: "
        f"{', '.join(f'{r:.2f}' for r in ratios)}; target <= {TARGET_DASK_OVER_LOCAL}); CPU: {cpu_ratio:.2f}"
    )


if __name__ == "__main__":
    main()
