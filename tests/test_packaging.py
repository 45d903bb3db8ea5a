"""The built wheel holds all four packages (setuptools silently skips a folder named ``tools`` otherwise).

The wheel is built from a copy of the project in a temporary directory: setuptools writes ``build/lib`` and an
``.egg-info`` next to ``pyproject.toml``, which must not land in the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_contains_all_four_packages(tmp_path: Path) -> None:
    source, dist = tmp_path / "source", tmp_path / "dist"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for package in ("bot", "tools", "engine", "storage"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    checkout_before = sorted(p.name for p in ROOT.iterdir())
    # No C compiler for this build (CC=false): the compiled extensions are optional, so the wheel is built without
    # them in a few seconds instead of 20 s of compiling; that they build is tests/test_compiled_extensions.py's job
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(source)],
        check=True,
        capture_output=True,
        env={**os.environ, "CC": "false", "LDSHARED": "false"},
    )
    assert sorted(p.name for p in ROOT.iterdir()) == checkout_before  # nothing written into the checkout
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for package in ("bot", "tools", "engine", "storage"):
        assert f"{package}/__init__.py" in names, f"{package} missing from the wheel"
    assert any(n.endswith("entry_points.txt") for n in names)
    # Alembic needs its environment, template and revisions at run time (applied at start-up)
    for path in ("storage/migrations/env.py", "storage/migrations/script.py.mako"):
        assert path in names, f"{path} missing from the wheel"
    assert any(n.startswith("storage/migrations/versions/0001_") for n in names)
    # the group's published records are data read at run time (tools/published)
    for data in ("snapshot.json", "spc_board.json", "boards.toml"):
        assert f"tools/published/{data}" in names, f"{data} missing from the wheel"
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "sutro = bot.cli:run" in zipfile.ZipFile(wheel).read(entry_points).decode()
