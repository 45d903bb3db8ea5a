"""Long-lived worker processes for the seeds of a seed set: one child per worker, several seeds each.

A pool starts its children at once (:mod:`bot.core.seed_child`); each has the methods (numpy, the tracer) loaded,
says it is ready, then runs the seeds it is handed one after another until its input closes. The seeds wait in one
queue that every worker draws from, so the method's and the baseline's seeds share the workers and a worker that
finishes early takes the next seed.

A child is a fork of this process (engine/forked_child.py) when this process's BLAS is pinned to one thread, as it
is in a job process, in the ``sutro`` command and in the tests: the methods are imported here once and a child
starts in about 5 ms of CPU. Elsewhere it is a fresh ``python -m bot.core.seed_child`` that imports them itself,
about 0.13 s of CPU (``bench/bench_forked_children.py``: a pool of two, 9 ms forked against 266 ms). Measured
before forking, on ``local_update n=20`` with its sgd baseline (six seeds, two workers; ``bench/bench_seed_set.py``):
a child's first seed cost about 0.1 s more than later ones (first use of numpy and the tracer), so one child per
seed paid that six times; one child per worker pays it twice.

Children rather than a ``multiprocessing`` pool because a job's worker process is daemonic (it may not start
``multiprocessing`` children); they share its process group, so cancelling the job kills them too. What a child
does not protect against: it runs registered engine code only (no submitted code), as the job's own user under the
job's limits; its BLAS runs on one thread (:data:`engine.blas_threads.ONE_BLAS_THREAD`). A child that dies without
answering (killed by a signal, out of memory, crashed) fails its seed with :class:`SeedRunFailed`, the one-line error
the job reports; the child's last stderr lines go to the operator log.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from bot.core import seed_child
from bot.core.seed_child import Answer, Ready, SeedError
from bot.core.seed_task import SeedTask
from engine import blas_threads
from engine.blas_threads import ONE_BLAS_THREAD
from engine.errors import EngineError
from engine.forked_child import ForkedChild, preload
from engine.result import RunResult

log = logging.getLogger(__name__)

CLOSE_WAIT_S = 5.0
"""How long an idle child may take to exit after its input closes before it is killed."""


FORK = hasattr(os, "fork")
"""Seed workers are forked from this process when its BLAS is pinned to one thread (see the module docstring for
what each way costs)."""


class SeedRunFailed(EngineError):
    """A seed's child process ended without a result (crashed, or killed)."""


class SeedLimitExceeded(SeedRunFailed):
    """A seed's child was stopped by a resource limit: out of memory (numpy's ``MemoryError`` or its BLAS's
    allocation failure under an address-space limit, or SIGKILL, which is also what the kernel's out-of-memory killer
    sends) or over its CPU time (SIGXCPU).
    A cancelled job's children get SIGKILL too, but then nobody is left to read this."""


LIMIT_SIGNALS = {signal.SIGKILL: "killed (out of memory?)", signal.SIGXCPU: "over its CPU-time limit"}


