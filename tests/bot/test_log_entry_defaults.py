"""The sprint log's "parameters not at their defaults" compares a method run with the defaults at its own instance
(engine/methods/reach.py scales gf2's rows with n). Oracle: the stated rule m = max(200, 8·(n+1))."""

from __future__ import annotations

from bot.core.log_entry import _method_defaults
from storage.tables import Run


def _method_defaults_at(run: Run) -> dict[str, object] | None:
    """The defaults at the run's instance, with the admins' default seed set (42, 123, 456)."""
    return _method_defaults(run, [42, 123, 456])


def test_the_log_measures_non_defaults_against_the_defaults_at_the_runs_instance() -> None:
    """gf2 at n=100 ran with the 808 rows its rule gives: not a parameter the member changed."""

    def run(params: dict[str, object]) -> Run:
        return Run(challenge="sparse_parity", kind="method", subject="gf2", params=params, ok=True, engine_version="t")

    assert (_method_defaults_at(run({"n": 100, "k": 5, "m": 808, "seed": 0})) or {})["m"] == 808
    assert (_method_defaults_at(run({"n": 20, "k": 3, "m": 808, "seed": 0})) or {})["m"] == 200
    # gf2 solves no noisy parity: no defaults to compare with
    assert _method_defaults_at(run({"n": 50, "k": 3, "seed": 0, "task": "noisy_parity"})) is None
