"""Suite-wide guards: no test reaches the internet, and no test touches the user's real data directory."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _is_local(address: object) -> bool:
    if isinstance(address, str | bytes):  # AF_UNIX path
        return True
    if isinstance(address, tuple) and address:
        host = address[0]
        if host in ("localhost", ""):
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False
    return False


class InternetAccessInTest(RuntimeError):
    """A test tried to reach a non-loopback address."""


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _is_local(address):
        raise InternetAccessInTest(f"test tried to connect to {address!r}")
    return _real_connect(self, address)  # type: ignore[arg-type]


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _is_local(address):
        raise InternetAccessInTest(f"test tried to connect to {address!r}")
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def _no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any outbound connection to a non-loopback address fails the test."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own data directory and no stray SUTRO_* settings from the environment."""
    import os

    for key in list(os.environ):
        if key.startswith("SUTRO_"):
            monkeypatch.delenv(key)
    data_dir = tmp_path / "sutro-data"
    monkeypatch.setenv("SUTRO_DATA_DIR", str(data_dir))
    monkeypatch.chdir(tmp_path)
    yield data_dir


@pytest.fixture
def db_sessions(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A migrated SQLite database file in the test's tmp dir; yields a session factory."""
    from storage.database import make_engine, session_factory
    from storage.migrate import upgrade_to_head

    engine = make_engine(f"sqlite:///{tmp_path / 'test.db'}")
    upgrade_to_head(engine)
    yield session_factory(engine)
    engine.dispose()


MAX_WORKERS = 4
"""Most pytest-xdist workers `-n auto` starts: each one imports the stack and starts its own PostgreSQL and Dask
fixtures, so beyond a few workers start-up costs more than the spread saves."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker per core, at most MAX_WORKERS (2 on the 2-core machines the suite's times are measured on)."""
    import os

    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS))
