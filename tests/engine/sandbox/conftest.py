"""Shared fixtures for the sandbox tests: the probed tier (recorded on every test and in the summary), and the
honest submissions under ``submissions/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.sandbox.tier import TierReport, probe_tier

SUBMISSIONS = Path(__file__).resolve().parent / "submissions"


def submission(name: str) -> str:
    """Source text of ``submissions/<name>.py``."""
    return (SUBMISSIONS / f"{name}.py").read_text()


@pytest.fixture
def tier(record_property: pytest.RecordProperty) -> TierReport:
    """The tier this machine offers; every test that uses it records it."""
    report = probe_tier()
    record_property("sandbox_tier", report.tier)
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(f"sandbox tests ran on: {probe_tier().description}")
