"""A pytest plugin that measures each test's CPU seconds, for sizing the quick subset on a shared machine.

Wall-clock durations (``--durations``) grow with the machine's load; CPU seconds grow much less, so they say which
tests are heavy even while other work runs. Use::

    pytest -p tests.cpu_time --cpu-durations=25 -m "not slow and not e2e"

A test's figure is the CPU time (user + system) its worker process spent from the start of its setup to the end of
its teardown, plus that of the child processes the worker waited for in that time (``RUSAGE_CHILDREN``: a sandboxed
run, a ``sutro`` subprocess). Children still running at the end are not counted. The summary lists the heaviest
tests and how many are over :data:`QUICK_LIMIT_S` (the quick subset's rule in docs/testing.md).
"""

from __future__ import annotations

import resource
from collections.abc import Generator
from typing import Any

import pytest

QUICK_LIMIT_S = 0.5
"""CPU seconds above which a test does not belong in the quick subset."""

_started: dict[str, float] = {}
_cpu_s: dict[str, float] = {}


def _cpu_now() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--cpu-durations",
        type=int,
        default=25,
        metavar="N",
        help="with -p tests.cpu_time: list the N tests that used the most CPU seconds (0: none)",
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    _started[item.nodeid] = _cpu_now()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    if call.when == "teardown" and item.nodeid in _started:
        report = outcome.get_result()
        report.user_properties.append(("cpu_s", _cpu_now() - _started.pop(item.nodeid)))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Collect the figures where the reports arrive (the controller, under xdist)."""
    for key, value in report.user_properties:
        if key == "cpu_s" and isinstance(value, float):
            _cpu_s[report.nodeid] = value


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if not _cpu_s:
        return
    shown = int(config.getoption("--cpu-durations"))
    heaviest = sorted(_cpu_s.items(), key=lambda kv: kv[1], reverse=True)
    over = [nodeid for nodeid, cpu in heaviest if cpu > QUICK_LIMIT_S]
    total = sum(_cpu_s.values())
    terminalreporter.section("CPU seconds per test (setup to teardown, with waited-for children)")
    terminalreporter.write_line(f"{len(_cpu_s)} tests, {total:.1f} CPU s in all; {len(over)} over {QUICK_LIMIT_S} s")
    for nodeid, cpu in heaviest[:shown]:
        terminalreporter.write_line(f"{cpu:8.2f}s  {nodeid}")
