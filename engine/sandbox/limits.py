"""Resource limits for one sandboxed run, and the one-line messages a member sees when a limit is hit.

Defaults (docs/sandbox.md#limits): CPU 5 s, wall clock 10 s, address space 1 GiB, 64 KiB of output.
"""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


def _bytes_label(n: int) -> str:
    """``1 GiB``, ``64 KiB``, ``16 MiB`` or ``123 bytes`` — how a size is shown in messages."""
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def _seconds_label(s: float) -> str:
    return f"{s:g} s"


@dataclass(frozen=True)
class Limits:
    """Caps for one child process.

    cpu_s: CPU seconds (RLIMIT_CPU soft; hard = soft + 1, then SIGKILL).
    wall_s: wall-clock seconds, enforced by the parent watchdog.
    memory_bytes: address space (RLIMIT_AS) of the child.
    output_bytes: bytes of stdout/stderr, and separately of result/channel traffic per message.
    file_bytes: largest file the child may write in its scratch directory (RLIMIT_FSIZE).
    processes: RLIMIT_NPROC for the sandbox uid (threads count too).
    open_files: RLIMIT_NOFILE.
    max_ops: remote-array requests a solve() may make (parent-side budget).
    max_elements: elements the parent holds for one solve() at a time (parent-side memory budget; 4 Mi elements
      = 32 MiB of float64, far above what a 200-row instance needs).
    parent_cpu_s: CPU seconds the parent may spend executing one submission's requests, all instances together,
      counting what each request takes beyond its first millisecond (the numpy work run on its behalf). The
      per-request cost below that (~0.1-0.2 ms: parsing, checks, small ops, the reply) is bounded by ``max_ops``.
      The element trace behind ``bytedmd@2`` (engine.sandbox.remote.element_shadow) shares this allowance: it
      stops, and only ``bytedmd@2`` is dropped, where the two together would pass it.
    element_cpu_s: CPU seconds the parent may spend on the element-level trace behind ``bytedmd@2`` for one
      submission, all instances together (engine.sandbox.remote.element_shadow); beyond it the run is judged as
      usual and reports no ``bytedmd@2``. Not charged to ``parent_cpu_s``.
    judge_cpu_s: CPU seconds the judge's thread may spend on one solve() submission in all, every instance
      together: the protocol, the checks, the numpy work and the element trace (issue 29: no submission may cost
      the judge more than twice an honest full brute force, which takes 2.0 s here, bench/bench_judge_bounds.py).
      Checked after every request; past it the run ends with :meth:`judge_cpu_message`.
    judge_memory_bytes: address space the judge's own process may add while it judges one solve() submission,
      above its size when the judgement starts (RLIMIT_AS, soft, engine.sandbox.judge_memory; an honest full brute
      force adds about 131 MiB); past it the judgement ends with :meth:`judge_memory_message` and the process
      carries on. 0: no limit.
    source_bytes: largest submission source accepted; checked before anything parses it.
    scratch_root: the private (0700) directory in which a run's scratch directory is made when the tier has no
      private filesystem for it (tiers B and C; the bot's data directory); empty: the system's temporary
      directory (tests, the tier probe).
    """

    cpu_s: float = 5.0
    wall_s: float = 10.0
    memory_bytes: int = 1 * GIB
    output_bytes: int = 64 * KIB
    file_bytes: int = 16 * MIB
    processes: int = 64
    open_files: int = 64
    max_ops: int = 50_000
    max_elements: int = 4 * 1024 * 1024
    parent_cpu_s: float = 1.5
    element_cpu_s: float = 10.0
    judge_cpu_s: float = 4.0
    judge_memory_bytes: int = 384 * MIB
    source_bytes: int = 256 * KIB
    scratch_root: str = ""

    def cpu_message(self) -> str:
        return f"CPU time limit ({_seconds_label(self.cpu_s)}) exceeded"

    def wall_message(self) -> str:
        return f"wall-clock limit ({_seconds_label(self.wall_s)}) exceeded"

    def memory_message(self) -> str:
        return f"memory limit ({_bytes_label(self.memory_bytes)}) exceeded"

    def output_message(self) -> str:
        return f"output limit ({_bytes_label(self.output_bytes)}) exceeded"

    def ops_message(self) -> str:
        return f"operation limit ({self.max_ops:,} numpy operations) exceeded"

    def parent_cpu_message(self) -> str:
        return f"judge CPU time limit ({_seconds_label(self.parent_cpu_s)} of numpy work run for your code) exceeded"

    def judge_cpu_message(self) -> str:
        return f"judge CPU time limit ({_seconds_label(self.judge_cpu_s)} for all of your code's requests) exceeded"

    def judge_memory_message(self) -> str:
        return f"judge memory limit ({_bytes_label(self.judge_memory_bytes)} for your code's requests) exceeded"

    def source_message(self, size: int) -> str:
        return f"source size limit ({_bytes_label(self.source_bytes)}) exceeded: your code is {size:,} bytes"

    def elements_message(self) -> str:
        return f"array memory limit ({self.max_elements:,} elements held at once) exceeded"


DEFAULT_LIMITS = Limits()
