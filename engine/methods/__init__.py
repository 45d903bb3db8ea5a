"""Sparse-parity methods (numpy track): one module per method, registered here (docs/challenges.md#built-in-methods).

Public API: :func:`run_method` and the :data:`METHODS` registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.lazy import lazy_exports
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


# --- public API (what bot/ and tools/ may use; tests/engine/test_lazy_exports.py keeps these imports and _PUBLIC equal;
# see docs/architecture.md#the-engines-public-api) ---
if TYPE_CHECKING:
    from engine.methods.on_instances import best_reference_solver as best_reference_solver
    from engine.methods.on_instances import best_solver as best_solver
    from engine.methods.params import COMMON_DEFAULTS as COMMON_DEFAULTS
    from engine.methods.params import SPECS as SPECS
    from engine.methods.params import parse_params as parse_params
    from engine.methods.sweep import MAX_POINTS as MAX_POINTS
    from engine.methods.sweep import Grid as Grid
    from engine.methods.sweep import SweepRow as SweepRow
    from engine.methods.sweep import first_point_checked as first_point_checked
    from engine.methods.sweep import largest_solved as largest_solved

_PUBLIC: dict[str, str] = {
    "COMMON_DEFAULTS": "engine.methods.params",
    "Grid": "engine.methods.sweep",
    "MAX_POINTS": "engine.methods.sweep",
    "SPECS": "engine.methods.params",
    "SweepRow": "engine.methods.sweep",
    "best_reference_solver": "engine.methods.on_instances",
    "best_solver": "engine.methods.on_instances",
    "first_point_checked": "engine.methods.sweep",
    "largest_solved": "engine.methods.sweep",
    "parse_params": "engine.methods.params",
}
"""Names the package offers from its modules, loaded on first use (importing the package stays cheap)."""

__all__ = sorted({*__all__, *_PUBLIC})


if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_exports(__name__, _PUBLIC)


# --- end of the public API ---
