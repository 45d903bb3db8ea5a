"""Sparse-parity methods (numpy track): one module per method, registered here (docs/challenges.md#built-in-methods).

Public API: :func:`run_method` and the :data:`METHODS` registry.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.methods import (
    curriculum,
    evolutionary,
    forward_forward,
    fourier,
    genetic_prog,
    gf2,
    km,
    km_min,
    lasso,
    local_update,
    mdl,
    mutual_info,
    perlayer,
    random_proj,
    rl,
    sgd,
    sign_sgd,
    smt,
)
from engine.methods.method import Method
from engine.methods.runner import defaults_at, resolve, run_with
from engine.progress import Progress
from engine.registry import Registry
from engine.result import RunResult

METHODS: Registry[Method] = Registry("method")
for _module in (
    sgd,
    local_update,
    perlayer,
    random_proj,
    sign_sgd,
    curriculum,
    evolutionary,
    forward_forward,
    gf2,
    km,
    km_min,
    lasso,
    fourier,
    smt,
    mutual_info,
    mdl,
    rl,
    genetic_prog,
):
    METHODS.register(_module.METHOD.name, _module.METHOD)


def run_method(
    name: str,
    params: Mapping[str, str | int | float],
    *,
    progress: Progress | None = None,
    attribution: bool = True,
) -> RunResult:
    """Run method ``name`` on sparse parity with ``params`` (strings are parsed), fully traced; ``attribution=False``
    leaves out where the cost went (the per-buffer tables; the metrics are the same, the run about 15 % cheaper).

    Raises :class:`engine.errors.UnknownName` (unknown method or key, with "did you mean") or
    :class:`engine.errors.BadParameter` (value out of range, with the valid range).
    """
    return run_with(METHODS, name, params, progress, attribution=attribution)


def method_values(name: str, params: Mapping[str, str | int | float]) -> tuple[str, dict[str, int | float]]:
    """The challenge (task) name and the validated, defaulted parameters a run of ``name`` would use; the same
    checks as :func:`run_method`, without running (for a stored request's identity)."""
    task, values = resolve(METHODS, name, params)
    return task.name, values


def method_defaults(name: str, params: Mapping[str, str | int | float]) -> dict[str, int | float]:
    """The parameters a run of ``name`` with ``params`` takes, its defaults scaled to the instance they name (what
    "not at its default" is measured against); unlike :func:`method_values`, an instance the defaults are known not
    to solve is not refused."""
    return defaults_at(METHODS, name, params)[1]


__all__ = ["METHODS", "Method", "method_defaults", "method_values", "run_method"]
