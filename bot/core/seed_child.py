"""A seed worker's child process: run the seeds it is handed, one after another, until its input closes.

Started by :class:`bot.core.seed_pool.SeedWorker`: forked from its process, which has the methods loaded, or as
``python -m bot.core.seed_child``. It imports the methods first where they are not loaded (numpy, the tracer), sends
:class:`Ready`, then answers each pickled
:class:`~bot.core.seed_task.SeedTask` read on stdin with an :class:`Answer` on a private copy of stdout; fd 1
itself is pointed at stderr, so a method that prints cannot garble an answer. Only what a seed needs is imported
here (no subprocess, threads or logging), to keep a child's start cheap.
"""

from __future__ import annotations

import os
import pickle
import sys
import time
from dataclasses import dataclass
from typing import IO

from bot.core.seed_task import SeedTask, run_here
from engine.errors import EngineError
from engine.result import RunResult


@dataclass(frozen=True)
class Ready:
    """A child's first message: its imports done. cpu_s: CPU seconds the child had used by then (interpreter start
    and imports)."""

    cpu_s: float


@dataclass(frozen=True)
class SeedError:
    """An engine error in a child, sent as text (not every error class rebuilds from its pickled arguments)."""

    message: str
    hint: str


@dataclass(frozen=True)
class Answer:
    """A seed's outcome and the CPU seconds the child had used by the time it was sent (start included)."""

    outcome: RunResult | SeedError
    cpu_s: float


def serve(tasks: IO[bytes], answers: IO[bytes]) -> None:
    """Announce readiness on ``answers``, then answer each task read from ``tasks`` until it closes."""
    import engine.methods  # noqa: F401 - loaded before Ready, so every seed finds the methods loaded

    _send(answers, Ready(cpu_s=time.process_time()))
    while True:
        try:
            task: SeedTask = pickle.load(tasks)  # noqa: S301 - written by our own parent
        except EOFError:
            return
        outcome: RunResult | SeedError
        try:
            outcome = run_here(task)
        except EngineError as exc:
            outcome = SeedError(exc.message, exc.hint)
        _send(answers, Answer(outcome, time.process_time()))


def _send(answers: IO[bytes], message: object) -> None:
    pickle.dump(message, answers)
    answers.flush()


def main() -> None:
    """The child's entry point: move stdout aside as the answer channel, then serve stdin."""
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    # through the module's real name, so what it pickles (Ready, Answer) is found again by the parent
    from bot.core import seed_child

    seed_child.main()
