"""Storage test fixtures: a throwaway PostgreSQL cluster per test process when the server binaries are installed,
and a fresh database in it for each test that asks."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[tuple[Path, int]]:
    """A PostgreSQL cluster owned by the ``postgres`` system user, reachable on a unix socket only: (socket
    directory, port). Started once per test process, and only when a test asks for :func:`postgres_url`
    (``initdb`` and a server start cost seconds; a test gets a database of its own instead)."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not binaries or not shutil.which("runuser"):
        pytest.skip("PostgreSQL server binaries or runuser not available")
    bindir = Path(binaries[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="sutro-pg-", dir="/tmp"))
    os.chmod(root, 0o755)
    shutil.chown(root, user="postgres")
    as_postgres = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    subprocess.run(
        [
            *as_postgres,
            str(bindir / "initdb"),
            "-D",
            str(root / "data"),
            "-A",
            "trust",
            "-U",
            "app",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    options = f"-c listen_addresses='' -c port={port} -c unix_socket_directories={root} -c fsync=off"
    subprocess.run(
        [
            *as_postgres,
            str(bindir / "pg_ctl"),
            "-D",
            str(root / "data"),
            "-o",
            options,
            "-w",
            "-l",
            str(root / "log"),
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield root, port
    finally:
        subprocess.run(
            [*as_postgres, str(bindir / "pg_ctl"), "-D", str(root / "data"), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


_DATABASES = itertools.count(1)


@pytest.fixture
def postgres_url(postgres_cluster: tuple[Path, int]) -> Iterator[str]:
    """A new, empty database of this test's own in the process's PostgreSQL cluster (``CREATE DATABASE`` copies
    the empty ``template1``), dropped afterwards with any connection the test left open."""
    import psycopg

    root, port = postgres_cluster
    name = f"test_{next(_DATABASES)}"
    with psycopg.connect(host=str(root), port=port, user="app", dbname="postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"postgresql+psycopg://app@/{name}?host={root}&port={port}"
    finally:
        with psycopg.connect(host=str(root), port=port, user="app", dbname="postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
