"""Other processes on the test's database, for the tests of concurrent start-up and writing.

Each is a fork of the test process (:class:`engine.forked_child.ForkedChild`) that makes its own engine and
connections, as a second bot or CLI process would: a real process with its own SQLite or PostgreSQL connections,
started in a few milliseconds instead of a fresh interpreter's second of importing the storage layer and Alembic
(17 of them took 17 CPU s of the suite). What they run is imported here before any fork, so a child never imports
under a lock that another thread of the test process might hold.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.forked_child import ForkedChild, preload

preload(["alembic.command", "storage.database", "storage.migrate", "storage.outbox", "storage.runs"])


def wait_for(go: Path) -> None:
    """Block until the file ``go`` exists: the children start their work together when the test creates it."""
    while not go.exists():
        time.sleep(0.002)


def start(entry: Callable[[], None]) -> ForkedChild:
    """``entry()`` in a forked child; its traceback, if it raises, is read by :func:`finish`.

    The test process must hold no connection to the database when it forks: SQLite keeps per-process records of the
    files it has open and their locks, and a child that inherits them while opening the same file gets "locking
    protocol" errors (sqlite.org/howtocorrupt.html, section 2.6: do not carry an open connection across a fork)."""
    return ForkedChild(entry, stderr=subprocess.STDOUT)


def finish(child: ForkedChild, timeout: float = 120.0) -> tuple[int, str]:
    """The child's exit status (0: done, :data:`engine.forked_child.CRASH_EXIT`: it raised) and what it wrote."""
    assert child.stdin is not None and child.stdout is not None
    child.stdin.close()
    try:
        code = child.wait(timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        raise
    output = child.stdout.read().decode("utf-8", "replace")
    child.stdout.close()
    return code, output


def run_together(go: Path, entries: Sequence[Callable[[], None]], timeout: float = 120.0) -> list[tuple[int, str]]:
    """Start one child per entry (each calls :func:`wait_for` on ``go`` before its work), release them together by
    creating ``go``, and return each one's :func:`finish`."""
    children = [start(entry) for entry in entries]
    time.sleep(0.1)  # let each reach its wait on the go file, so that all start their work at once
    go.touch()
    return [finish(child, timeout) for child in children]
