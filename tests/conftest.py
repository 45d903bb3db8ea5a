"""Suite-wide guards: no test reaches the internet, and no test touches the user's real data directory. And one
BLAS thread in every test process (below)."""

from __future__ import annotations

import gc
import ipaddress
import os
import shutil
import socket
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest

from engine.blas_threads import ONE_BLAS_THREAD

# One BLAS thread per test process, as in the product's job processes, seed workers and sandboxed children
# (engine/blas_threads.py): the suite's parallelism is its pytest-xdist workers, one or more per core, and each
# worker's own OpenBLAS threads only contended with the others for the same cores. Set here, before the workers
# start (they inherit this environment) and before numpy loads in this process. Measured over the whole suite on
# 2 cores: 494 CPU seconds in all (system-wide, /proc/stat) against 515-517 without, 4 min 15 s against 4 min
# 25-32 s. A variable already set by the caller is kept. Tests of the job's own setting start their processes
# from an environment without these variables (tests/executors/test_what_jobs_reach.py).
for _name, _value in ONE_BLAS_THREAD.items():
    os.environ.setdefault(_name, _value)

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


@pytest.fixture(scope="session")
def anthropic_sdk() -> object:
    """The Anthropic SDK, imported once per worker for the tests that drive it against the fake Messages API.

    The import alone takes about 1 CPU second (the SDK's pydantic models): a worker's one-off set-up, like the
    migrated template database, not the cost of whichever of those tests happens to run first (tests/cpu_time.py
    reports session set-up on its own line). The product imports it only where Claude is called."""
    import anthropic

    return anthropic


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database file brought to head by the real migrations (``storage.migrate.upgrade_to_head``), made
    once per test process. Tests start from a copy of it (:func:`copy_migrated_database`) instead of migrating an
    empty database each time (0.1-0.5 s of CPU apiece); the migrations from an empty database are tested on their
    own in tests/storage/test_migrations.py."""
    from storage.database import make_engine
    from storage.migrate import upgrade_to_head

    path = tmp_path_factory.mktemp("migrated") / "sutro.db"
    engine = make_engine(f"sqlite:///{path}")
    upgrade_to_head(engine)
    engine.dispose()  # the last connection closed: SQLite checkpoints the WAL into the file and removes it
    assert not path.with_name(path.name + "-wal").exists(), "the template must be one self-contained file"
    return path


def copy_migrated_database(template: Path, target: Path) -> Path:
    """Copy the migrated template to ``target`` (mode 0600, its folder created 0700 as the bot makes it)."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    shutil.copyfile(template, target)
    target.chmod(0o600)
    return target


@pytest.fixture
def migrated_data_dir(migrated_database: Path) -> Callable[[Path], Path]:
    """``migrated_data_dir(path)`` returns ``path`` as a data directory whose database is already at head (for
    tests that build Settings with a data directory of their own)."""

    from storage.database import DATABASE_FILE

    def prepare(data_dir: Path) -> Path:
        copy_migrated_database(migrated_database, data_dir / DATABASE_FILE)
        return data_dir

    return prepare


@pytest.fixture(scope="session")
def shared_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``cache_dir`` setting of every test: one directory for the whole run, shared by the pytest workers (their
    temporary directories' common parent) and the processes the tests start, as one deployment's processes share
    theirs. Its figures depend only on engine code (bot/core/baselines.py), so a test that reads one back gets the
    figure it would have computed: mask sparse parity's baseline program (about 2 CPU s to price) is priced once
    per run instead of once in every pytest worker and every job process that judges a mask program. The tests of
    the cache itself name directories of their own."""
    import os

    base = tmp_path_factory.getbasetemp()
    run = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    path = run / "shared-cache"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


@pytest.fixture(autouse=True)
def _isolated_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_database: Path, shared_cache_dir: Path
) -> Iterator[Path]:
    """Every test gets its own data directory, its database already at head, and no stray SUTRO_* settings from
    the environment; the cache of engine-code figures is the run's (:func:`shared_cache_dir`)."""
    import os

    from storage.database import DATABASE_FILE

    for key in list(os.environ):
        if key.startswith("SUTRO_"):
            monkeypatch.delenv(key)
    data_dir = tmp_path / "sutro-data"
    copy_migrated_database(migrated_database, data_dir / DATABASE_FILE)
    monkeypatch.setenv("SUTRO_DATA_DIR", str(data_dir))
    monkeypatch.setenv("SUTRO_CACHE_DIR", str(shared_cache_dir))
    monkeypatch.chdir(tmp_path)
    yield data_dir


@pytest.fixture
def db_sessions(tmp_path: Path, migrated_database: Path):  # type: ignore[no-untyped-def]
    """A SQLite database file at head in the test's tmp dir (a copy of the migrated template); yields a session
    factory."""
    from storage.database import make_engine, session_factory

    engine = make_engine(f"sqlite:///{copy_migrated_database(migrated_database, tmp_path / 'test.db')}")
    yield session_factory(engine)
    engine.dispose()


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """Collecting imports the whole stack in every worker (SQLAlchemy, numpy, telegram, matplotlib …), objects that
    live until the worker ends: they are imported with the cyclic collector paused, then frozen, so no full
    collection during the tests walks them again (the quick subset, interleaved runs on 2 shared cores: 44.0 and
    50.8 CPU-seconds against 49.2 and 51.9 without)."""
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.enable()


MAX_WORKERS = 4
"""Most pytest-xdist workers `-n auto` starts: each one imports the stack and starts its own PostgreSQL and Dask
fixtures, so beyond a few workers start-up costs more than the spread saves."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker per core, and one more when the run includes the slow and end-to-end tests, at most MAX_WORKERS.

    Those tests spend part of their time waiting (on a Dask cluster's processes, a PostgreSQL server, the fake Bot
    API's clock), and a worker that waits leaves its core idle: on 2 cores the whole suite took 5 min 4 s with 2
    workers (the cores 78 % busy) and 4 min 31 s with 3 (95 %), both with work stealing and the long tests first
    (2026-11-29). The quick subset (`-m "not slow and not e2e"`) has nothing to wait for: one per core
    (28.0 s against 28.7 s with 3)."""
    cores = len(os.sched_getaffinity(0))
    quick_only = "not slow" in str(config.getoption("markexpr", "") or "")
    return max(1, min(cores + (0 if quick_only else 1), MAX_WORKERS))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow and end-to-end tests first, in their collected order, then the quick ones: the long tests start while
    every worker is free and the short ones fill the end, so no worker is left with one long test after the others
    have finished (longest-first scheduling, by the marks; a module's tests stay together within each group)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None and item.get_closest_marker("e2e") is None)
