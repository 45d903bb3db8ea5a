"""What an IR-track challenge is: a scorer dialect, input/output counts, test instances and built-in generators.

A challenge supplies a :class:`TestSet` (one row per instance: its inputs and expected outputs) and the pass rule
(every output of every instance, or at least ``threshold`` of each instance's outputs). Scoring itself lives in
:mod:`engine.scoring.ir`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.ir.instruction_set import Dialect
from engine.ir.program import Program
from engine.metrics.registry import DALLY

BAND_PARAM = "band"
"""The instance parameter of a banded challenge's boards: the recovery band in percent (20, 40, 60, 80, 100)."""


@dataclass(frozen=True)
class TestSet:
    """Test instances: ``inputs`` (instances × inputs), ``expected`` (instances × outputs), the seeds that drew them
    (empty for fixed data) and whether they are hidden (drawn fresh, never shown)."""

    inputs: np.ndarray
    expected: np.ndarray
    seeds: list[int] = field(default_factory=list)
    hidden: bool = False


@dataclass(frozen=True)
class IRChallenge:
    """A Dally-scored IR challenge (track ``ir``, primary metric ``dally@1``).

    test_set(seeds): the instances to check; ``seeds`` fixes hidden instances (tests), None draws fresh ones.
    threshold: fraction of an instance's outputs that must match (1.0 = all of them).
    generators: built-in IR generators by name, each returning program text.
    bands: recovery bands in percent (mask sparse parity: 20, 40, 60, 80, 100). When set, an instance counts only on
        an exact match of every output, the program is scored by the share of instances it gets right (its
        *recovery*), and it passes when that reaches the lowest band (:mod:`engine.scoring.recovery`).
    retired: the date (ISO) the group retired this challenge, or None while it is current. A retired challenge
        stays scoreable; it is not offered as current.
    rules: the correctness rules results are judged under, ``name@version`` ("" for a challenge whose rules never
        changed); a result keeps the version it was judged under (:attr:`engine.result.RunResult.rules`).
    identity_check: a check beyond the test instances, run on a program that passed them (matmul rules@2: the
        symbolic identity); returns the failure line, or None.
    """

    name: str
    summary: str
    dialect: Dialect
    n_inputs: int
    n_outputs: int
    inputs_what: str
    outputs_what: str
    test_set: Callable[[Sequence[int] | None], TestSet]
    generators: Mapping[str, Callable[[], str]]
    threshold: float = 1.0
    track: str = "ir"
    primary_metric: str = DALLY
    bands: tuple[int, ...] = ()
    retired: str | None = None
    rules: str = ""
    identity_check: Callable[[Program], str | None] | None = None

    @property
    def instance_params(self) -> dict[str, int | float]:
        """An IR challenge's name is its instance (``matmul_16x16``, ``symmetry_six``): none, except the recovery
        band of a banded challenge (mask sparse parity: one board per band; the standard board is the top band)."""
        return {BAND_PARAM: max(self.bands)} if self.bands else {}
