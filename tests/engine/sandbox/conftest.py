"""Shared fixtures for the sandbox tests: the probed tier (recorded on every test and in the summary), and the
honest submissions under ``submissions/``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.sandbox.tier import TierReport, probe_tier

SUBMISSIONS = Path(__file__).resolve().parent / "submissions"


def submission(name: str) -> str:
    """Source text of ``submissions/<name>.py``."""
    return (SUBMISSIONS / f"{name}.py").read_text()


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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(f"sandbox tests ran on: {_report().description}")
