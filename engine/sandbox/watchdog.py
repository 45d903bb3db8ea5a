"""Spawn one sandboxed child and watch it (docs/sandbox.md#l1-process-boundary, docs/sandbox.md#l5-watchdog).

The child gets an empty environment (only BLAS thread counts), a new session, closed fds except the channel, a
fresh scratch directory. One select loop moves the config and replies into the child's stdin, and reads its
stdout/stderr and the channel; the whole process group is killed at the wall deadline, at the output cap or at
an oversize message, and scratch is deleted. Never ``communicate()`` without caps.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.blas_threads import ONE_BLAS_THREAD
from engine.forked_child import ForkedChild, preload
from engine.result import FailureKind
from engine.sandbox.limits import Limits
from engine.sandbox.results import BadResult, one_line, parse_strict

BOOTSTRAP = Path(__file__).with_name("bootstrap.py")
CHILD_ENV = {**ONE_BLAS_THREAD, "LC_ALL": "C.UTF-8"}
_CPU_SIGNALS = (signal.SIGXCPU, signal.SIGKILL)
MAX_UNREAD = 1 << 20  # bytes of replies a child may leave unread before it is stopped


@dataclass
class ChildOutcome:
    """How one child run ended. ``final`` is its last strict-JSON message, ``failure`` a one-line reason and
    ``failure_kind`` its class (a resource limit, an error of the code, a malformed result)."""

    final: dict[str, Any] | None
    failure: str | None
    output: bytes = b""
    returncode: int | None = None
    wall_s: float = 0.0
    requests: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    failure_kind: FailureKind | None = None


Requests = Callable[[dict[str, Any]], dict[str, Any] | None]
"""Answers one request from the child: the reply, or None for a pipelined request (no reply is sent)."""


class _Stop(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


def run_child(
    config: dict[str, Any],
    limits: Limits,
    argv_prefix: list[str],
    *,
    scratch_owner: int | None,
    result_cap: int,
    on_request: Requests | None = None,
    stdin_tail: bytes = b"",
    sealed_files: int = 0,
    forked: bool = False,
) -> ChildOutcome:
    """Run ``bootstrap.py`` with ``config`` under ``argv_prefix`` (bubblewrap or nothing) and watch it.

    sealed_files: 0 for a scratch directory the child may fill (tier A, where it is a size-capped tmpfs, and our
    own trusted runs); otherwise a sealed scratch (:func:`sealed_scratch`) of that many files.
    forked: run bootstrap's ``main`` in a child forked from this process (:class:`engine.forked_child.ForkedChild`)
    instead of a fresh interpreter: for our own trusted functions only, never for submitted code, and with no
    ``argv_prefix``. Its address-space limit then counts from this process's size (bootstrap's ``memory_above``).
    """
    if forked and argv_prefix:
        raise ValueError("a forked child runs no wrapper: argv_prefix must be empty")
    if sealed_files:
        scratch = sealed_scratch(limits.scratch_root, sealed_files, scratch_owner)
    else:
        scratch = tempfile.mkdtemp(prefix="sutro-sbx-")
        if scratch_owner is not None:
            os.chown(scratch, scratch_owner, scratch_owner)
    chan_r, chan_w = os.pipe()
    import_path = [p for p in sys.path if p and os.path.isdir(p)]  # the parent's, without site's ~30 ms
    cfg = dict(config, sys_path=import_path, channel_fd=chan_w, limits=limits.__dict__)
    cfg["scratch"] = config.get("scratch") or scratch
    cfg["scratch_sealed"] = bool(sealed_files)
    cfg["memory_above"] = forked
    start = time.monotonic()
    try:
        proc: subprocess.Popen[bytes] | ForkedChild
        if forked:
            proc = ForkedChild(
                _bootstrap_main(str(config.get("fn", ""))),
                stderr=subprocess.STDOUT,
                cwd=scratch,
                start_new_session=True,
                pass_fds=(chan_w,),
            )
        else:
            proc = subprocess.Popen(
                [*argv_prefix, _python(), "-I", "-S", str(BOOTSTRAP)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=(chan_w,),
                env=dict(CHILD_ENV),
                start_new_session=True,
                close_fds=True,
                cwd=scratch,
            )
    except OSError:
        os.close(chan_r)
        os.close(chan_w)
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    os.close(chan_w)
    try:
        outcome = _watch(
            proc,
            chan_r,
            (json.dumps(cfg) + "\n").encode() + stdin_tail,
            limits,
            result_cap,
            on_request,
            start,
            measure_cpu=not argv_prefix,
        )
    finally:
        _kill_group(proc)
        os.close(chan_r)
        shutil.rmtree(scratch, ignore_errors=True)
    outcome.wall_s = time.monotonic() - start
    return outcome


_FORKED_PRELOAD = (
    "engine.sandbox.bootstrap",
    "engine.sandbox.judge_memory",
    "engine.sandbox.npy_pipe",
    "engine.sandbox.landlock",
    "engine.sandbox.seccomp_filter",
)
"""What a forked child's bootstrap imports, imported here before the fork (with the function's own module)."""


def _bootstrap_main(fn_qualified_name: str) -> Callable[[], None]:
    """bootstrap's ``main``, with everything it will import already loaded in this process."""
    module = fn_qualified_name.partition(":")[0]
    preload([*_FORKED_PRELOAD, *([module] if module else [])])
    from engine.sandbox import bootstrap

    return bootstrap.main


