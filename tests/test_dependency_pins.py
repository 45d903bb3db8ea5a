"""Every dependency the project declares — runtime, optional extras and the build backend — has an upper bound, so
a new major release (or a linter's new minor) cannot change what a fresh install runs or checks."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def declared() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    requirements = list(project["project"]["dependencies"]) + list(project["build-system"]["requires"])
    for extra in project["project"]["optional-dependencies"].values():
        requirements += extra
    return requirements


def test_every_declared_dependency_has_an_upper_bound() -> None:
    requirements = [Requirement(text) for text in declared()]
    assert len(requirements) > 20  # the file was read (runtime, extras and build backend together)
    unbounded = [str(r) for r in requirements if not any(s.operator in ("<", "<=", "==", "~=") for s in r.specifier)]
    assert unbounded == []
