"""engine/forked_child.py: a child forked to run one of our functions holds only what it was given.

Oracles: what the child itself reports from /proc and the signal module, exit statuses chosen by the test, and a
finaliser that writes its process id to a file (so a finaliser run in the child would leave the child's id there).
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.forked_child import CRASH_EXIT, ForkedChild

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")


def _report(child: ForkedChild) -> dict[str, object]:
    assert child.stdin is not None and child.stdout is not None
    child.stdin.close()
    answer: dict[str, object] = json.loads(child.stdout.read())
    child.stdout.close()
    assert child.wait(10) == 0
    return answer


def test_the_child_echoes_through_its_pipes_and_returns_its_status() -> None:
    def upper() -> int:
        sys.stdout.write(sys.stdin.read().upper())
        sys.stdout.flush()
        return 3

    child = ForkedChild(upper)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"dally ir cost\n")
    child.stdin.close()
    assert child.stdout.read() == b"DALLY IR COST\n"
    child.stdout.close()
    assert child.wait(10) == 3 and child.returncode == 3
    assert child.poll() == 3


def test_a_raising_child_exits_with_the_crash_status_and_its_traceback_on_stderr(tmp_path: Path) -> None:
    def fails() -> None:
        raise ValueError("no such buffer")

    def exits() -> None:
        sys.exit(5)

    with open(tmp_path / "err", "w+b") as err:
        child = ForkedChild(fails, stderr=err.fileno())
        assert child.wait(10) == CRASH_EXIT
        err.seek(0)
        assert err.read().decode().strip().splitlines()[-1] == "ValueError: no such buffer"
    assert ForkedChild(exits).wait(10) == 5


def test_only_the_named_descriptors_reach_the_child_and_it_leads_its_own_session(tmp_path: Path) -> None:
    kept_r, kept_w = os.pipe()
    private = os.open(tmp_path / "private.db", os.O_CREAT | os.O_RDWR)
    signal.signal(signal.SIGUSR1, lambda *_: None)
    try:

        def observe() -> None:
            fds = sorted(int(name) for name in os.listdir("/proc/self/fd"))
            print(
                json.dumps(
                    {
                        "fds": fds,
                        "sid": os.getsid(0),
                        "pgid": os.getpgid(0),
                        "pid": os.getpid(),
                        "cwd": os.getcwd(),
                        "usr1": signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL,
                    }
                )
            )

        child = ForkedChild(observe, pass_fds=(kept_w,), cwd=str(tmp_path), start_new_session=True)
        seen = _report(child)
    finally:
        signal.signal(signal.SIGUSR1, signal.SIG_DFL)
        for fd in (kept_r, kept_w, private):
            os.close(fd)
    fds = seen["fds"]
    assert isinstance(fds, list)
    # 0-2, the named one, and the one listdir itself opened: never the parent's private file
    assert private not in fds and kept_w in fds and {0, 1, 2} <= set(fds) and len(fds) == 5
    assert seen["sid"] == seen["pid"] == seen["pgid"] == child.pid
    assert seen["cwd"] == str(tmp_path)
    assert seen["usr1"] is True


class _Finalised:
    """A cyclic object whose finaliser records which process ran it."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.me = self

    def __del__(self) -> None:
        with open(self.log, "a") as out:
            out.write(f"{os.getpid()}\n")


def test_the_parents_objects_are_never_finalised_in_the_child(tmp_path: Path) -> None:
    log = tmp_path / "finalised"
    gc.disable()
    try:
        _Finalised(log)  # unreachable garbage, left for the collector
        child = ForkedChild(lambda: print(json.dumps({"collected": gc.collect()})))
        _report(child)
    finally:
        gc.enable()
    gc.collect()
    assert log.read_text().split() == [str(os.getpid())]  # once, by this process


def test_a_waiting_child_times_out_and_is_killed() -> None:
    child = ForkedChild(lambda: time.sleep(60))
    with pytest.raises(subprocess.TimeoutExpired):
        child.wait(0.05)
    child.kill()
    assert child.wait(10) == -signal.SIGKILL
    child.kill()  # reaped: nothing to signal, no error
