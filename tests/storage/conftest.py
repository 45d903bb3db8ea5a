"""Storage test fixtures: a throwaway PostgreSQL cluster when the server binaries are installed."""

from __future__ import annotations

import glob
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


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL cluster owned by the ``postgres`` system user, reachable on a unix socket only."""
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
        yield f"postgresql+psycopg://app@/postgres?host={root}&port={port}"
    finally:
        subprocess.run(
            [*as_postgres, str(bindir / "pg_ctl"), "-D", str(root / "data"), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
