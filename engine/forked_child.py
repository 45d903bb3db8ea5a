"""A child process forked from this one to run a function of ours, in place of a fresh interpreter.

A fresh ``python`` costs about 0.13 CPU s before it does anything (start-up, then numpy and the engine imported
again), which dwarfs the work of the children this serves: the trusted IR scorer and source parser
(:mod:`engine.sandbox.trusted`, about 0.3 ms of scoring for a small program) and the seed workers
(``bot.core.seed_pool``). A fork of a process that has those modules loaded starts in about a hundredth of that,
with every import already done (docs/performance.md#forked-children).

Only our own code runs in such a child — never submitted code, which always gets a fresh interpreter behind the
sandbox's layers (docs/sandbox.md). What the child shares with its parent, and what it does not:

- memory: a copy-on-write copy of the parent's, read by nothing but the function it runs;
- file descriptors: none but its stdin and stdout pipes, its stderr and the ``pass_fds`` named (all others are
  closed before the function starts, so it cannot touch the parent's sockets or database files);
- signals: default handlers, no wake-up fd of the parent's event loop;
- threads: none (only the forking thread exists in a child), so the function must not need a lock another thread
  of the parent could hold: the parent imports what the child runs before it forks (``preload``), the child makes
  its own standard streams, and it ends with ``os._exit`` (no exit handlers, no flushing of the parent's buffers).
  This is the condition under which a fork of a process with threads is safe; Python 3.12 and later warn about
  such forks in general (``DeprecationWarning``), and multiprocessing's ``fork`` start method makes the same kind;
- the garbage collector never finalises the parent's objects in the child (``gc.freeze``), so no inherited
  connection or file is closed or written from there.

:class:`ForkedChild` offers the part of :class:`subprocess.Popen` that its callers use (``pid``, ``stdin``,
``stdout``, ``poll``, ``wait``, ``returncode``), so a caller can hold either.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import os
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from typing import IO

CRASH_EXIT = 70
"""The exit status of a child whose function raised (its traceback is on its stderr)."""

_RESET_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD, signal.SIGALRM, signal.SIGUSR1)


def preload(modules: Iterable[str]) -> None:
    """Import ``modules`` here, so a child forked later finds them loaded (never imports under a lock that another
    thread of this process might have held when it forked)."""
    for name in modules:
        importlib.import_module(name)


class ForkedChild:
    """``entry()`` run in a forked child with its stdin and stdout on pipes to this process.

    stderr: a file descriptor for the child's fd 2 (None: the parent's stderr; ``subprocess.STDOUT``: its stdout
    pipe). cwd: the child's working directory. start_new_session: the child leads a new session and process group
    (killed as a group by :func:`os.killpg`). pass_fds: descriptors of this process kept open, with the same numbers,
    in the child. The child's exit status is ``entry``'s return value (0 for None), 1 for ``SystemExit`` without a
    number, :data:`CRASH_EXIT` when it raised.
    """

    def __init__(
        self,
        entry: Callable[[], int | None],
        *,
        stderr: int | None = None,
        cwd: str | None = None,
        start_new_session: bool = False,
        pass_fds: tuple[int, ...] = (),
    ) -> None:
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err = out_w if stderr == subprocess.STDOUT else stderr
        for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice, once by each process
            with contextlib.suppress(Exception):
                stream.flush()
        try:
            pid = os.fork()
        except OSError:  # no process to be had (EAGAIN, ENOMEM): nothing is left open
            for fd in (in_r, in_w, out_r, out_w):
                os.close(fd)
            raise
        if pid == 0:  # the child: never returns
            _run_child(entry, in_r, out_w, err, cwd, start_new_session, pass_fds)
        os.close(in_r)
        os.close(out_w)
        self.pid = pid
        self.stdin: IO[bytes] | None = open(in_w, "wb")  # noqa: SIM115 - closed by the caller, as Popen's
        self.stdout: IO[bytes] | None = open(out_r, "rb")  # noqa: SIM115
        self.returncode: int | None = None
        self.args = f"forked {getattr(entry, '__qualname__', entry)!s}"

    def poll(self) -> int | None:
        """The exit status when the child has ended (reaping it), else None."""
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere without telling us (the watchdog's wait4 sets returncode
                self.returncode = 0  # itself): its status is lost; 0, as subprocess.Popen reports then
                return self.returncode
            if pid == self.pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the child to end and return its exit status (negative: the signal that ended it);
        :class:`subprocess.TimeoutExpired` after ``timeout`` seconds."""
        if self.returncode is not None:
            return self.returncode
        if timeout is None:
            try:
                _, status = os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped elsewhere: as in poll()
                self.returncode = 0
                return self.returncode
            self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode
        deadline = time.monotonic() + timeout
        delay = 0.0005
        while (code := self.poll()) is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(min(delay, remaining))
            delay = min(delay * 2, 0.05)
        return code

    def kill(self) -> None:
        """SIGKILL the child (not its group); nothing when it has already been reaped."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def _run_child(
    entry: Callable[[], int | None],
    stdin: int,
    stdout: int,
    stderr: int | None,
    cwd: str | None,
    new_session: bool,
    pass_fds: tuple[int, ...],
) -> None:
    code = CRASH_EXIT
    try:
        gc.freeze()  # the parent's objects stay as they are: no finaliser of theirs runs here
        if new_session:
            os.setsid()
        err = 2 if stderr is None else stderr
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        if err != 2:
            os.dup2(err, 2)
        low = 3  # close everything above stderr but the named descriptors
        for fd in [*sorted({fd for fd in pass_fds if fd >= low}), os.sysconf("SC_OPEN_MAX")]:
            os.closerange(low, fd)
            low = fd + 1
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(-1)
        for signum in _RESET_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)  # (a fork inherits no interval timer or alarm)
        # Fresh standard streams on the new fds; the parent's stream objects are kept alive (never closed or
        # flushed here: they may hold the parent's buffered output).
        _inherited.extend((sys.stdin, sys.stdout, sys.stderr))
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding="utf-8")
        sys.stderr = io.TextIOWrapper(
            io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", write_through=True
        )
        result = entry()
        code = 0 if result is None else int(result)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported on stderr; the exit status says it failed
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode("utf-8", "replace")[-8192:])
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
        os._exit(code)


_inherited: list[object] = []
"""In a child: the parent's standard stream objects, kept referenced so that replacing them never finalises them."""
