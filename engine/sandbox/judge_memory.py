"""An address-space limit on the judge's own process while it judges one ``solve()`` submission (issue 29).

The child that runs a submission has its own rlimits; the parent that answers its requests (numpy work on the
hidden arrays, the element trace behind ``bytedmd@2``, the protocol) did not. Its memory was bounded only by the
budgets (elements held, the trace's size), so a request the budgets misjudged could grow the bot's worker without
limit. :func:`judge_address_space` lowers the process's soft ``RLIMIT_AS`` to its size when the judgement starts
plus ``Limits.judge_memory_bytes`` (384 MiB by default: an honest full brute force at n=20 grows the judge's
address space by about 131 MiB, bench/bench_judge_bounds.py), and restores it afterwards. Past it an allocation
fails with ``MemoryError``, which the judge turns into one line for that judgement (``Limits.judge_memory_message``);
the process, and with it the bot's worker and other members' jobs, carries on.

The limit is the process's, not the thread's: in a process that judges several submissions at once (threads), each
judgement adds its allowance while it runs and the first one's start fixes the base. The hard limit is never
touched, so the soft one can always be raised back. A child started meanwhile inherits the lowered soft limit and
sets its own (docs/sandbox.md#l2-rlimits).
"""

from __future__ import annotations

import os
import resource
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_active = 0
_saved_soft = resource.RLIM_INFINITY


def address_space_bytes() -> int:
    """This process's current virtual size in bytes (``/proc/self/statm``'s first field, in pages)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _set_soft(soft: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY and (soft == resource.RLIM_INFINITY or soft > hard):
        soft = hard
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextmanager
def judge_address_space(extra_bytes: int) -> Iterator[int]:
    """While the block runs, this process may map at most ``extra_bytes`` more than it had mapped when the first
    running judgement began (never more than a lower soft limit already set). Yields the soft limit in bytes
    (0 when ``extra_bytes`` is 0 or less: no limit applied)."""
    global _active, _saved_soft
    if extra_bytes <= 0:
        yield 0
        return
    with _LOCK:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if _active == 0:
            _saved_soft = soft
            limit = address_space_bytes() + extra_bytes
            if soft != resource.RLIM_INFINITY:
                limit = min(limit, soft)
        else:
            limit = soft + extra_bytes
        _set_soft(limit)
        _active += 1
    try:
        yield limit
    finally:
        with _LOCK:
            _active -= 1
            if _active == 0:
                _set_soft(_saved_soft)
            else:
                soft, _ = resource.getrlimit(resource.RLIMIT_AS)
                _set_soft(soft - extra_bytes)