class SeedWorker:
    """One child process and the parent's end of its pipes. Not thread-safe: one thread drives one worker."""

    def __init__(self) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close(); a file, so a chatty child never blocks
        self.started = time.perf_counter()
        self._proc: subprocess.Popen[bytes] | ForkedChild
        if FORK and blas_threads.pinned():  # this process's BLAS runs one thread: so will the fork's
            preload(["engine.methods"])
            self._proc = ForkedChild(seed_child.main, stderr=self._stderr.fileno())
        else:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "bot.core.seed_child"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                env={**os.environ, **ONE_BLAS_THREAD},
            )
        self.ready: Ready | None = None
        self.ready_after_s: float | None = None
        """Wall seconds from starting the child to its Ready message."""
        self.seeds_run = 0
        self.cpu_s = 0.0
        """CPU seconds the child had used by its latest message (start and imports included)."""

    @property
    def pid(self) -> int:
        return self._proc.pid

    def wait_ready(self) -> Ready:
        """Block until the child has imported the methods; SeedRunFailed when it died first."""
        if self.ready is None:
            answer = self._receive()
            if not isinstance(answer, Ready):
                raise self._failure("the seed worker", "did not start")
            self.ready, self.ready_after_s, self.cpu_s = answer, time.perf_counter() - self.started, answer.cpu_s
        return self.ready

    def run(self, task: SeedTask) -> RunResult:
        """The child's result for ``task``; EngineError as the child raised it, SeedRunFailed when it died."""
        what = f"{task.method} seed {task.params.get('seed')}"
        self.wait_ready()
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            pickle.dump(task, stdin)
            stdin.flush()
        except OSError:  # the child is gone (BrokenPipeError)
            raise self._failure(what, "ended without a result") from None
        answer = self._receive()
        if not isinstance(answer, Answer):
            raise self._failure(what, "ended without a result")
        self.cpu_s = answer.cpu_s
        if isinstance(answer.outcome, SeedError):
            raise EngineError(answer.outcome.message, hint=answer.outcome.hint)
        self.seeds_run += 1
        return answer.outcome

    def close(self) -> None:
        """Close the child's input (an idle child then exits), wait for it, kill it if it lingers."""
        if self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
        try:
            self._proc.wait(CLOSE_WAIT_S)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._stderr.close()

    def _receive(self) -> object:
        stdout = self._proc.stdout
        assert stdout is not None
        try:
            return pickle.load(stdout)  # noqa: S301 - our own child's answer, over a private pipe
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):  # died, or died half-way through a message
            return None

    def _failure(self, what: str, verb: str) -> SeedRunFailed:
        code = self._proc.wait()
        self._stderr.seek(0)
        lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        tail = "\n".join(lines[-20:])
        log.warning("seed worker %s: %s %s (exit %s); its last output:\n%s", self.pid, what, verb, code, tail)
        hint = "run it again; if it fails again, tell an admin"
        last = (lines or [f"exit status {code}"])[-1]
        if -code in LIMIT_SIGNALS:
            return SeedLimitExceeded(f"{what} {verb}: {LIMIT_SIGNALS[signal.Signals(-code)]}", hint=hint)
        if last.split(":")[0].endswith("MemoryError") or "Memory allocation" in last:  # numpy's, or its BLAS's
            return SeedLimitExceeded(f"{what} {verb}: out of memory", hint=hint)
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else f"signal {-code}"
            return SeedRunFailed(f"{what} {verb}: killed by {name}", hint=hint)
        return SeedRunFailed(f"{what} {verb} ({last})", hint=hint)


Progress = Callable[[int, SeedTask], None]


class SeedPool:
    """``workers`` children, started on entry and closed on exit (``with SeedPool(2) as pool: pool.run(tasks)``)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = workers
        self.workers: list[SeedWorker] = []

    def __enter__(self) -> SeedPool:
        try:
            for _ in range(self.size):
                self.workers.append(SeedWorker())
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for worker in self.workers:
            worker.close()

    def run(self, tasks: Sequence[SeedTask], on_done: Progress | None = None) -> list[RunResult]:
        """The results of ``tasks`` in their order, each seed on whichever worker is free next. After a failure no
        further seed starts (those running finish); the failure of the earliest task is raised."""
        results: list[RunResult | None] = [None] * len(tasks)
        failures: dict[int, Exception] = {}
        lock = threading.Lock()
        queue = iter(range(len(tasks)))
        finished = [0]

        def serve(worker: SeedWorker) -> None:
            while True:
                with lock:
                    index = None if failures else next(queue, None)
                if index is None:
                    return
                try:
                    results[index] = worker.run(tasks[index])
                except Exception as err:  # noqa: BLE001 - re-raised below; recorded so no further seed starts
                    with lock:
                        failures[index] = err
                    return
                with lock:  # reported under the lock, so counts and shares arrive in increasing order
                    finished[0] += 1
                    if on_done is not None:
                        on_done(finished[0], tasks[index])

        with ThreadPoolExecutor(max_workers=len(self.workers), thread_name_prefix="seed-worker") as threads:
            for future in [threads.submit(serve, worker) for worker in self.workers]:
                future.result()
        if failures:
            raise failures[min(failures)]
        assert all(r is not None for r in results)
        return [r for r in results if r is not None]