SCRATCH_FILE = "scratch-{}"


def sealed_scratch(root: str, files: int, owner: int | None) -> str:
    """A run's scratch where the host gives no private filesystem (tiers B and C): a fresh directory inside
    ``root`` (made 0700 when missing; the system's temporary directory when empty) holding ``files`` empty files
    ``scratch-0`` … that the child may read, write and truncate. The child cannot add entries: the directory is
    not writable by its uid (owned by this process, 0755 for a sandbox uid to enter, else 0700) and Landlock
    grants no create right there; seccomp refuses ``fallocate`` and unnamed ``O_TMPFILE`` files. So the disk it
    can take is ``files`` × RLIMIT_FSIZE, and nothing lands in the host's shared /tmp when ``root`` is set."""
    if root:
        os.makedirs(root, mode=0o700, exist_ok=True)
        os.chmod(root, 0o700)
    scratch = tempfile.mkdtemp(prefix="sutro-sbx-", dir=root or None)
    for i in range(files):
        path = os.path.join(scratch, SCRATCH_FILE.format(i))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            if owner is not None:
                os.fchown(fd, owner, owner)
        finally:
            os.close(fd)
    os.chmod(scratch, 0o755 if owner is not None else 0o700)
    return scratch


def _python() -> str:
    return sys.executable


def _kill_group(proc: subprocess.Popen[bytes] | ForkedChild) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


