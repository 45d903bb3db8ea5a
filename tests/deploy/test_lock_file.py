"""The Docker image's lock file (deploy/requirements.lock, written by ``deploy/lock``) agrees with pyproject.toml:
every runtime dependency of the package and of the image's extras (postgres, dask) is pinned there, at a version
its specifier in pyproject.toml allows, with hashes; and the Dockerfile installs from it with hashes required.

Offline: whether the lock is also the newest resolution is ``deploy/lock --check`` in CI (it needs the index).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "deploy" / "requirements.lock"
IMAGE_EXTRAS = ("postgres", "dask")


def _pins(text: str) -> dict[str, tuple[Version, int]]:
    """name -> (pinned version, number of hashes) from a pip requirements file with hashes."""
    pins: dict[str, tuple[Version, int]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        head = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", block)
        if head:
            pins[canonicalize_name(head.group(1))] = (Version(head.group(2)), block.count("--hash=sha256:"))
    return pins


def _image_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = list(project["dependencies"])
    for extra in IMAGE_EXTRAS:
        declared += project["optional-dependencies"][extra]
    return [Requirement(r) for r in declared]


def test_every_image_dependency_is_pinned_within_its_pyproject_specifier_with_hashes() -> None:
    pins = _pins(LOCK.read_text())
    assert len(pins) > 50  # the transitive closure, not only the direct dependencies
    for requirement in _image_requirements():
        if requirement.marker is not None and not requirement.marker.evaluate({"sys_platform": "linux"}):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is in pyproject.toml but not in the lock: run deploy/lock"
        version, hashes = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (name, str(version), str(requirement))
        assert hashes >= 1, name
    assert all(hashes >= 1 for _, hashes in pins.values())
    assert "sutro-assistant" not in pins  # the package itself is installed from the source, after the lock


def test_the_check_fails_on_a_lock_that_misses_a_dependency_or_pins_outside_the_range() -> None:
    text = LOCK.read_text()
    missing = re.sub(r"(?m)^alembic==.*(\n    .*)*\n", "", text)
    assert "alembic" not in _pins(missing) and "alembic" in _pins(text)
    outside = re.sub(r"(?m)^numpy==\S+", "numpy==1.26.4", text)
    numpy = next(r for r in _image_requirements() if r.name == "numpy")
    assert not numpy.specifier.contains(_pins(outside)["numpy"][0])


def test_the_dockerfile_installs_the_lock_with_hashes_and_the_package_without_resolving() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "COPY deploy/requirements.lock ./requirements.lock" in dockerfile
    assert re.search(r"pip install [^\n]*--require-hashes[^\n]*-r requirements\.lock", dockerfile)
    # the package comes from the compiler stage's wheel, installed without resolving anything
    assert re.search(r"pip wheel [^\n]*--no-deps [^\n]*--wheel-dir /wheels", dockerfile)
    assert re.search(r"pip install [^\n]*--no-deps /tmp/wheels/\*\.whl", dockerfile)
    assert "!deploy/requirements.lock" in (ROOT / "deploy" / "Dockerfile.dockerignore").read_text()
