"""One sandbox uid per running child, so that no member's child can signal, trace or read another's.

When the engine runs as root every child drops to a uid of its own (docs/sandbox.md#members-cannot-touch-each-other):
a process may signal only processes of its own uid (without CAP_KILL), ``/proc/<pid>/environ``, ``mem`` and
``fd/`` of a process belong to its uid (mode 0400/0700), and ``ptrace`` is refused by seccomp besides. Before this
pool every child ran as uid 65534, and at tier C (no pid namespace, no Landlock signal scope) one member's child
killed another member's running child.

The pool is ``POOL_SIZE`` uids counting down from :data:`engine.sandbox.tier.SANDBOX_UID` (65534, ``nobody``; the
range 65000-65533 is reserved by Debian's policy and inside a 65,536-id user-namespace map). A uid is held with an
exclusive ``flock`` on a lock file in a directory only root can enter, from before the child starts until its
process group has been killed and reaped, so two children running at once — in one process's threads or in
several processes — never share one. Every uid in use at once means the next run waits for one to come free.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator

POOL_SIZE = 256
LOCK_DIR_NAME = "sutro-sandbox-uids"
WAIT_S = 0.05


def pool(first: int, size: int = POOL_SIZE) -> list[int]:
    """The pool's uids, ``first`` first, then counting down."""
    return [first - i for i in range(size)]


def lock_dir() -> str:
    """The directory of the pool's lock files: 0700, owned by this (root) process; made when missing."""
    path = os.path.join(tempfile.gettempdir(), f"{LOCK_DIR_NAME}-{os.geteuid()}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.chmod(path, 0o700)
    return path


@contextlib.contextmanager
def job_uid(first: int | None, deadline_s: float = 60.0) -> Iterator[int | None]:
    """A sandbox uid no other running child holds, for the duration of the block (None stays None: the engine is
    not root and children keep its uid; other layers isolate them). Waits up to ``deadline_s`` for a free uid."""
    if first is None:
        yield None
        return
    directory = lock_dir()
    stop = time.monotonic() + deadline_s
    while True:
        for uid in pool(first):
            fd = os.open(os.path.join(directory, f"uid-{uid}"), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise
                continue
            try:
                yield uid
            finally:
                os.close(fd)  # closing the descriptor drops the lock
            return
        if time.monotonic() > stop:
            raise RuntimeError(f"every one of the {POOL_SIZE} sandbox uids is in use")
        time.sleep(WAIT_S)