def _watch(
    proc: subprocess.Popen[bytes] | ForkedChild,
    chan_r: int,
    first: bytes,
    limits: Limits,
    result_cap: int,
    on_request: Requests | None,
    start: float,
    *,
    measure_cpu: bool,
) -> ChildOutcome:
    assert proc.stdin is not None and proc.stdout is not None
    sel = selectors.DefaultSelector()
    out_fd, in_fd = proc.stdout.fileno(), proc.stdin.fileno()
    os.set_blocking(in_fd, False)
    sel.register(out_fd, selectors.EVENT_READ, "out")
    sel.register(chan_r, selectors.EVENT_READ, "chan")
    pending = bytearray(first)
    sel.register(in_fd, selectors.EVENT_WRITE, "in")
    output, chan = bytearray(), bytearray()
    final: dict[str, Any] | None = None
    requests = 0
    open_reads = 2
    deadline = start + limits.wall_s
    try:
        while open_reads:
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                raise _Stop(limits.wall_message())
            for key, _ in sel.select(timeout):
                if key.data == "in":
                    try:
                        del pending[: os.write(in_fd, pending)]
                    except (BrokenPipeError, BlockingIOError):
                        pending.clear()
                    if not pending:
                        sel.unregister(in_fd)
                    continue
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fd)
                    open_reads -= 1
                elif key.data == "out":
                    output += chunk
                    if len(output) > limits.output_bytes:
                        raise _Stop(limits.output_message())
                else:
                    chan += chunk
                    while (nl := chan.find(b"\n")) >= 0:
                        line = bytes(chan[:nl])
                        del chan[: nl + 1]
                        msg = parse_strict(line, result_cap)
                        if "op" in msg and on_request is not None and final is None:
                            requests += 1
                            reply = on_request(msg)
                            if reply is None:
                                continue
                            had = bool(pending)
                            pending += _reply_line(reply)
                            if len(pending) > max(4 * result_cap, MAX_UNREAD):
                                raise _Stop("your code stopped reading the judge's replies")
                            if not had:  # try at once; wait for writability only if the pipe is full
                                with contextlib.suppress(BlockingIOError, BrokenPipeError):
                                    del pending[: os.write(in_fd, pending)]
                                if pending:
                                    sel.register(in_fd, selectors.EVENT_WRITE, "in")
                        elif msg.get("type") in ("result", "error") and final is None:
                            final = msg
                        else:
                            raise BadResult("unexpected message from the sandbox")
                    if len(chan) > result_cap:
                        raise _Stop(f"result limit ({result_cap:,} bytes) exceeded")
    except _Stop as stop:
        _kill_group(proc)
        return ChildOutcome(
            None, stop.message, bytes(output), proc.returncode, requests=requests, failure_kind=FailureKind.LIMIT
        )
    except BadResult as exc:
        _kill_group(proc)
        return ChildOutcome(
            None,
            f"rejected result: {exc}",
            bytes(output),
            proc.returncode,
            requests=requests,
            failure_kind=FailureKind.REJECTED,
        )
    finally:
        sel.close()
    waited = _wait(proc, deadline)
    if waited is None:
        _kill_group(proc)
        return ChildOutcome(
            None,
            limits.wall_message(),
            bytes(output),
            proc.returncode,
            requests=requests,
            failure_kind=FailureKind.LIMIT,
        )
    rc, cpu_s = waited
    if not measure_cpu:  # bubblewrap exits before reaping the child, so its CPU is not in bwrap's usage: the
        # wall time bounds it (one thread; imports that start threads are refused), else it is unknown
        elapsed = time.monotonic() - start
        cpu_s = elapsed if elapsed < limits.cpu_s else -1.0
    failure, kind = _exit_failure(final, rc, limits, cpu_s)
    return ChildOutcome(final, failure, bytes(output), rc, requests=requests, failure_kind=kind)


_ENCODER = json.JSONEncoder(allow_nan=False)  # one for every reply (json.dumps builds one per call)


def _reply_line(reply: dict[str, Any]) -> bytes:
    try:
        return (_ENCODER.encode(reply) + "\n").encode()
    except (TypeError, ValueError) as exc:  # e.g. an integer over Python's 4,300-digit str() limit
        raise BadResult("a reply could not be encoded") from exc


def _wait(proc: subprocess.Popen[bytes] | ForkedChild, deadline: float) -> tuple[int, float] | None:
    """The child's exit status and the CPU seconds it (and the descendants it reaped) used; None at the deadline.
    Reaped with wait4 for its resource usage, then handed to Popen."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except OSError:  # already reaped, or no pidfd support: no CPU figure
        try:
            return proc.wait(timeout=max(0.0, deadline - time.monotonic())), -1.0
        except subprocess.TimeoutExpired:
            return None
    try:
        ready, _, _ = select.select([pidfd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return None
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        os.close(pidfd)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


def _exit_failure(
    final: dict[str, Any] | None, rc: int, limits: Limits, cpu_s: float = -1.0
) -> tuple[str | None, FailureKind | None]:
    """A one-line reason and its kind from the final message and the exit status (signals: plain or bwrap's
    128+n). A kill is called the CPU limit only when the child really used its CPU seconds (``cpu_s`` < 0: not
    known)."""
    if final is not None and final.get("type") == "error":
        if final.get("kind") == "memory":
            return limits.memory_message(), FailureKind.LIMIT
        message = final.get("message")
        line = one_line(message) if isinstance(message, str) and message.strip() else "your code raised an error"
        return line, FailureKind.ERROR
    if final is not None:
        return None, None
    sig = -rc if rc < 0 else (rc - 128 if rc > 128 else 0)
    if sig in _CPU_SIGNALS and (cpu_s < 0 or cpu_s >= limits.cpu_s - 0.05):
        return limits.cpu_message(), FailureKind.LIMIT
    if sig:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"number {sig}"
        return f"your code was stopped by signal {name} (not by a limit of this run)", FailureKind.ERROR
    return f"your code exited (status {rc}) without a result", FailureKind.ERROR
