"""Builds that say what they built: every compiled extension the package declares is built and current.

Without a C compiler an install skips the extensions and the engine runs its plain-Python twins; the tests of the
compiled code would then skip and the suite stay green. Here that is a failure, unless the run says it tests the
plain-Python engine on purpose (``SUTRO_PURE_PYTHON=1``, the CI's pure-Python job). A module older than its ``.pyx``
is refused at import with one line (:mod:`engine.compiled`).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine import compiled
from engine.compiled import StaleBuild, check_fresh, load_extension

ROOT = Path(__file__).resolve().parents[1]


def declared_extensions() -> list[str]:
    """The extension modules ``pyproject.toml`` declares (``[[tool.setuptools.ext-modules]]``)."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)
    return [module["name"] for module in project["tool"]["setuptools"]["ext-modules"]]


def test_the_package_declares_the_three_engine_extensions() -> None:
    assert sorted(declared_extensions()) == [
        "engine.ir.lanes_kernel",
        "engine.metrics.bytedmd_kernel",
        "engine.tracing.tracked_kernel",
    ]


@pytest.mark.parametrize("name", declared_extensions())
def test_every_declared_extension_is_built_and_active(name: str) -> None:
    if compiled.pure_python_requested():
        pytest.skip(f"{compiled.PURE_PYTHON_ENV} is set: this run tests the plain-Python engine")
    try:
        importlib.import_module(name)
    except ImportError as err:
        pytest.fail(
            f"{name} did not build ({err}); install a C compiler and reinstall (pip install -e .), "
            f"or set {compiled.PURE_PYTHON_ENV}=1 to test the plain-Python engine on purpose"
        )
    assert load_extension(name) is not None


def test_a_module_older_than_its_source_is_refused_in_one_line(tmp_path: Path) -> None:
    module, source = tmp_path / "kernel.cpython-311-x86_64-linux-gnu.so", tmp_path / "kernel.pyx"
    module.write_bytes(b"\0")
    source.write_text("# cython\n")
    os.utime(module, (1_000, 1_000))
    os.utime(source, (2_000, 2_000))
    with pytest.raises(StaleBuild) as caught:
        check_fresh(module, source)
    line = caught.value.one_line()
    assert "\n" not in line
    assert "kernel.pyx" in line and "pip install -e ." in line


def test_a_module_newer_than_its_source_or_without_one_passes(tmp_path: Path) -> None:
    module, source = tmp_path / "kernel.so", tmp_path / "kernel.pyx"
    module.write_bytes(b"\0")
    source.write_text("# cython\n")
    os.utime(source, (1_000, 1_000))
    os.utime(module, (2_000, 2_000))
    check_fresh(module, source)
    check_fresh(module, tmp_path / "absent.pyx")  # a wheel install ships no source: nothing to be stale against


def test_the_pure_python_switch_really_selects_the_plain_python_engine() -> None:
    code = (
        "from engine.metrics import lru_stack; from engine.tracing import tracked_scalar; "
        "print(lru_stack.COMPILED, tracked_scalar.COMPILED)"
    )
    env = {**os.environ, compiled.PURE_PYTHON_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
