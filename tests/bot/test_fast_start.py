"""A command-line start pays only for what it runs: importing the CLI, ``sutro --version`` and ``sutro --help``
load none of the heavy libraries (each is imported by the code that needs it, on first use).

Each check runs in a fresh interpreter (this test process has long imported everything) and reads its
``sys.modules`` at exit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HEAVY = (
    "anthropic",
    "matplotlib",
    "telegram",
    "googleapiclient",
    "dask",
    "distributed",
    # not named by the rule, but what a start used to pay for before reaching the command: the database layer,
    # settings validation, numpy and the terminal renderer
    "sqlalchemy",
    "sqlmodel",
    "pydantic",
    "numpy",
    "rich",
)

PROBE = """
import json, sys
argv = sys.argv[1:]
if argv:
    from bot.cli import main
    try:
        main(argv, prog_name="sutro")
    except SystemExit as exc:
        assert exc.code in (0, None), exc.code
else:
    import bot.cli
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def loaded_packages(cwd: Path, *argv: str) -> set[str]:
    # cwd: the test's empty folder (no .env is read); the data directory is this test's (tests/conftest.py)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


@pytest.mark.parametrize("argv", [(), ("--version",), ("--help",)], ids=["import", "version", "help"])
def test_start_loads_no_heavy_library(argv: tuple[str, ...], tmp_path: Path) -> None:
    loaded = loaded_packages(tmp_path, *argv)
    assert "bot" in loaded and "click" in loaded  # the probe did import the CLI
    assert sorted(loaded & set(HEAVY)) == []


@pytest.mark.slow
def test_a_command_still_loads_what_it_needs(tmp_path: Path) -> None:
    # the other side of the rule: the probe sees imports when a command runs (`challenges` reads the engine's
    # challenge registry, which is numpy-based), so an empty intersection above is not a blind probe
    assert "numpy" in loaded_packages(tmp_path, "challenges", "--json")


@pytest.mark.slow
def test_an_idea_answered_from_the_database_loads_no_anthropic_sdk(tmp_path: Path) -> None:
    # `idea --run N` for an idea that does not exist is answered from the database alone; the SDK (about a second of
    # CPU to import) is for the calls that reach the API
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    probe = PROBE.replace("assert exc.code in (0, None), exc.code", "assert exc.code == 2, exc.code")
    done = subprocess.run(
        [sys.executable, "-c", probe, "idea", "--run", "42"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "no idea #42" in done.stdout + done.stderr
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert "sqlalchemy" in loaded and "anthropic" not in loaded
