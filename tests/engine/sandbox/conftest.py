"""Shared fixtures for the sandbox tests: the probed tier (recorded on every test and in the summary), and the
honest submissions under ``submissions/``."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.sandbox.tier import TierReport, probe_tier

SUBMISSIONS = Path(__file__).resolve().parent / "submissions"


def submission(name: str) -> str:
    """Source text of ``submissions/<name>.py``."""
    return (SUBMISSIONS / f"{name}.py").read_text()


@contextmanager
def proxies_released() -> Iterator[None]:
    """Collect, on the way out, every stand-in proxy (``client.RemoteArray``) made inside: its release goes to this
    test's channel, never to a later test's pipe that reuses the descriptor.

    The objects that exist on the way in are frozen first (``gc.freeze``), so the closing collection walks only what
    the block made. A full ``gc.collect()`` in a worker that has run half the suite walks everything the earlier
    tests left alive: it was 83 % of the CPU of the price property and pipelining tests in the whole suite (py-spy,
    2026-11-29), 5x their cost run alone. The price: garbage that already existed on the way in is frozen with
    the rest and never collected in this worker (a test's leftovers; small beside the worker's heap)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.collect()


# SANDBOX_TEST_TIER=B (or C, D) runs the suite with fewer layers than the machine offers, to check that each
# lower tier still holds; unset, the probed tier is used.
_FORCED = os.environ.get("SANDBOX_TEST_TIER")


def _report() -> TierReport:
    probed = probe_tier()
    if _FORCED == "B":
        return TierReport("B", False, probed.landlock_abi, probed.seccomp, probed.uid, ("forced for tests",))
    if _FORCED == "C":
        return TierReport("C", False, 0, probed.seccomp, probed.uid, ("forced for tests",))
    if _FORCED == "D":
        return TierReport("D", False, 0, False, None, ("forced for tests",))
    return probed


@pytest.fixture
def tier(record_property: pytest.RecordProperty, monkeypatch: pytest.MonkeyPatch) -> TierReport:
    """The tier the tests run on (probed, or forced lower); every test that uses it records it."""
    report = _report()
    if _FORCED:
        for module in ("engine.sandbox.generate", "engine.sandbox.judge", "engine.sandbox.launch"):
            monkeypatch.setattr(f"{module}.probe_tier", lambda: report)
    record_property("sandbox_tier", report.tier)
    return report


@dataclass
class ParentUsage:
    """What the test process (the parent side of a submission) spent during one test: the growth of its peak
    resident set over the RSS it had at the start (the kernel's VmHWM, reset per test through clear_refs),
    and its CPU seconds."""

    peak_rss_growth_mib: float = 0.0
    cpu_s: float = 0.0


_USAGE: dict[str, ParentUsage] = {}


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


@pytest.fixture
def parent_usage(request: pytest.FixtureRequest) -> Iterator[ParentUsage]:
    """Measure the parent's peak RSS growth and CPU over one test (printed in the summary per attack)."""
    Path("/proc/self/clear_refs").write_text("5")  # reset VmHWM to the current RSS
    rss0 = _status_kib("VmRSS")
    cpu0 = time.process_time()
    usage = ParentUsage()
    yield usage
    usage.peak_rss_growth_mib = (_status_kib("VmHWM") - rss0) / 1024
    usage.cpu_s = time.process_time() - cpu0
    _USAGE[request.node.name] = usage


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(f"sandbox tests ran on: {_report().description}")
    for name, usage in sorted(_USAGE.items()):
        terminalreporter.write_line(
            f"  parent during {name}: peak RSS +{usage.peak_rss_growth_mib:.1f} MiB, CPU {usage.cpu_s:.2f} s"
        )
