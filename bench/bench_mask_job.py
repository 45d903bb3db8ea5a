"""One judged mask sparse parity program as the bot judges it: a ``score`` job through the local executor (a job
process forked from the executor's forkserver), with and without its board's baseline program kept on disk.

Usage: ``PYTHONPATH=$PWD .venv/bin/python bench/bench_mask_job.py [--rounds N]`` (default 3; about 30 s).

The program is the group's 40 % band program held in ``tests/data/mask32``. Each round runs two ``score --force``
jobs on one fresh data directory: the first finds no kept baseline figure and prices the 1.77-million-line baseline
program (as every job did before the figure was kept, docs/verdicts.md#baselines), the second reads it back. The
figure is the machine's busy CPU seconds over the job (``/proc/stat``, so the job process and its trusted scorer
child are counted), the median over the rounds; a first, untimed job starts the forkserver.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import statistics
import tempfile
from pathlib import Path

from engine.blas_threads import ONE_BLAS_THREAD

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "tests" / "data" / "mask32" / "packedfrontier40_mask32.ir.gz"


def busy_cpu_s() -> float:
    """Busy CPU seconds of the whole machine since boot (/proc/stat's first line, less idle and iowait)."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(v) for v in stat.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / 100


async def rounds(count: int) -> tuple[list[float], list[float]]:
    from bot.app import run_in_worker
    from bot.commands import COMMANDS
    from bot.executors.local import ProcessRunner
    from bot.invocation import Attachment, Caller, Invocation
    from bot.settings import Settings

    score = next(c for c in COMMANDS if c.name == "score")
    program = gzip.decompress(PROGRAM.read_bytes())
    priced, kept = [], []
    for index in range(count + 1):
        data = Path(tempfile.mkdtemp(prefix="sutro-bench-mask-job-")) / "data"
        runner = ProcessRunner(Settings(data_dir=data, dev_allow_unsandboxed=True), job=run_in_worker)
        for which in (priced, kept):
            invocation = Invocation(
                command="score",
                options={"challenge": "mask_sparse_parity", "force": True},
                attachments=[Attachment(name="band40.ir", content=program)],
                caller=Caller(name="bench", user_id=1),
            )
            before = busy_cpu_s()
            reply, status = await runner.worker(score, invocation).run(lambda *_: None)
            if status != 0:
                raise SystemExit(f"the job failed: {reply.text}")
            if index:  # round 0 starts the forkserver
                which.append(busy_cpu_s() - before)
    return priced, kept


def main() -> None:
    os.environ.update(ONE_BLAS_THREAD)  # as a job process has it
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from measure import load_line, machine_line

    priced, kept = asyncio.run(rounds(args.rounds))
    print(machine_line())
    print(load_line())
    of = f"(median of {args.rounds})"
    print(f"score job, baseline program priced in the job: {statistics.median(priced):.2f} s CPU {of}")
    print(f"score job, baseline figure read back:          {statistics.median(kept):.2f} s CPU {of}")


if __name__ == "__main__":
    main()
