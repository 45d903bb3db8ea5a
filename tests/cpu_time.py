"""A pytest plugin that measures each test's CPU seconds, for sizing the quick subset on a shared machine.

Wall-clock durations (``--durations``) grow with the machine's load; CPU seconds grow much less, so they say which
tests are heavy even while other work runs. Use::

    pytest -p tests.cpu_time --cpu-durations=25 -m "not slow and not e2e"

A test's figure is the CPU time (user + system) its worker process spent from the start of its setup to the end of
its teardown, plus that of the child processes the worker waited for in that time (``RUSAGE_CHILDREN``: a sandboxed
run, a ``sutro`` subprocess). Children still running at the end are not counted. The summary lists the heaviest
tests and how many are over :data:`QUICK_LIMIT_S` (the quick subset's rule in docs/testing.md).

Session-scoped fixtures (the migrated template database, the Anthropic SDK's import) are a worker's one-off
set-up, made once for every test that needs them: their CPU seconds are not charged to whichever test happens to
need them first, but summed on a line of their own, so the total still counts them.
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
_session_setup_s: dict[str, float] = {}
"""Per fixture name: the CPU seconds its session-scoped set-up took, summed over the workers."""
_pending: dict[str, float] = {}
"""In a worker: session set-up seconds spent during the current test (its name -> seconds), not yet reported."""
_depth = [0]


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
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any]) -> Generator[None, None, None]:
    """Time a session-scoped fixture's set-up (the outermost one, when one sets up another inside it)."""
    if fixturedef.scope != "session" or _depth[0]:
        yield
        return
    _depth[0] += 1
    start = _cpu_now()
    try:
        yield
    finally:
        _depth[0] -= 1
        _pending[fixturedef.argname] = _pending.get(fixturedef.argname, 0.0) + _cpu_now() - start


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    if call.when == "teardown" and item.nodeid in _started:
        report = outcome.get_result()
        shared = sum(_pending.values())
        report.user_properties.append(("cpu_s", _cpu_now() - _started.pop(item.nodeid) - shared))
        report.user_properties.extend((f"session_setup_s:{name}", s) for name, s in _pending.items())
        _pending.clear()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Collect the figures where the reports arrive (the controller, under xdist)."""
    for key, value in report.user_properties:
        if key == "cpu_s" and isinstance(value, float):
            _cpu_s[report.nodeid] = value
        elif isinstance(key, str) and key.startswith("session_setup_s:") and isinstance(value, float):
            name = key.partition(":")[2]
            _session_setup_s[name] = _session_setup_s.get(name, 0.0) + value


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if not _cpu_s:
        return
    shown = int(config.getoption("--cpu-durations"))
    heaviest = sorted(_cpu_s.items(), key=lambda kv: kv[1], reverse=True)
    over = [nodeid for nodeid, cpu in heaviest if cpu > QUICK_LIMIT_S]
    shared = sum(_session_setup_s.values())
    total = sum(_cpu_s.values()) + shared
    terminalreporter.section("CPU seconds per test (setup to teardown, with waited-for children)")
    terminalreporter.write_line(f"{len(_cpu_s)} tests, {total:.1f} CPU s in all; {len(over)} over {QUICK_LIMIT_S} s")
    if shared:
        named = sorted(((n, s) for n, s in _session_setup_s.items() if s >= 0.05), key=lambda kv: -kv[1])
        parts = ", ".join(f"{name} {s:.1f}" for name, s in named) or "each under 0.05 s"
        terminalreporter.write_line(f"   {shared:.1f} s of it in one-off session set-up (all workers): {parts}")
    for nodeid, cpu in heaviest[:shown]:
        terminalreporter.write_line(f"{cpu:8.2f}s  {nodeid}")
